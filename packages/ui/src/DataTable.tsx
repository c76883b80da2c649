import { Fragment, type Key, type ReactNode, type RefObject, useId, useLayoutEffect, useRef } from 'react';
import { cx } from './cx';
import { EmptyState } from './EmptyState';
import { formatNumber } from './format';
import { Icon } from './Icon';
import { Spinner } from './Spinner';

export type SortDirection = 'asc' | 'desc';
export type SortState = { key: string; dir: SortDirection };

export type DataTableColumn<T> = {
  /** Column id; also the sort key and, without `render`, the property shown. */
  key: string;
  header: ReactNode;
  sortable?: boolean;
  render?: (row: T) => ReactNode;
  align?: 'start' | 'center' | 'end';
  /** CSS width, e.g. '8rem' or '20%'. */
  width?: string;
  /** Makes the cells of this column row headers (th scope=row), e.g. the name column. */
  rowHeader?: boolean;
  /**
   * Text cells (string or number content): up to 24 characters stay on one line; longer text is
   * clamped to 1 line (the column shrinks down to its longest word when the table is short of room),
   * whole in a title and while the row has the focus.
   * False: the text as it is (wraps freely).
   */
  clamp?: boolean;
};

export type DataTableProps<T> = {
  columns: DataTableColumn<T>[];
  rows: readonly T[];
  /** Table caption (required for accessibility); `captionHidden` keeps it for screen readers only. */
  caption: ReactNode;
  captionHidden?: boolean;
  /** React key of a row; default `row.id`, else the index. */
  rowKey?: (row: T, index: number) => Key;
  sort?: SortState | null;
  onSortChange?: (sort: SortState) => void;
  loading?: boolean;
  /** Shown when there are no rows and not loading; default 'Nenhum registro encontrado.' */
  empty?: ReactNode;
  /**
   * Content of a full-width row right under a row (e.g. the detail a button of the row opens, with
   * aria-expanded); null or undefined for no detail row.
   */
  rowDetail?: (row: T) => ReactNode;
  className?: string;
};

const alignClass = (align: DataTableColumn<unknown>['align']) => (align && align !== 'start' ? `data-table__cell--${align}` : undefined);

