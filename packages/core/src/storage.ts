/** Keys core keeps in Web Storage. */
export const TOKEN_KEY = 'token';
export const SESSION_KEY = 'session';
export const THEME_KEY = 'theme';
export const REDIRECT_KEY = 'redirect';
export const DEVTOOLS_REPORTED_KEY = 'devtools-reported';

type Area = 'localStorage' | 'sessionStorage';

function area(name: Area): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window[name];
  } catch {
    // Storage can throw (disabled cookies, sandboxed iframes).
    return null;
  }
}

export function readStorage(name: Area, key: string): string | null {
  try {
    return area(name)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(name: Area, key: string, value: string | null): void {
  try {
    const s = area(name);
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // quota or privacy mode: the app keeps working in memory
  }
}

export function clearStorage(name: Area): void {
  try {
    area(name)?.clear();
  } catch {
    // ignore
  }
}

/** Calls `callback` when another tab changes `key` in localStorage. */
export function subscribeStorage(key: string, callback: (value: string | null) => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) callback(readStorage('localStorage', key));
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
