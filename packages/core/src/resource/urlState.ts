// List state of a resource page, kept in the URL query string (bookmarkable; Back restores it).
// Pure functions: no React, no wouter (cheap to import from the main bundle and easy to test).

export type AtivoFilter = 'true' | 'false' | 'todos';

export interface ListState {
  q: string;
  page: number;
  pageSize: number;
  /** 'nome' ascending, '-nome' descending; '' = the resource's default. */
  sort: string;
  ativo: AtivoFilter;
  /** Extra filters declared by the resource (e.g. grupoId). */
  filters: Record<string, string>;
}

export interface ListDefaults {
  pageSize: number;
  sort: string;
  /** Names of the extra filters kept in the URL. */
  filters?: readonly string[];
  /** The records have an `ativo` flag (default true); false: no `ativo` in the URL nor in the API query. */
  ativo?: boolean;
}

export const PAGE_SIZES: readonly number[] = [10, 20, 50, 100];

/** Reads the list state from a query string ('?q=acucar&page=2&sort=-nome&ativo=todos'). */
export function parseListState(search: string | URLSearchParams, defaults: ListDefaults): ListState {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const pageSize = Number.parseInt(params.get('pageSize') ?? '', 10);
  const ativo = params.get('ativo');
  const sort = params.get('sort') ?? '';
  const filters: Record<string, string> = {};
  for (const name of defaults.filters ?? []) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: Number.isInteger(pageSize) && pageSize > 0 && pageSize <= 200 ? pageSize : defaults.pageSize,
    sort: /^-?[A-Za-z_][A-Za-z0-9_]*$/.test(sort) ? sort : defaults.sort,
    ativo: ativo === 'false' || ativo === 'todos' ? ativo : 'true',
    filters,
  };
}

/** The query string of a state, defaults left out (so '/ggrupo' is the default list). */
export function serializeListState(state: ListState, defaults: ListDefaults): string {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q.trim());
  for (const [name, value] of Object.entries(state.filters)) if (value) params.set(name, value);
  if (state.ativo !== 'true' && defaults.ativo !== false) params.set('ativo', state.ativo);
  if (state.sort && state.sort !== defaults.sort) params.set('sort', state.sort);
  if (state.pageSize !== defaults.pageSize) params.set('pageSize', String(state.pageSize));
  if (state.page > 1) params.set('page', String(state.page));
  return params.toString();
}

/** The API query of a state (`q`, `page`, `pageSize`, `sort`, `ativo` unless `defaults.ativo` is false, filters). */
export function apiParams(state: ListState, defaults: ListDefaults, paging = true): Record<string, string> {
  const out: Record<string, string> =
    defaults.ativo === false ? { sort: state.sort || defaults.sort } : { ativo: state.ativo, sort: state.sort || defaults.sort };
  if (state.q.trim()) out.q = state.q.trim();
  if (paging) {
    out.page = String(state.page);
    out.pageSize = String(state.pageSize);
  }
  for (const [name, value] of Object.entries(state.filters)) if (value) out[name] = value;
  if (!out.sort) delete out.sort;
  return out;
}

/** 'nome' ⇄ { key: 'nome', dir: 'asc' }, '-nome' ⇄ { key: 'nome', dir: 'desc' }. */
export function sortToState(sort: string): { key: string; dir: 'asc' | 'desc' } | null {
  if (!sort) return null;
  return sort.startsWith('-') ? { key: sort.slice(1), dir: 'desc' } : { key: sort, dir: 'asc' };
}

export function stateToSort(sort: { key: string; dir: 'asc' | 'desc' }): string {
  return sort.dir === 'desc' ? `-${sort.key}` : sort.key;
}

/** The one mask engine ('9' digit, 'A' letter, '*' either) lives in @app/br; re-exported for the kit's users. */
export { applyMask } from '@app/br';
