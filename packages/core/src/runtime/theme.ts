import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { THEME_KEY, readStorage, subscribeStorage, writeStorage } from '../storage';
import type { ResolvedTheme, ThemePreference } from '../types';

export const DARK_QUERY = '(prefers-color-scheme: dark)';
const PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];

/** Parses a stored theme; accepts the raw value ('dark') and a JSON string ('"dark"'). */
export function parseThemePreference(raw: string | null): ThemePreference | null {
  if (raw === null) return null;
  const value = raw.replace(/^"|"$/g, '');
  return (PREFERENCES as readonly string[]).includes(value) ? (value as ThemePreference) : null;
}

/** Stores the plain value (not JSON) so public/theme-init.js can read it before first paint. */
const themeStorage = {
  getItem: (key: string, initial: ThemePreference): ThemePreference => parseThemePreference(readStorage('localStorage', key)) ?? initial,
  setItem: (key: string, value: ThemePreference) => writeStorage('localStorage', key, value),
  removeItem: (key: string) => writeStorage('localStorage', key, null),
  subscribe: (key: string, callback: (value: ThemePreference) => void, initial: ThemePreference) =>
    subscribeStorage(key, (raw) => callback(parseThemePreference(raw) ?? initial)),
};

/**
 * Theme preference in localStorage 'theme'. `getOnInit: true` reads storage when the atom is
 * created, so the first render already has the stored value (no light→dark flash).
 */
export const themeAtom = atomWithStorage<ThemePreference>(THEME_KEY, 'system', themeStorage, { getOnInit: true });

function mediaQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

/** The operating-system preference, followed live while mounted. */
export const systemPrefersDarkAtom = atom<boolean>(mediaQuery()?.matches ?? false);
systemPrefersDarkAtom.onMount = (set) => {
  const mql = mediaQuery();
  if (!mql) return;
  set(mql.matches);
  const onChange = (event: MediaQueryListEvent) => set(event.matches);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
};

export function resolveTheme(preference: ThemePreference, systemDark: boolean): ResolvedTheme {
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

/** 'light' | 'dark' actually applied. */
export const resolvedThemeAtom = atom<ResolvedTheme>((get) => resolveTheme(get(themeAtom), get(systemPrefersDarkAtom)));

/** Applies the theme as `<html data-theme>` (what @app/ui's tokens select on). */
export function applyTheme(theme: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  if (root.dataset.theme !== theme) root.dataset.theme = theme;
  root.style.colorScheme = theme;
}
