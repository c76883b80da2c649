import { Icon } from '@app/ui';
import * as RadixToast from '@radix-ui/react-toast';
import { useAtomValue } from 'jotai';
import { type FocusEvent, useCallback, useEffect, useRef } from 'react';
import { MAX_VISIBLE_TOASTS, type ToastItem, dismissToast, toastsAtom } from './queue';

/**
 * Own timer of one toast. Radix's timer is switched off (`duration={Infinity}`) because of its
 * known bug: after a toast is closed by click (focus moves to the viewport) or swiped (the
 * pointer never "leaves"), the provider-wide `isClosePausedRef` stays true and the *next* toast
 * never starts its timer. Here every toast has a fresh `key` (its queue id) and its own timer,
 * paused only while the pointer is over or the focus is inside *that* toast.
 */
function useToastTimer(duration: number, onTimeout: () => void) {
  const remaining = useRef(duration);
  const startedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hovered = useRef(false);
  const focused = useRef(false);
  const timeoutRef = useRef(onTimeout);
  timeoutRef.current = onTimeout;

  const start = useCallback(() => {
    if (timer.current !== undefined || !Number.isFinite(remaining.current)) return;
    startedAt.current = Date.now();
    timer.current = setTimeout(
      () => {
        timer.current = undefined;
        timeoutRef.current();
      },
      Math.max(0, remaining.current),
    );
  }, []);

  const stop = useCallback(() => {
    if (timer.current === undefined) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    remaining.current -= Date.now() - startedAt.current;
  }, []);

  const update = useCallback(() => {
    if (hovered.current || focused.current) stop();
    else start();
  }, [start, stop]);

  useEffect(() => {
    start();
    return () => {
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [start]);

  return {
    onPointerEnter: () => {
      hovered.current = true;
      update();
    },
    onPointerLeave: () => {
      hovered.current = false;
      update();
    },
    onFocus: () => {
      focused.current = true;
      update();
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      focused.current = false;
      update();
    },
  };
}

const icons = { success: 'check', error: 'alert', info: 'info' } as const;

function ToastView({ item }: { item: ToastItem }) {
  const close = useCallback(() => dismissToast(item.id), [item.id]);
  const timerHandlers = useToastTimer(item.duration, close);
  return (
    <RadixToast.Root
      className="toast"
      data-variant={item.kind}
      data-testid="toast"
      type={item.kind === 'error' ? 'foreground' : 'background'}
      duration={Number.POSITIVE_INFINITY}
      open
      onOpenChange={(open) => {
        if (!open) close();
      }}
      {...timerHandlers}
    >
      <span className="toast__icon">
        <Icon name={icons[item.kind]} size={20} />
      </span>
      {/* excluded from radix's announcer (a second copy of the text in the DOM); the viewport is
          the live region instead, and errors are role=alert */}
      {item.title ? (
        <RadixToast.Title className="toast__title" data-radix-toast-announce-exclude="">
          {item.title}
        </RadixToast.Title>
      ) : null}
      <RadixToast.Description className="toast__description" data-radix-toast-announce-exclude="" role={item.kind === 'error' ? 'alert' : undefined}>
        {item.message}
      </RadixToast.Description>
      <RadixToast.Close className="toast__close" aria-label="Fechar notificação">
        <Icon name="x" size={18} />
      </RadixToast.Close>
    </RadixToast.Root>
  );
}

/**
 * Renders the toast queue with @radix-ui/react-toast; the viewport is labelled 'Notificações'.
 * Each message exists once in the DOM (radix's visually-hidden announcer copy is suppressed): the
 * viewport list is a polite live region, error messages are role=alert.
 */
export default function Toaster() {
  const queue = useAtomValue(toastsAtom);
  const visible = queue.slice(0, MAX_VISIBLE_TOASTS);
  return (
    <RadixToast.Provider label="Notificação" swipeDirection="right" duration={Number.POSITIVE_INFINITY}>
      {visible.map((item) => (
        <ToastView key={item.id} item={item} />
      ))}
      <RadixToast.Viewport className="toast-viewport" label="Notificações" aria-live="polite" aria-relevant="additions" />
    </RadixToast.Provider>
  );
}
