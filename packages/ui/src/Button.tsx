import type { ComponentPropsWithRef, MouseEvent } from 'react';
import { cx } from './cx';
import { Icon, type IconName } from './Icon';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export type ButtonProps = ComponentPropsWithRef<'button'> & {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** Busy: shows a spinner, sets aria-busy and ignores clicks while keeping focus on the button. */
  loading?: boolean;
  /** Icon before the text. */
  icon?: IconName;
  /** Stretch to the width of the container. */
  block?: boolean;
};

/**
 * Button. `type` defaults to "button" (pass type="submit" in forms). While `loading`, clicks are
 * swallowed (a submit does not fire twice) but the button stays focusable, so focus is not lost.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  block = false,
  type = 'button',
  className,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (loading) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      {...rest}
      type={type}
      className={cx('button', `button--${variant}`, size === 'sm' && 'button--sm', block && 'button--block', className)}
      aria-busy={loading || undefined}
      aria-disabled={loading || rest['aria-disabled'] || undefined}
      onClick={handleClick}
    >
      {loading ? <Spinner size="sm" decorative /> : icon ? <Icon name={icon} size="1.25em" /> : null}
      {children}
    </button>
  );
}
