/**
 * Desktop-shell bridge (spec §1). A native shell (Electron, Tauri, WebView2…) may inject
 * `window.comprasDesktop`; every call is optional and failures are swallowed, so the web app
 * behaves the same with or without a shell.
 */
export interface DesktopShell {
  /** Called on every navigation with the route title. */
  setTitle?: (title: string) => void;
  /** Called when the user is signed out (explicitly, by expiry or by a 401). */
  onSignOut?: () => void;
}

declare global {
  interface Window {
    comprasDesktop?: DesktopShell;
  }
}

function shell(): DesktopShell | undefined {
  return typeof window === 'undefined' ? undefined : window.comprasDesktop;
}

export const bridge = {
  /** True when a desktop shell is present. */
  get available(): boolean {
    return shell() !== undefined;
  },
  setTitle(title: string): void {
    try {
      shell()?.setTitle?.(title);
    } catch {
      // a broken shell must not break the web app
    }
  },
  signedOut(): void {
    try {
      shell()?.onSignOut?.();
    } catch {
      // ignore
    }
  },
};
