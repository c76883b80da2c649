import { cx } from './cx';
import { formatNumber } from './format';
import { Icon } from './Icon';

export type PaginationProps = {
  /** Current page, 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** What is counted, singular and plural: default `{ one: 'registro', other: 'registros' }`. */
  noun?: { one: string; other: string };
  className?: string;
};

const REGISTROS = { one: 'registro', other: 'registros' };

/** 'N registros' (or the `noun` given) · 'Anterior' · 'Página X de Y' · 'Próxima'. */
export function Pagination({ page, pageSize, total, onPageChange, noun = REGISTROS, className }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  const current = Math.min(Math.max(1, page), pages);
  const first = current <= 1;
  const last = current >= pages;
  // aria-disabled instead of disabled: the focused button stays focused when it reaches the end.
  return (
    <nav className={cx('pagination', className)} aria-label="Paginação">
      <p className="pagination__total">
        {formatNumber(total)} {total === 1 ? noun.one : noun.other}
      </p>
      <div className="pagination__controls">
        <button
          type="button"
          className="button button--secondary button--sm"
          aria-disabled={first || undefined}
          onClick={() => !first && onPageChange(current - 1)}
        >
          <Icon name="chevron-left" size="1.25em" />
          Anterior
        </button>
        <p className="pagination__status" aria-live="polite">
          Página {current} de {pages}
        </p>
        <button
          type="button"
          className="button button--secondary button--sm"
          aria-disabled={last || undefined}
          onClick={() => !last && onPageChange(current + 1)}
        >
          Próxima
          <Icon name="chevron-right" size="1.25em" />
        </button>
      </div>
    </nav>
  );
}
