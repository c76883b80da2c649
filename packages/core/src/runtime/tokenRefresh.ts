import { jwtDecode } from 'jwt-decode';
import { getCoreStore, tokenAtom } from '../store';

/** Never refresh later than this before `exp` (background tabs run timers about once a minute). */
export const REFRESH_MIN_MARGIN_S = 120;
/** …and not later than this share of the token's lifetime before `exp`. */
export const REFRESH_MARGIN_RATIO = 0.25;
/** After a failed refresh (network), try again this much later while the token is still valid. */
export const REFRESH_RETRY_MS = 30_000;

/**
 * Pure: milliseconds from `nowMs` until the token should be refreshed, or null when there is
 * nothing to refresh (no token, undecodable, no `exp`, already expired). `exp`/`iat` in seconds.
 */
export function refreshDelayMs(token: string | null, nowMs: number): number | null {
  if (!token) return null;
  let exp: unknown;
  let iat: unknown;
  try {
    ({ exp, iat } = jwtDecode<{ exp?: unknown; iat?: unknown }>(token));
  } catch {
    return null;
  }
  if (typeof exp !== 'number' || exp * 1000 <= nowMs) return null;
  const ttl = typeof iat === 'number' && iat < exp ? exp - iat : 900;
  const margin = Math.max(REFRESH_MIN_MARGIN_S, ttl * REFRESH_MARGIN_RATIO);
  return Math.max(0, (exp - margin) * 1000 - nowMs);
}

/**
 * Keeps the access token fresh: shortly before `exp` it calls `refresh()` (POST /api/auth/refresh)
 * and stores the new token. Single-flight; rescheduled whenever the token changes (sign-in,
 * entidade switch, another tab) and when the tab becomes visible again. A 401 signs out through the
 * ky hook; a network failure is retried while the token is still valid.
 */
export function startTokenRefresh(options: { refresh: () => Promise<string>; win?: Window }): () => void {
  const win = options.win ?? window;
  const store = getCoreStore();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  let stopped = false;

  const clear = () => {
    if (timer !== undefined) win.clearTimeout(timer);
    timer = undefined;
  };

  const run = async () => {
    timer = undefined;
    if (inFlight || stopped) return;
    const before = store.get(tokenAtom);
    if (refreshDelayMs(before, Date.now()) === null) return;
    inFlight = true;
    try {
      const next = await options.refresh();
      // signed out or switched meanwhile: keep what is there now
      if (!stopped && store.get(tokenAtom) === before) store.set(tokenAtom, next);
    } catch {
      if (!stopped && store.get(tokenAtom) === before && refreshDelayMs(before, Date.now()) !== null) {
        clear();
        timer = win.setTimeout(() => void run(), REFRESH_RETRY_MS);
      }
    } finally {
      inFlight = false;
    }
  };

  const schedule = () => {
    clear();
    if (stopped) return;
    const delay = refreshDelayMs(store.get(tokenAtom), Date.now());
    if (delay !== null) timer = win.setTimeout(() => void run(), delay);
  };

  const onVisible = () => {
    if (win.document.visibilityState === 'visible' && !inFlight) schedule();
  };

  const unsubscribe = store.sub(tokenAtom, schedule);
  win.document.addEventListener('visibilitychange', onVisible);
  schedule();
  return () => {
    stopped = true;
    clear();
    unsubscribe();
    win.document.removeEventListener('visibilitychange', onVisible);
  };
}
