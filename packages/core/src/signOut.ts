import { flushSync } from 'react-dom';
import { api } from './api';
import { setSignedOut } from './auth';
import { REDIRECT_KEY, writeStorage } from './storage';
import { getCoreStore, tokenAtom } from './store';

/**
 * 'Sair': POST /api/auth/signout (revokes the session server-side; failures ignored), then
 * go to /signin, clear token, session and caches, and tell the desktop shell.
 */
export async function signOut(navigate: (to: string, options?: { replace?: boolean }) => void): Promise<void> {
  const token = getCoreStore().get(tokenAtom);
  if (token) {
    try {
      await api.post('auth/signout', { timeout: 5000, headers: { Authorization: `Bearer ${token}` } });
    } catch {
      // the token expires anyway; signing out locally must not depend on the server
    }
  }
  // one synchronous render with both changes: the guard never sees "no token on a guarded page"
  // (it would remember this page for the next user) and /signin never sees "still signed in"
  flushSync(() => {
    setSignedOut();
    navigate('/signin', { replace: true });
  });
  writeStorage('sessionStorage', REDIRECT_KEY, null);
}
