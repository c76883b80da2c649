import { api } from './api';
import { setKnownBuildId } from './runtime/caches';
import { getCoreStore, sessionAtom, sessionErrorAtom, sessionStatusAtom } from './store';
import type { Session } from './types';

let inFlight: Promise<Session | null> | null = null;

/**
 * Loads GET /api/session into the store (single-flight). Called once at start when a token is
 * present, and again after signing in or switching entidade. A 401 signs out (ky hook) and
 * resolves null; other failures put the status in 'error' (a background reload keeps the old session
 * and rejects instead).
 */
export function loadSession(options: { background?: boolean; token?: string } = {}): Promise<Session | null> {
  if (inFlight) return inFlight;
  const store = getCoreStore();
  // at start (`token`): the request leaves now, in this task, ahead of the chunks the app asks for
  // next (ky would send it a few microtasks later, after the first render); ky reads its answer
  const early =
    options.token && typeof location !== 'undefined'
      ? globalThis.fetch(new URL('/api/session', location.origin), { headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' } })
      : null;
  // a background reload (entidade switch) keeps the current screen instead of the loading state
  if (!options.background || store.get(sessionStatusAtom) !== 'ready') store.set(sessionStatusAtom, 'loading');
  store.set(sessionErrorAtom, null);
  inFlight = api
    .get('session', early ? { fetch: () => early } : {})
    .json<Session>()
    .then(
      (session) => {
        store.set(sessionAtom, session);
        store.set(sessionStatusAtom, 'ready');
        if (session.config?.buildId) setKnownBuildId(session.config.buildId);
        return session;
      },
      (error: unknown) => {
        const status = (error as { response?: { status?: number } })?.response?.status;
        if (status === 401) {
          // the ky hook already signed out
          store.set(sessionStatusAtom, 'idle');
          return null;
        }
        if (options.background && store.get(sessionStatusAtom) === 'ready') throw error;
        store.set(sessionErrorAtom, error);
        store.set(sessionStatusAtom, 'error');
        return null;
      },
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}
