import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';

export type VisuallyHiddenProps = ComponentPropsWithRef<'span'>;

/** Text for screen readers only (kept in the accessibility tree, clipped from view). */
export function VisuallyHidden({ className, ...rest }: VisuallyHiddenProps) {
  return <span className={cx('visually-hidden', className)} {...rest} />;
}
