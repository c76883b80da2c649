import { jwtDecode } from 'jwt-decode';
import { api } from '../api';
import { DEVTOOLS_REPORTED_KEY, readStorage, writeStorage } from '../storage';
import type { DevtoolsPolicy } from '../types';

/** The session id (`sid`) of a token (or, without one, the token's signature); null when signed out. */
export function sessionIdOf(token: string | null): string | null {
  if (!token) return null;
  try {
    const sid = jwtDecode<{ sid?: unknown }>(token).sid;
    if (typeof sid === 'string' && sid) return sid;
  } catch {
    return null;
  }
  return token.slice(-16);
}

/** Pure: report when open, policy 'report', signed in, and not yet reported for this session. */
export function shouldReportDevtools(input: { open: boolean; policy: DevtoolsPolicy | undefined; sid: string | null; reportedSid: string | null }): boolean {
  return input.open && input.policy === 'report' && input.sid !== null && input.reportedSid !== input.sid;
}

/**
 * Applies the devtools policy of the session config: 'report' → POST /api/devtools
 * `{ open: true, route, pagina }` once per session (remembered in sessionStorage by session id);
 * 'ignore' → nothing. Never blocks the user; failures are ignored.
 */
export function applyDevtoolsPolicy(input: {
  open: boolean;
  policy: DevtoolsPolicy | undefined;
  token: string | null;
  route: string;
  /** The page's title as the person sees it (what the Logs show instead of an address with ids). */
  pagina?: string | undefined;
}): boolean {
  const sid = sessionIdOf(input.token);
  const reportedSid = readStorage('sessionStorage', DEVTOOLS_REPORTED_KEY);
  if (!shouldReportDevtools({ open: input.open, policy: input.policy, sid, reportedSid })) return false;
  writeStorage('sessionStorage', DEVTOOLS_REPORTED_KEY, sid);
  api.post('devtools', { json: { open: true, route: input.route, ...(input.pagina ? { pagina: input.pagina } : {}) } }).catch(() => {});
  return true;
}