function defaultKey(row: unknown, index: number): Key {
  if (row && typeof row === 'object' && 'id' in row) {
    const id = (row as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return index;
}

/** A header over an empty column may wrap: after each '/' too ('CATMAT/CATSER'). */
function wrappableHeader(header: ReactNode): ReactNode {
  if (typeof header !== 'string' || !header.includes('/')) return header;
  const parts = header.split('/');
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed string
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? (
        <>
          /<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

const isEmptyContent = (content: ReactNode) => content === null || content === undefined || content === false || content === '';

/** Text long enough to be cut gets a title with the whole text. */
const TITLE_MIN_LENGTH = 25;
/** Short text (a group, a unit, a status) stays on one line, leaving the wrapping to long text. */
const NOWRAP_MAX_LENGTH = 24;

function cellContent(content: ReactNode, clamp: boolean): ReactNode {
  if (!clamp || (typeof content !== 'string' && typeof content !== 'number')) return content;
  const text = String(content);
  if (text.length <= NOWRAP_MAX_LENGTH) {
    // words (a name, a cargo) may be cut short when the table is short of room (data-squeeze);
    // a value without a plain space (a date, an amount, a CPF, an e-mail) never is
    return (
      <span className="data-table__nowrap" data-squeezable={text.includes(' ') || undefined}>
        {text}
      </span>
    );
  }
  return (
    <span className="data-table__clamp" title={text.length >= TITLE_MIN_LENGTH ? text : undefined}>
      {text}
    </span>
  );
}

function defaultCell(row: unknown, key: string): ReactNode {
  if (!row || typeof row !== 'object') return null;
  const value = (row as Record<string, unknown>)[key];
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  return String(value);
}

/** Short text with words (a name) cut short by data-squeeze gets the whole text as its title. */
function titleSqueezed(box: HTMLElement, squeezed: boolean) {
  for (const span of box.querySelectorAll<HTMLElement>('.data-table__nowrap[data-squeezable]')) {
    const cut = squeezed && span.scrollHeight > span.clientHeight + 1;
    if (cut) span.title = span.textContent ?? '';
    else span.removeAttribute('title');
  }
}

/**
 * Fits a table to its scroller: the headers stay on one line while the table fits; a table wider than
 * its box lets them wrap (data-wrap-headers), then narrows the cells' side padding (data-squeeze), and
 * only then lets short text with words (a name, a cargo) be cut to one line like long text
 * (data-squeeze="texto", the whole text of a cut cell in a title) before anything scrolls
 * sideways, so the last columns (a row's actions) stay in view at 1366 px and the rows keep their
 * height. A table still wider scrolls, and its scroller then takes the keyboard focus as a region
 * named by the caption (axe scrollable-region-focusable: a keyboard user scrolls to the hidden columns
 * of a table without links). Runs after every render and on resize.
 */
function useFitToBox(ref: RefObject<HTMLDivElement | null>, captionId: string) {
  const fit = () => {
    const box = ref.current;
    const table = box?.querySelector('table');
    if (!box || !table) return;
    delete box.dataset.wrapHeaders;
    delete box.dataset.squeeze;
    let wide = table.offsetWidth > box.clientWidth + 1;
    if (wide) {
      box.dataset.wrapHeaders = '';
      wide = table.offsetWidth > box.clientWidth + 1;
    }
    if (wide) {
      // first the cells' side padding only; short text with words is cut only if that is not enough
      box.dataset.squeeze = '';
      wide = table.offsetWidth > box.clientWidth + 1;
    }
    if (wide) {
      box.dataset.squeeze = 'texto';
      wide = table.offsetWidth > box.clientWidth + 1;
    }
    titleSqueezed(box, box.dataset.squeeze === 'texto');
    if (wide) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-labelledby', captionId);
    } else {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-labelledby');
    }
  };
  const latest = useRef(fit);
  latest.current = fit;
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured after every render (rows change the widths)
  useLayoutEffect(() => fit());
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => latest.current());
    observer.observe(box);
    const table = box.querySelector('table');
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, [ref]);
}

/**
 * Presentational table for list pages. Sorting and paging are controlled by the page (server-side):
 * a sortable header is a button that calls `onSortChange` (asc first, then toggles), and the header
 * cell carries aria-sort.
 */
export function DataTable<T>({
  columns,
  rows,
  caption,
  captionHidden = false,
  rowKey = defaultKey,
  sort,
  onSortChange,
  loading = false,
  empty,
  rowDetail,
  className,
}: DataTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const captionId = useId();
  useFitToBox(scrollRef, captionId);
  const showEmpty = !loading && rows.length === 0;
  const showLoadingRow = loading && rows.length === 0;

  const contents = rows.map((row) => columns.map((col) => (col.render ? col.render(row) : defaultCell(row, col.key))));
  // A column with nothing in any row of the page shrinks to its header (which may then wrap).
  const emptyColumn = columns.map((_, c) => rows.length > 0 && contents.every((cells) => isEmptyContent(cells[c])));
  const cellClass = (col: DataTableColumn<T>, c: number) => cx(alignClass(col.align), emptyColumn[c] && 'data-table__cell--empty-column');

  const nextSort = (key: string): SortState => (sort?.key === key ? { key, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' });

  return (
    <div className={cx('data-table', loading && 'data-table--loading', className)}>
      <div ref={scrollRef} className="data-table__scroll">
        <table className="data-table__table" aria-busy={loading || undefined}>
          <caption id={captionId} className={cx('data-table__caption', captionHidden && 'visually-hidden')}>
            {caption}
          </caption>
          <thead>
            <tr>
              {columns.map((col, c) => {
                const active = sort?.key === col.key ? sort.dir : undefined;
                const sortable = col.sortable && onSortChange;
                const header = emptyColumn[c] ? wrappableHeader(col.header) : col.header;
                return (
                  <th
                    key={col.key}
                    scope="col"
                    style={col.width && !emptyColumn[c] ? { width: col.width } : undefined}
                    className={cellClass(col, c)}
                    aria-sort={sortable ? (active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none') : undefined}
                  >
                    {sortable ? (
                      <button
                        type="button"
                        className="data-table__sort"
                        data-active={active ? 'true' : undefined}
                        onClick={() => onSortChange(nextSort(col.key))}
                      >
                        {header}
                        <Icon
                          name={active === 'asc' ? 'chevron-up' : active === 'desc' ? 'chevron-down' : 'chevrons-up-down'}
                          size={16}
                          className="data-table__sort-icon"
                        />
                      </button>
                    ) : (
                      header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const detail = rowDetail?.(row);
              const hasDetail = detail !== null && detail !== undefined;
              return (
                <Fragment key={rowKey(row, index)}>
                  <tr data-detail-open={hasDetail || undefined}>
                    {columns.map((col, c) => {
                      const content = cellContent(contents[index]![c], col.clamp !== false);
                      return col.rowHeader ? (
                        <th key={col.key} scope="row" className={cellClass(col, c)}>
                          {content}
                        </th>
                      ) : (
                        <td key={col.key} className={cellClass(col, c)}>
                          {content}
                        </td>
                      );
                    })}
                  </tr>
                  {hasDetail ? (
                    <tr className="data-table__detail-row">
                      <td colSpan={columns.length}>{detail}</td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
            {showLoadingRow ? (
              <tr className="data-table__state-row">
                <td colSpan={columns.length}>
                  <span className="data-table__loading">
                    <Spinner size="sm" decorative />
                    Carregando…
                  </span>
                </td>
              </tr>
            ) : null}
            {showEmpty ? (
              <tr className="data-table__state-row">
                <td colSpan={columns.length}>{empty ?? <EmptyState icon="search" title="Nenhum registro encontrado." />}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {loading && rows.length > 0 ? (
        <div className="data-table__overlay">
          <Spinner label="Atualizando…" />
        </div>
      ) : null}
    </div>
  );
}
