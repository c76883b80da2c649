import { cx } from './cx';
import { VisuallyHidden } from './VisuallyHidden';

export const LOADING_TEXT = 'Carregando…';

export type SpinnerProps = {
  size?: 'sm' | 'md' | 'lg';
  /** Announced text (role=status); default 'Carregando…'. */
  label?: string;
  /** Only the animation, hidden from assistive technology (e.g. inside a busy button). */
  decorative?: boolean;
  className?: string;
};

/** Small circular loading indicator. Announces 'Carregando…' unless `decorative`. */
export function Spinner({ size = 'md', label = LOADING_TEXT, decorative = false, className }: SpinnerProps) {
  const circle = <span className={cx('spinner', `spinner--${size}`, className)} aria-hidden="true" />;
  if (decorative) return circle;
  return (
    <span role="status" className="spinner-status">
      {circle}
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}

export type PageLoadingProps = {
  /** Visible and announced text; default 'Carregando…'. */
  label?: string;
  /** Fill the whole viewport (first load of the app) instead of the content area. */
  fullScreen?: boolean;
  className?: string;
};

/**
 * Centered loader for a page or the whole app (role=status). It fades in after a short delay so fast
 * loads do not flash.
 */
export function PageLoading({ label = LOADING_TEXT, fullScreen = false, className }: PageLoadingProps) {
  return (
    <div role="status" className={cx('page-loading', fullScreen && 'page-loading--full', className)}>
      <Spinner size="lg" decorative />
      <p className="page-loading__text">{label}</p>
    </div>
  );
}
