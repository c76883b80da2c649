import { atom, createStore } from 'jotai';
import { atomWithLazy } from 'jotai/utils';
import type { ComposedApp } from './compose';
import { TOKEN_KEY, readStorage, subscribeStorage, writeStorage } from './storage';
import type { RouteInfo, Session } from './types';

type Store = ReturnType<typeof createStore>;

let store: Store = createStore();

/** The one jotai store of the app. Core renders the only `<Provider>`, with this store. */
export function getCoreStore(): Store {
  return store;
}

/** Tests: start from a fresh store (every atom back to its initial value, token re-read from storage). */
export function resetCoreStore(): Store {
  store = createStore();
  return store;
}

// ---------------------------------------------------------------- token

const tokenBaseAtom = atomWithLazy<string | null>(() => readStorage('localStorage', TOKEN_KEY));
tokenBaseAtom.onMount = (set) => subscribeStorage(TOKEN_KEY, (value) => set(value));

/** Bearer token, kept in localStorage under 'token'. Writing null signs out locally. */
export const tokenAtom = atom(
  (get) => get(tokenBaseAtom),
  (_get, set, token: string | null) => {
    writeStorage('localStorage', TOKEN_KEY, token);
    set(tokenBaseAtom, token);
  },
);

// ---------------------------------------------------------------- session

export type SessionStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The session of GET /api/session, loaded once at start (and after sign-in / entidade switch). */
export const sessionAtom = atom<Session | null>(null);
export const sessionStatusAtom = atom<SessionStatus>('idle');
export const sessionErrorAtom = atom<unknown>(null);

// ---------------------------------------------------------------- misc app state

/** Tag and title of the route on screen, registered on every navigation. */
export const routeInfoAtom = atom<RouteInfo | null>(null);

/** True while the developer tools look open (polled every 250 ms). */
export const devtoolsOpenAtom = atom(false);

/** A fatal failure: when set, the full-page error screen replaces the app. */
export interface FatalError {
  error: unknown;
  /** Message shown on the screen in addition to the standard text (e.g. a composition error). */
  message?: string;
}
export const fatalErrorAtom = atom<FatalError | null>(null);

/** The composed plugins (set once at start). */
export const composedAppAtom = atom<ComposedApp | null>(null);
