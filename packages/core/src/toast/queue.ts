import { atom } from 'jotai';
import { getCoreStore } from '../store';

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastItem {
  id: number;
  kind: ToastKind;
  message: string;
  title?: string;
  /** Milliseconds the toast stays visible once shown (paused while hovered/focused). */
  duration: number;
}

/** How many toasts are on screen at once; the rest wait in the queue. */
export const MAX_VISIBLE_TOASTS = 3;
export const TOAST_DURATIONS: Record<ToastKind, number> = { success: 4000, info: 6000, error: 8000 };

/** The queue: the first MAX_VISIBLE_TOASTS are shown, in order. */
export const toastsAtom = atom<ToastItem[]>([]);

/** Set by the signed-in shell once the page's data is in: mount the toaster (a live region) before the first toast. */
export const toasterWantedAtom = atom(false);

let nextId = 0;

export interface ToastOptions {
  duration?: number;
}

function push(kind: ToastKind, message: string, title?: string, options?: ToastOptions): number {
  const store = getCoreStore();
  const queue = store.get(toastsAtom);
  // the same message already queued: do not stack duplicates (e.g. a burst of failing calls)
  const same = queue.find((t) => t.kind === kind && t.message === message && t.title === title);
  if (same) return same.id;
  nextId += 1;
  const item: ToastItem = { id: nextId, kind, message, duration: options?.duration ?? TOAST_DURATIONS[kind] };
  if (title !== undefined) item.title = title;
  store.set(toastsAtom, [...queue, item]);
  return item.id;
}

/** Removes a toast from the queue (closed, swiped, timed out). */
export function dismissToast(id: number): void {
  const store = getCoreStore();
  const queue = store.get(toastsAtom);
  if (queue.some((t) => t.id === id))
    store.set(
      toastsAtom,
      queue.filter((t) => t.id !== id),
    );
}

/** App-wide toasts: `toast.success('Salvo.')`, `toast.error(message, title)`. Returns the id. */
export const toast = {
  success: (message: string, title?: string, options?: ToastOptions) => push('success', message, title, options),
  error: (message: string, title?: string, options?: ToastOptions) => push('error', message, title, options),
  info: (message: string, title?: string, options?: ToastOptions) => push('info', message, title, options),
  dismiss: dismissToast,
  clear: () => getCoreStore().set(toastsAtom, []),
};
