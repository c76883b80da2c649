import { describe, expect, it, vi } from 'vitest';
import { SESSION_EXPIRED_MESSAGE, api, apiErrorMessage, apiErrorStatus } from '../src/api';
import { isAuthenticatedAtom } from '../src/auth';
import { getQueryClient } from '../src/query';
import { QUERY_DEFAULTS } from '../src/queryDefaults';
import { getCoreStore, sessionAtom, tokenAtom } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, makeSession, makeToken, mockApi } from './helpers';

describe('the ky instance', () => {
  it("prefixes '/api' and sends the bearer token of the store", async () => {
    const token = makeToken();
    getCoreStore().set(tokenAtom, token);
    const { calls } = mockApi({ 'GET /api/memorandos/memorandos': () => json({ items: [], total: 0 }) });
    await expect(api.get('memorandos/memorandos').json()).resolves.toEqual({ items: [], total: 0 });
    expect(new URL(calls[0]!.url).pathname).toBe('/api/memorandos/memorandos');
    expect(calls[0]!.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(localStorage.getItem('token')).toBe(token);
  });

  it('no token → no Authorization header', async () => {
    const { calls } = mockApi({ 'GET /api/version': () => json({ buildId: 'b', version: '1' }) });
    await api.get('version').json();
    expect(calls[0]!.headers.has('Authorization')).toBe(false);
  });

  it('the API error message (pt-BR) becomes the error message', async () => {
    mockApi({
      'POST /api/auth/signin': () => json({ error: { code: 'invalid_credentials', message: 'Login ou senha inválidos.' } }, 401),
    });
    const error = await api.post('auth/signin', { json: { login: 'x', senha: 'y' } }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Login ou senha inválidos.');
    expect(apiErrorMessage(error)).toBe('Login ou senha inválidos.');
  });

  it('401 on a signed-in call → token cleared and signed out, once for a burst', async () => {
    const store = getCoreStore();
    store.set(tokenAtom, makeToken());
    store.set(sessionAtom, makeSession());
    expect(store.get(isAuthenticatedAtom)).toBe(true);
    const signedOut = vi.fn();
    window.comprasDesktop = { onSignOut: signedOut };
    mockApi({
      'GET /api/a': () => json({ error: { code: 'unauthorized', message: 'Sessão expirada.' } }, 401),
      'GET /api/b': () => json({ error: { code: 'unauthorized', message: 'Sessão expirada.' } }, 401),
    });
    const results = await Promise.allSettled([api.get('a'), api.get('b'), api.get('a')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(store.get(tokenAtom)).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(store.get(sessionAtom)).toBeNull();
    expect(store.get(isAuthenticatedAtom)).toBe(false);
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(store.get(toastsAtom).map((t) => t.message)).toEqual([SESSION_EXPIRED_MESSAGE]);
    delete window.comprasDesktop;
  });

  it('a late 401 for an old token does not sign out the new session', async () => {
    const store = getCoreStore();
    const oldToken = makeToken({ sid: 'velha' });
    const newToken = makeToken({ sid: 'nova' });
    store.set(tokenAtom, newToken);
    mockApi({ 'GET /api/a': () => json({ error: { code: 'unauthorized', message: 'x' } }, 401) });
    const error = await api.get('a', { headers: { Authorization: `Bearer ${oldToken}` } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // the call did fail with the 401 this case is about…
    expect(apiErrorStatus(error)).toBe(401);
    // …and the new session survives it
    expect(store.get(tokenAtom)).toBe(newToken);
  });
});

describe('query client', () => {
  it('one instance with spec §7 defaults: no retry, no refetch on focus, stale after 1000 ms', () => {
    expect(getQueryClient()).toBe(getQueryClient());
    const defaults = getQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({ retry: false, refetchOnWindowFocus: false, staleTime: 1000 });
    expect(QUERY_DEFAULTS.mutations.retry).toBe(false);
  });
});
