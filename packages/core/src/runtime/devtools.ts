import { devtoolsOpenAtom, getCoreStore } from '../store';

/** Poll interval of the developer-tools detection (spec §9: 0.25 s). */
export const DEVTOOLS_POLL_MS = 250;
/** A docked devtools panel makes the window this much larger than the viewport. */
export const DEVTOOLS_THRESHOLD_PX = 160;

export interface WindowDimensions {
  outerWidth: number;
  innerWidth: number;
  outerHeight: number;
  innerHeight: number;
}

/**
 * Heuristic (pure): docked developer tools eat into the viewport, so the outer window is much
 * larger than the inner one. Undocked devtools are not detected (no reliable signal).
 * Zero outer sizes (some headless/embedded browsers) never count as open.
 */
export function looksLikeDevtoolsOpen(dim: WindowDimensions): boolean {
  if (!dim.outerWidth || !dim.outerHeight) return false;
  return dim.outerWidth - dim.innerWidth > DEVTOOLS_THRESHOLD_PX || dim.outerHeight - dim.innerHeight > DEVTOOLS_THRESHOLD_PX;
}

/**
 * Polls every `intervalMs` and keeps `devtoolsOpenAtom` current. Never blocks anything:
 * the policy (report/ignore) acts on the atom elsewhere. Returns the stopper.
 */
export function startDevtoolsDetection(options: { intervalMs?: number; win?: Window } = {}): () => void {
  const win = options.win ?? window;
  const store = getCoreStore();
  const tick = () => {
    const open = looksLikeDevtoolsOpen(win);
    if (store.get(devtoolsOpenAtom) !== open) store.set(devtoolsOpenAtom, open);
  };
  tick();
  const id = win.setInterval(tick, options.intervalMs ?? DEVTOOLS_POLL_MS);
  return () => win.clearInterval(id);
}
