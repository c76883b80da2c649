// The unsaved-changes guard of a form: asks before the page is left with changes not saved.
// The hook is exported by @app/core (so it is on the first page): its dialog is a lazy chunk.
import { type ReactNode, Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';

export const UNSAVED_MESSAGE = 'Há alterações não salvas. Deseja sair sem salvar?';

const LeaveDialog = lazy(() => import('./LeaveDialog'));

/**
 * While `active` (unsaved changes): the browser asks before closing/reloading (beforeunload), and
 * in-app links and the Back button ask `message` first, in the app's confirmation dialog (@app/ui
 * ConfirmDialog): render the returned `dialog` in the page.
 *
 *   const guard = useUnsavedChangesGuard(dirty);
 *   return <form>…{guard.dialog}</form>;   // before navigating in code: navigate(to, { replace: guard.release() })
 *
 * Back cannot be cancelled after the router has seen it (the router re-renders, and this page is gone,
 * before a popstate listener of the page runs). So when the form becomes dirty a guard entry with the
 * same URL is pushed: Back only leaves the guard (nothing re-renders), then the page asks and either
 * pushes the guard again or goes back for real. Leaving through a link or `release()` replaces the
 * guard entry, so history keeps no duplicate of the form.
 */
export function useUnsavedChangesGuard(active: boolean, message = UNSAVED_MESSAGE): { release: () => boolean; dialog: ReactNode } {
  const activeRef = useRef(active);
  activeRef.current = active;
  const guarded = useRef(false);
  const asking = useRef(false);

  // the question, in the app's dialog (rendered by the page: it goes away with the page)
  const [dialog, setDialog] = useState<{ open: boolean } | null>(null);
  const answer = useRef<((leave: boolean) => void) | null>(null);
  const askToLeave = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false);
        answer.current = resolve;
        setDialog({ open: true });
      }),
    [],
  );
  const settle = useCallback((leave: boolean) => {
    const resolve = answer.current;
    answer.current = null;
    setDialog((d) => (d ? { open: false } : d));
    resolve?.(leave);
  }, []);
  // a page that goes away while asking (signed out) stays
  useEffect(() => () => answer.current?.(false), []);

  useEffect(() => {
    if (active && !guarded.current) {
      window.history.pushState({ ...(window.history.state ?? {}), comprasGuard: true }, '', window.location.href);
      guarded.current = true;
    }
  }, [active]);

  useEffect(() => {
    let mounted = true;
    const pushGuard = () => {
      window.history.pushState({ ...(window.history.state ?? {}), comprasGuard: true }, '', window.location.href);
      guarded.current = true;
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!activeRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    const onPopState = () => {
      if (!guarded.current) return;
      // Back left the guard entry: this is the form's own entry (same URL)
      guarded.current = false;
      if (!activeRef.current) {
        window.history.back();
        return;
      }
      if (asking.current) {
        pushGuard();
        return;
      }
      asking.current = true;
      void askToLeave().then((leave) => {
        asking.current = false;
        if (!mounted) return;
        if (leave) window.history.back();
        else pushGuard();
      });
    };
    const onClick = (event: MouseEvent) => {
      if (!guarded.current) return;
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!anchor || anchor.hasAttribute('download') || (anchor.target && anchor.target !== '_self')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      event.stopPropagation();
      const leave = () => {
        // the destination replaces the guard entry (the router follows replaceState)
        guarded.current = false;
        window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
      };
      if (!activeRef.current) {
        leave();
        return;
      }
      if (asking.current) return;
      asking.current = true;
      void askToLeave().then((ok) => {
        asking.current = false;
        if (ok && mounted && guarded.current) leave();
      });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('popstate', onPopState);
    document.addEventListener('click', onClick, true);
    return () => {
      mounted = false;
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      document.removeEventListener('click', onClick, true);
    };
  }, [askToLeave]);

  return {
    /** Render it in the page: the question when the person tries to leave. */
    dialog: dialog ? (
      <Suspense fallback={null}>
        <LeaveDialog open={dialog.open} message={message} onAnswer={settle} />
      </Suspense>
    ) : null,
    /** Before navigating away in code: true when the guard entry is on top (navigate with replace). */
    release: () => {
      const was = guarded.current;
      guarded.current = false;
      return was;
    },
  };
}
