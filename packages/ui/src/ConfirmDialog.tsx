import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { type ReactElement, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button } from './Button';
import { cx } from './cx';
import { Icon } from './Icon';

export type ConfirmTone = 'danger' | 'default';

/** What `useConfirm()`'s `confirm` and `confirmDialog` ask. */
export type ConfirmOptions = {
  title: ReactNode;
  description?: ReactNode;
  /** Default 'Confirmar'. */
  confirmLabel?: string;
  /** Default 'Cancelar'. */
  cancelLabel?: string;
  /** 'danger': red confirm button, focus starts on Cancelar. Default 'default'. */
  tone?: ConfirmTone;
};

export type ConfirmDialogProps = ConfirmOptions & {
  open: boolean;
  /** Called with false on Cancelar, Escape and after a confirmation. */
  onOpenChange: (open: boolean) => void;
  /**
   * Runs on the confirm button. Return false (or a promise of false) to keep the dialog open, e.g.
   * when a required reason in `children` is missing. While a returned promise is pending the button
   * shows a spinner and the dialog cannot be dismissed; a rejected promise keeps the dialog open (the
   * caller reports the error, e.g. with a toast).
   */
  onConfirm: () => unknown;
  /** Extra content under the description, e.g. a required reason textarea. */
  children?: ReactNode;
};

type InternalProps = ConfirmDialogProps & {
  /** After the dialog closed and gave the focus back (confirmDialog unmounts its root then). */
  onClosed?: () => void;
};

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function ConfirmDialogImpl({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Confirmar',
  cancelLabel = 'Cancelar',
  tone = 'default',
  onConfirm,
  children,
  onClosed,
}: InternalProps) {
  const [pending, setPending] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  // The element focused when the dialog opened: it gets the focus back (there is no Radix Trigger).
  const returnTo = useRef<HTMLElement | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const handleOpenChange = (next: boolean) => {
    if (!next && pending) return;
    onOpenChange(next);
  };

  const handleConfirm = async () => {
    if (pending) return;
    const result = onConfirm();
    if (!isThenable(result)) {
      if (result !== false) onOpenChange(false);
      return;
    }
    setPending(true);
    let outcome: unknown;
    try {
      outcome = await result;
    } catch {
      outcome = false;
    }
    if (!mounted.current) return;
    setPending(false);
    if (outcome !== false) onOpenChange(false);
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={handleOpenChange}>
      <AlertDialog.Portal>
        {/* A plain backdrop, not Radix's Overlay: that one locks the scroll with react-remove-scroll, which
            injects a style element the CSP (style-src 'self') refuses, an error in the console on every
            dialog (issue 24). The stylesheet locks the page's scroll while a backdrop is open. */}
        <div className="dialog-overlay" data-state={open ? 'open' : 'closed'} aria-hidden="true" />
        <AlertDialog.Content
          className={cx('dialog', tone === 'danger' && 'dialog--danger')}
          // without a description, no aria-describedby (Radix would point it at a missing element)
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            const active = document.activeElement;
            returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
            // danger: the least destructive action; otherwise the first field of the body, else confirm
            const field = bodyRef.current?.querySelector<HTMLElement>(
              'input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled])',
            );
            (tone === 'danger' ? cancelRef.current : (field ?? confirmRef.current))?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const target = returnTo.current;
            returnTo.current = null;
            if (target?.isConnected) target.focus();
            onClosed?.();
          }}
          onEscapeKeyDown={(event) => {
            if (pending) event.preventDefault();
          }}
        >
          <div className="dialog__header">
            {tone === 'danger' ? (
              <span className="dialog__icon">
                <Icon name="alert" />
              </span>
            ) : null}
            <div className="dialog__heading">
              <AlertDialog.Title className="dialog__title">{title}</AlertDialog.Title>
              {description ? (
                <AlertDialog.Description asChild>
                  <div className="dialog__description">{description}</div>
                </AlertDialog.Description>
              ) : null}
            </div>
          </div>
          {children ? (
            <div ref={bodyRef} className="dialog__body">
              {children}
            </div>
          ) : null}
          <div className="dialog__actions">
            <AlertDialog.Cancel asChild>
              <Button ref={cancelRef} variant="secondary" disabled={pending}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            <Button ref={confirmRef} variant={tone === 'danger' ? 'danger' : 'primary'} loading={pending} onClick={handleConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * Modal confirmation (role alertdialog, on @radix-ui/react-alert-dialog). Escape and Cancelar close it
 * (onOpenChange(false)); a click outside does not. Focus starts on Cancelar for `tone="danger"`, else on
 * the first field of `children` or the confirm button, stays inside while open and returns to the
 * element that had it when the dialog opened.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return <ConfirmDialogImpl {...props} />;
}

/**
 * Promise-based confirmation inside a React tree: render `element` once, then
 * `if (await confirm({ title: 'Excluir o item?', tone: 'danger', confirmLabel: 'Excluir' })) …`.
 * Resolves true on confirm, false on Cancelar/Escape (or when the component unmounts, or when a newer
 * `confirm` call replaces a pending one).
 */
export function useConfirm(): [ReactElement, (options: ConfirmOptions) => Promise<boolean>] {
  const [state, setState] = useState<{ options: ConfirmOptions; open: boolean } | null>(null);
  const resolver = useRef<((value: boolean) => void) | null>(null);

  const settle = useCallback((value: boolean) => {
    const resolve = resolver.current;
    resolver.current = null;
    resolve?.(value);
  }, []);

  useEffect(() => () => settle(false), [settle]);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        settle(false);
        resolver.current = resolve;
        setState({ options, open: true });
      }),
    [settle],
  );

  const element = (
    <ConfirmDialogImpl
      // keep the texts while the closing animation runs
      {...(state?.options ?? { title: '' })}
      open={state?.open ?? false}
      onOpenChange={(open) => {
        if (open) return;
        settle(false);
        setState((s) => (s ? { ...s, open: false } : s));
      }}
      onConfirm={() => settle(true)}
    />
  );
  return [element, confirm];
}

function ConfirmHost({ options, onAnswer, onClosed }: { options: ConfirmOptions; onAnswer: (value: boolean) => void; onClosed: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <ConfirmDialogImpl
      {...options}
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        setOpen(false);
        onAnswer(false);
      }}
      onConfirm={() => onAnswer(true)}
      onClosed={onClosed}
    />
  );
}

/**
 * The same confirmation without a React tree at hand (a router's navigation blocker, a window event
 * listener): mounts a dialog into document.body, resolves true on confirm and false on
 * Cancelar/Escape, then removes it and gives the focus back.
 */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const host = document.createElement('div');
    host.setAttribute('data-confirm-dialog', '');
    document.body.append(host);
    const root = createRoot(host);
    let settled = false;
    const settle = (value: boolean) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const dispose = () => {
      // not during React's commit (onClosed runs in an effect cleanup)
      setTimeout(() => {
        root.unmount();
        host.remove();
      }, 0);
    };

    root.render(<ConfirmHost options={options} onAnswer={settle} onClosed={dispose} />);
  });
}
