import { isHTTPError } from 'ky';
import { getCoreStore, fatalErrorAtom } from '../store';

/** Shows the full-page error screen for `error`. */
export function reportFatal(error: unknown, message?: string): void {
  const store = getCoreStore();
  if (store.get(fatalErrorAtom)) return; // keep the first failure
  console.error(error);
  store.set(fatalErrorAtom, message === undefined ? { error } : { error, message });
}

/** Benign noise browsers report as window errors. */
function isIgnorable(error: unknown, message: string): boolean {
  if (/ResizeObserver loop/i.test(message)) return true;
  // API failures are handled where the call is made (401 already signs out)
  if (isHTTPError(error)) return true;
  if (error instanceof Error && error.name === 'AbortError') return true;
  return false;
}

/** Unhandled window 'error' / 'unhandledrejection' become the full-page error screen. */
export function installFatalHandlers(win: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    // resource load errors (img/script) arrive without an error object: not fatal
    if (!event.error && !event.message) return;
    if (isIgnorable(event.error, event.message ?? '')) return;
    reportFatal(event.error ?? new Error(event.message));
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    const reason = event.reason;
    const message = reason instanceof Error ? reason.message : String(reason);
    if (isIgnorable(reason, message)) return;
    reportFatal(reason instanceof Error ? reason : new Error(message));
  };
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
  };
}
