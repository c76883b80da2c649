import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { cx } from './cx';

/** One label/value pair of a `DetailsList`; `wide` spans the whole row, `hidden` leaves it out. */
export type DetailsItem = { label: ReactNode; value: ReactNode; wide?: boolean; hidden?: boolean };

export type DetailsListProps = Omit<ComponentPropsWithoutRef<'dl'>, 'children'> & { items: DetailsItem[] };

/** A record's fields as a responsive grid of label/value pairs (`<dl class="details-list">`). */
export function DetailsList({ items, className, ...rest }: DetailsListProps) {
  return (
    <dl {...rest} className={cx('details-list', className)}>
      {items
        .filter((item) => !item.hidden)
        .map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of pairs
          <div key={i} className={item.wide ? 'details-list__wide' : undefined}>
            <dt>{item.label}</dt>
            <dd>{item.value}</dd>
          </div>
        ))}
    </dl>
  );
}
