import type { ReactNode } from 'react';
import { cx } from './cx';
import { Icon, type IconName } from './Icon';

export type EmptyStateProps = {
  title: ReactNode;
  description?: ReactNode;
  icon?: IconName;
  /** E.g. a 'Novo registro' button. */
  action?: ReactNode;
  className?: string;
};

/** Friendly 'nothing here yet' block. */
export function EmptyState({ title, description, icon = 'box', action, className }: EmptyStateProps) {
  return (
    <div className={cx('empty-state', className)}>
      <span className="empty-state__icon">
        <Icon name={icon} size={28} />
      </span>
      <p className="empty-state__title">{title}</p>
      {description ? <p className="empty-state__description">{description}</p> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  );
}
