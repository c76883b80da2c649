/** Default interval of the update check (GET /api/version). */
export const VERSION_POLL_MS = 60_000;

declare global {
  interface Window {
    /** Overrides the update-check interval (e2e tests set it to 1000). */
    __COMPRAS_VERSION_POLL_MS__?: number;
  }
}

export interface VersionPollOptions {
  /** Fetches the current buildId from the server. */
  fetchBuildId: () => Promise<string>;
  /** Called once, the first time the buildId differs from the one seen at start. */
  onUpdate: (buildId: string) => void;
  intervalMs?: number;
  win?: Window;
}

export function resolveVersionPollMs(option: number | undefined, win: Window = window): number {
  const fromWindow = win.__COMPRAS_VERSION_POLL_MS__;
  const value = option ?? fromWindow ?? VERSION_POLL_MS;
  return Number.isFinite(value) && value > 0 ? value : VERSION_POLL_MS;
}

/**
 * Update notice: the buildId returned by the first successful check (at start) is the
 * baseline; later checks run every interval, on window focus and when the tab becomes visible.
 * A different buildId calls `onUpdate` once. Network failures are ignored.
 */
export function startVersionPoll(options: VersionPollOptions): () => void {
  const win = options.win ?? window;
  const doc = win.document;
  let baseline: string | null = null;
  let notified = false;
  let inFlight = false;
  let stopped = false;

  const check = async () => {
    if (inFlight || notified || stopped) return;
    inFlight = true;
    try {
      const buildId = await options.fetchBuildId();
      if (stopped || !buildId) return;
      if (baseline === null) baseline = buildId;
      else if (buildId !== baseline && !notified) {
        notified = true;
        options.onUpdate(buildId);
      }
    } catch {
      // offline or server restarting: try again next time
    } finally {
      inFlight = false;
    }
  };

  const onVisibility = () => {
    if (doc.visibilityState === 'visible') void check();
  };
  const onFocus = () => void check();

  void check();
  const id = win.setInterval(() => void check(), resolveVersionPollMs(options.intervalMs, win));
  win.addEventListener('focus', onFocus);
  doc.addEventListener('visibilitychange', onVisibility);
  return () => {
    stopped = true;
    win.clearInterval(id);
    win.removeEventListener('focus', onFocus);
    doc.removeEventListener('visibilitychange', onVisibility);
  };
}
