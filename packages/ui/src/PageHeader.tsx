import type { ReactNode } from 'react';
import { cx } from './cx';

export type PageHeaderProps = {
  /** The page's h1. */
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (stacked under the title on small screens). */
  actions?: ReactNode;
  /** Above the title: a breadcrumb or a 'Voltar' link. */
  before?: ReactNode;
  className?: string;
};

/** Page title (h1), optional description and actions. */
export function PageHeader({ title, description, actions, before, className }: PageHeaderProps) {
  return (
    <div className={cx('page-header', className)}>
      {before ? <div className="page-header__before">{before}</div> : null}
      <div className="page-header__row">
        <div className="page-header__text">
          <h1 className="page-header__title">{title}</h1>
          {description ? <p className="page-header__description">{description}</p> : null}
        </div>
        {actions ? <div className="page-header__actions">{actions}</div> : null}
      </div>
    </div>
  );
}
