import { describe, expect, it, vi } from 'vitest';
import { setSignedOut } from '../src/auth';
import { bridge } from '../src/runtime/bridge';
import { getCoreStore, tokenAtom } from '../src/store';
import { makeToken } from './helpers';

describe('desktop-shell bridge', () => {
  it('is a no-op without a shell', () => {
    delete window.comprasDesktop;
    expect(bridge.available).toBe(false);
    expect(() => {
      bridge.setTitle('Memorandos');
      bridge.signedOut();
    }).not.toThrow();
  });

  it('forwards setTitle and sign-out to window.comprasDesktop', () => {
    const shell = { setTitle: vi.fn(), onSignOut: vi.fn() };
    window.comprasDesktop = shell;
    expect(bridge.available).toBe(true);
    bridge.setTitle('Requisições');
    expect(shell.setTitle).toHaveBeenCalledWith('Requisições');
    getCoreStore().set(tokenAtom, makeToken());
    setSignedOut();
    expect(shell.onSignOut).toHaveBeenCalledTimes(1);
    delete window.comprasDesktop;
  });

  it('a broken shell never breaks the app', () => {
    window.comprasDesktop = {
      setTitle: () => {
        throw new Error('boom');
      },
    };
    expect(() => bridge.setTitle('x')).not.toThrow();
    delete window.comprasDesktop;
  });
});
