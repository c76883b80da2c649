import { atom } from 'jotai';
import { jwtDecode } from 'jwt-decode';
import { bridge } from './runtime/bridge';
import { clearCaches } from './runtime/caches';
import { REDIRECT_KEY, readStorage, writeStorage } from './storage';
import { getCoreStore, sessionAtom, sessionErrorAtom, sessionStatusAtom, tokenAtom } from './store';

/** Result of checking the stored token (spec §4). */
export type TokenCheck = { status: 'ok'; exp: number | undefined } | { status: 'no-token' } | { status: 'expired'; exp: number } | { status: 'invalid' };

/**
 * Pure token check. `exp` is in SECONDS (spec §9); `nowMs` in milliseconds.
 * A token that cannot be decoded, or whose `exp` is not a number, is 'invalid'.
 */
export function checkToken(token: string | null | undefined, nowMs: number = Date.now()): TokenCheck {
  if (!token) return { status: 'no-token' };
  let exp: unknown;
  try {
    exp = jwtDecode<{ exp?: unknown }>(token).exp;
  } catch {
    return { status: 'invalid' };
  }
  if (exp === undefined) return { status: 'ok', exp: undefined };
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return { status: 'invalid' };
  if (exp * 1000 <= nowMs) return { status: 'expired', exp };
  return { status: 'ok', exp };
}

/** What the guard does for a token check (pure; the component performs it). */
export type GuardDecision =
  | { action: 'allow' }
  /** No token: remember `path`, go to sign-in. */
  | { action: 'signin'; remember: true }
  /** Expired: remember `path`, log 'Token expired', set signed-out state. */
  | { action: 'expire'; remember: true }
  /** Undecodable: go to sign-in (the bad token is dropped). */
  | { action: 'signin'; remember: false };

export function decideGuard(check: TokenCheck): GuardDecision {
  switch (check.status) {
    case 'ok':
      return { action: 'allow' };
    case 'no-token':
      return { action: 'signin', remember: true };
    case 'expired':
      return { action: 'expire', remember: true };
    default:
      return { action: 'signin', remember: false };
  }
}

/** A form of the path a browser could read as another origin or a different path. */
const unsafePath = (path: string): boolean =>
  path.includes('\\') || [...path].some((ch) => ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f));

/**
 * Only same-app absolute paths are remembered (no sign-in page itself). Checked as written and after
 * each percent-decoding: no control characters (a browser drops tab and newline, so '/%09/evil.example'
 * becomes '//evil.example'), no backslash, no '//host' prefix, and the URL stays on this origin.
 */
export function isRememberablePath(path: string): boolean {
  let form = path;
  for (let round = 0; round < 4; round++) {
    if (!form.startsWith('/') || form.startsWith('//') || unsafePath(form)) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      break; // a lone '%' (a search for '50%'): nothing more to decode
    }
    if (decoded === form) break;
    if (round === 3) return false; // still encoded after four rounds: not a path the app writes
    form = decoded;
  }
  if (typeof window !== 'undefined') {
    try {
      if (new URL(path, window.location.origin).origin !== window.location.origin) return false;
    } catch {
      return false;
    }
  }
  return path !== '/' && !/^\/(signin|recoveryPass|verificar)(\/|\?|$)/.test(path);
}

/** Remembers where to return after signing in (sessionStorage 'redirect'). */
export function rememberRedirect(path: string): void {
  if (isRememberablePath(path)) writeStorage('sessionStorage', REDIRECT_KEY, path);
}

export function peekRedirect(): string | null {
  const path = readStorage('sessionStorage', REDIRECT_KEY);
  return path && isRememberablePath(path) ? path : null;
}

/** Reads and forgets the remembered path. */
export function takeRedirect(): string | null {
  const path = peekRedirect();
  writeStorage('sessionStorage', REDIRECT_KEY, null);
  return path;
}

/**
 * Signed-in state. Reading: a token is present and, when last read, neither expired nor
 * undecodable. Writing `false` (setIsAuthenticated(false)) drops token and session.
 */
export const isAuthenticatedAtom = atom(
  (get) => checkToken(get(tokenAtom)).status === 'ok',
  (_get, set, value: boolean) => {
    if (value) return;
    set(tokenAtom, null);
    set(sessionAtom, null);
    set(sessionErrorAtom, null);
    set(sessionStatusAtom, 'idle');
  },
);

/** Signs out locally: token and session dropped, caches cleared, desktop shell told. */
export function setSignedOut(): void {
  const store = getCoreStore();
  const hadToken = store.get(tokenAtom) !== null;
  store.set(isAuthenticatedAtom, false);
  clearCaches();
  if (hadToken) bridge.signedOut();
}
