import type { ReactNode } from 'react';
import { cx } from './cx';
import { Icon, type IconName } from './Icon';

export type AlertVariant = 'info' | 'success' | 'warning' | 'error';

export type AlertProps = {
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  /** Shows a close button ('Fechar aviso'). */
  onDismiss?: () => void;
  /** Extra content on the right/bottom, e.g. a 'Tentar novamente' button. */
  actions?: ReactNode;
  className?: string;
};

const icons: Record<AlertVariant, IconName> = { info: 'info', success: 'check', warning: 'alert', error: 'alert' };

/**
 * Inline message. `error` is role=alert (announced at once); the others are role=status (polite).
 */
export function Alert({ variant = 'info', title, children, onDismiss, actions, className }: AlertProps) {
  return (
    <div role={variant === 'error' ? 'alert' : 'status'} className={cx('alert', `alert--${variant}`, className)}>
      <Icon name={icons[variant]} className="alert__icon" />
      <div className="alert__body">
        {title ? <p className="alert__title">{title}</p> : null}
        {children ? <div className="alert__content">{children}</div> : null}
        {actions ? <div className="alert__actions">{actions}</div> : null}
      </div>
      {onDismiss ? (
        <button type="button" className="icon-button alert__dismiss" aria-label="Fechar aviso" onClick={onDismiss}>
          <Icon name="x" size={18} />
        </button>
      ) : null}
    </div>
  );
}
