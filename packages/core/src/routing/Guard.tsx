import { PageLoading } from '@app/ui';
import { useAtomValue, useSetAtom } from 'jotai';
import { type ReactNode, useEffect, useLayoutEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { checkToken, decideGuard, isAuthenticatedAtom, rememberRedirect, setSignedOut } from '../auth';
import { ErrorScreen } from '../errors/ErrorScreen';
import { loadSession } from '../session';
import { sessionErrorAtom, sessionStatusAtom, tokenAtom } from '../store';

/** Waits for the session (loaded once) before rendering signed-in content. */
function SessionGate({ children }: { children: ReactNode }) {
  const status = useAtomValue(sessionStatusAtom);
  const error = useAtomValue(sessionErrorAtom);
  useEffect(() => {
    if (status === 'idle') void loadSession();
  }, [status]);
  if (status === 'ready') return <>{children}</>;
  if (status === 'error') return <ErrorScreen error={error} />;
  return <PageLoading fullScreen />;
}

/**
 * Authentication guard (spec §4), evaluated on every render (so on every navigation):
 * - no token → remember the current path (sessionStorage 'redirect') and go to /signin;
 * - token `exp` passed → remember the path, `console.log('Token expired')`, set the signed-out
 *   state (setIsAuthenticated(false)); the next render has no token and goes to /signin;
 * - undecodable token → /signin (the token is dropped);
 * - valid → the session is loaded (once) and the children render.
 */
export function Guard({ children }: { children: ReactNode }) {
  const token = useAtomValue(tokenAtom);
  const setIsAuthenticated = useSetAtom(isAuthenticatedAtom);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const decision = decideGuard(checkToken(token));
  const path = `${location}${search ? `?${search}` : ''}`;
  const kind = decision.action === 'signin' ? (decision.remember ? 'no-token' : 'invalid') : decision.action;

  useLayoutEffect(() => {
    if (kind === 'expire') {
      rememberRedirect(path);
      console.log('Token expired');
      setSignedOut(); // next render: no token → /signin
    } else if (kind === 'no-token') {
      rememberRedirect(path);
      navigate('/signin', { replace: true });
    } else if (kind === 'invalid') {
      setIsAuthenticated(false);
      navigate('/signin', { replace: true });
    }
  }, [kind, path, navigate, setIsAuthenticated]);

  if (kind === 'allow') return <SessionGate>{children}</SessionGate>;
  return <PageLoading fullScreen />;
}
