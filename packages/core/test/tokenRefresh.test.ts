import { describe, expect, it, vi } from 'vitest';
import { api } from '../src/api';
import { REFRESH_RETRY_MS, refreshDelayMs, startTokenRefresh } from '../src/runtime/tokenRefresh';
import { getCoreStore, tokenAtom } from '../src/store';
import { json, makeToken, mockApi } from './helpers';

describe('token refresh', () => {
  it('pure: refresh a quarter of the lifetime (at least 2 min) before exp; nothing for bad/expired tokens', () => {
    const now = 1_000_000_000_000;
    const s = now / 1000;
    expect(refreshDelayMs(makeToken({ iat: s, exp: s + 900 }), now)).toBe(675_000);
    expect(refreshDelayMs(makeToken({ iat: s, exp: s + 300 }), now)).toBe(180_000);
    expect(refreshDelayMs(makeToken({ iat: s - 890, exp: s + 10 }), now)).toBe(0);
    expect(refreshDelayMs(makeToken({ exp: s - 1 }), now)).toBeNull();
    expect(refreshDelayMs('lixo', now)).toBeNull();
    expect(refreshDelayMs(null, now)).toBeNull();
  });

  it('POSTs /api/auth/refresh before exp with the current token and stores the new one, then again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = Math.floor(Date.now() / 1000);
    const first = makeToken({ sid: 'a', iat: s, exp: s + 900 });
    const tokens = [makeToken({ sid: 'b', iat: s + 675, exp: s + 1575 }), makeToken({ sid: 'c', iat: s + 1350, exp: s + 2250 })];
    const seen: (string | null)[] = [];
    mockApi({
      'POST /api/auth/refresh': (request) => {
        seen.push(request.headers.get('Authorization'));
        return json({ token: tokens.shift() });
      },
    });
    getCoreStore().set(tokenAtom, first);
    const stop = startTokenRefresh({ refresh: async () => (await api.post('auth/refresh').json<{ token: string }>()).token });

    await vi.advanceTimersByTimeAsync(674_000);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(seen).toEqual([`Bearer ${first}`]));
    const second = getCoreStore().get(tokenAtom);
    expect(second).not.toBe(first);
    expect(localStorage.getItem('token')).toBe(second);

    await vi.advanceTimersByTimeAsync(675_000);
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]).toBe(`Bearer ${second}`);
    stop();
  });

  it('retries after a network failure; stops when signed out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = Math.floor(Date.now() / 1000);
    getCoreStore().set(tokenAtom, makeToken({ iat: s, exp: s + 900 }));
    const refresh = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(makeToken({ sid: 'novo' }));
    const stop = startTokenRefresh({ refresh });
    await vi.advanceTimersByTimeAsync(675_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MS);
    expect(refresh).toHaveBeenCalledTimes(2);

    getCoreStore().set(tokenAtom, null);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    stop();
  });
});
