import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';
import { cx } from './cx';

export type CardProps = Omit<ComponentPropsWithRef<'section'>, 'title'> & {
  /** Heading of the card (h2 by default); the card becomes a region named by it. */
  title?: ReactNode;
  headingLevel?: 2 | 3 | 4;
  /** Buttons on the right of the heading. */
  actions?: ReactNode;
  footer?: ReactNode;
  /** Remove the body padding (e.g. a DataTable that runs edge to edge). */
  flush?: boolean;
};

/** Surface with an optional heading, actions and footer. */
export function Card({ title, headingLevel = 2, actions, footer, flush = false, className, children, id, ...rest }: CardProps) {
  const Heading = `h${headingLevel}` as 'h2';
  const autoId = useId();
  const headingId = title ? (id ? `${id}-titulo` : `card${autoId.replace(/[^a-zA-Z0-9_-]/g, '')}`) : undefined;
  return (
    <section {...rest} id={id} aria-labelledby={rest['aria-labelledby'] ?? headingId} className={cx('card', flush && 'card--flush', className)}>
      {title || actions ? (
        <div className="card__header">
          {title ? (
            <Heading id={headingId} className="card__title">
              {title}
            </Heading>
          ) : null}
          {actions ? <div className="card__actions">{actions}</div> : null}
        </div>
      ) : null}
      <div className="card__body">{children}</div>
      {footer ? <div className="card__footer">{footer}</div> : null}
    </section>
  );
}
