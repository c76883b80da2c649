import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

type Listener = (event: { matches: boolean }) => void;

/** A matchMedia whose dark preference the test flips; listeners are notified like a browser. */
function installMatchMedia(initialDark: boolean) {
  let dark = initialDark;
  const listeners = new Set<Listener>();
  const mql = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, l: Listener) => listeners.add(l),
    removeEventListener: (_: string, l: Listener) => listeners.delete(l),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => mql),
  );
  return {
    set(value: boolean) {
      dark = value;
      for (const l of listeners) l({ matches: value });
    },
    listenerCount: () => listeners.size,
  };
}

async function freshCore() {
  vi.resetModules();
  const theme = await import('../src/runtime/theme');
  const store = await import('../src/store');
  const { App } = await import('../src/App');
  return { ...theme, ...store, App };
}

describe('theme', () => {
  it('reads the stored preference when the atom is created (getOnInit: no flash)', async () => {
    localStorage.setItem('theme', 'dark');
    installMatchMedia(false);
    const { themeAtom, resolvedThemeAtom, getCoreStore } = await freshCore();
    // no subscription, no effect: the very first read already has the stored value
    expect(getCoreStore().get(themeAtom)).toBe('dark');
    expect(getCoreStore().get(resolvedThemeAtom)).toBe('dark');
  });

  it('accepts a JSON-quoted value and ignores garbage', async () => {
    const { parseThemePreference } = await freshCore();
    expect(parseThemePreference('"light"')).toBe('light');
    expect(parseThemePreference('roxo')).toBeNull();
  });

  it('persists the choice in localStorage "theme" and applies it as <html data-theme>', async () => {
    installMatchMedia(false);
    const { App, themeAtom, getCoreStore } = await freshCore();
    render(<App plugins={[]} pollers={false} />);
    expect(document.documentElement.dataset.theme).toBe('light');
    act(() => getCoreStore().set(themeAtom, 'dark'));
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it("'system' follows the operating-system preference live (matchMedia change)", async () => {
    localStorage.setItem('theme', 'system');
    const media = installMatchMedia(false);
    const { App } = await freshCore();
    render(<App plugins={[]} pollers={false} />);
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(media.listenerCount()).toBe(1);
    act(() => media.set(true));
    expect(document.documentElement.dataset.theme).toBe('dark');
    act(() => media.set(false));
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('an explicit choice ignores the system preference', async () => {
    localStorage.setItem('theme', 'light');
    const media = installMatchMedia(true);
    const { App } = await freshCore();
    render(<App plugins={[]} pollers={false} />);
    expect(document.documentElement.dataset.theme).toBe('light');
    act(() => media.set(false));
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});
