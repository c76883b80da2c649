// Pieces shared by the list and form pages of the resource kit (lazy chunk).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, apiErrorMessage } from '../api';
import { queryKeys } from '../queryKeys';
import { toast } from '../toast/queue';
import { OFFLINE_MESSAGE, isOfflineError } from './form/offline';
import { type PageBody, apiPath } from './listQuery';
import type { ResourceConfig, ResourceOptionsSource } from './types';

type Row = Record<string, unknown>;

/** One page of a list and '/registros/grupos' → 'registros/grupos' (defined with the list's query). */
export { type PageBody, apiPath };

/** The cache keys (see queryKeys.ts; kept here for the kit's modules). */
export { queryKeys };

export function recordLabel(config: ResourceConfig, row: Row): string {
  if (config.recordLabel) return config.recordLabel(row);
  const first = config.columns[0];
  if (!first) return String(row.id ?? '');
  const value = first.value ? first.value(row) : row[first.key];
  return value === null || value === undefined ? '' : String(value);
}

/** Where the list of this resource is, with the query string it had last (so Voltar keeps filters). */
export function listHref(config: ResourceConfig): string {
  // '' is the plugin's base itself (wouter resolves hrefs against the nested base)
  const base = (config.base ?? '').replace(/\/+$/, '');
  let search = '';
  try {
    search = sessionStorage.getItem(listStateKey(config)) ?? '';
  } catch {
    // storage unavailable: the default list
  }
  return search ? `${base}?${search}` : base;
}
export const listStateKey = (config: ResourceConfig) => `compras:lista:${config.endpoint}`;
export const newHref = (config: Pick<ResourceConfig, 'base'>) => `${(config.base ?? '').replace(/\/+$/, '')}/new`;
export const editHref = (config: Pick<ResourceConfig, 'base'>, id: string) => `${(config.base ?? '').replace(/\/+$/, '')}/edit/${encodeURIComponent(id)}`;

/** Active records of another resource as select options (+ the current value when it is inactive). */
export function useResourceOptions(
  source: ResourceOptionsSource,
  values: Row,
  current: string[],
  selfId: string | undefined,
): { options: { value: string; label: string }[]; loading: boolean; error: unknown; truncated: boolean } {
  const extra = typeof source.params === 'function' ? source.params(values) : (source.params ?? {});
  const params: Record<string, string> = { ativo: 'true', pageSize: '200' };
  if (source.sort) params.sort = source.sort;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') params[k] = String(v);
  const list = useQuery({
    queryKey: queryKeys.options(source.endpoint, params),
    queryFn: ({ signal }) => api.get(apiPath(source.endpoint), { searchParams: params, signal }).json<PageBody>(),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const items = list.data?.items ?? [];
  const missing = current.filter((id) => id && !items.some((row) => row.id === id));
  const extraRows = useQuery({
    queryKey: queryKeys.optionItems(source.endpoint, missing),
    enabled: missing.length > 0 && !list.isFetching,
    queryFn: async ({ signal }) =>
      Promise.all(
        missing.map((id) =>
          api
            .get(`${apiPath(source.endpoint)}/${encodeURIComponent(id)}`, { signal })
            .json<Row>()
            .catch(() => null),
        ),
      ),
    staleTime: 30_000,
  });
  const options = items
    .filter((row) => !(source.excludeSelf && selfId && row.id === selfId))
    .map((row) => ({ value: String(row.id), label: source.label(row) }));
  for (const row of extraRows.data ?? []) {
    if (row && !options.some((o) => o.value === row.id)) {
      options.push({ value: String(row.id), label: `${source.label(row)}${row.ativo === false ? ' (inativo)' : ''}` });
    }
  }
  return { options, loading: list.isLoading, error: list.error, truncated: (list.data?.total ?? 0) > items.length };
}

function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match ? decodeURIComponent(match[1]!) : fallback;
}

/** What downloadFile fetches and how it saves it. */
export interface DownloadOptions {
  /** Name when the answer has no Content-Disposition file name. */
  fileName: string;
  /** pt-BR toast when it fails (the server's message wins when there is one). */
  errorMessage: string;
  /** Query string of the request. */
  searchParams?: Record<string, string>;
  /** Open in a new tab (a PDF) instead of saving. */
  open?: boolean;
  /** Toast 'Arquivo <nome> gerado.' with this title after saving. */
  successTitle?: string;
}

/**
 * Fetches GET /api/<path> with the app's API client (the API takes a bearer token, not a cookie, so a
 * plain link would answer 401) and saves the file, or opens it in a new tab (`open`: the tab is
 * opened in the click, since a tab opened after an await is a blocked pop-up, and filled when the
 * file arrives). A failure is a toast, never a thrown error.
 */
export async function downloadFile(path: string, options: DownloadOptions): Promise<void> {
  const tab = options.open ? window.open('', '_blank') : null;
  try {
    const response = await api.get(apiPath(path), options.searchParams ? { searchParams: options.searchParams } : {});
    const blob = await response.blob();
    const name = fileNameOf(response, options.fileName);
    const pdf = name.toLowerCase().endsWith('.pdf');
    const url = URL.createObjectURL(pdf ? new Blob([blob], { type: 'application/pdf' }) : blob);
    if (tab && !tab.closed) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.rel = 'noopener';
      a.style.display = 'none';
      document.body.append(a);
      a.click();
      a.remove();
      if (options.successTitle) toast.success(`Arquivo ${name} gerado.`, options.successTitle);
    }
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    toast.error(isOfflineError(error) ? OFFLINE_MESSAGE : apiErrorMessage(error, options.errorMessage));
  }
}

/** Downloads `<endpoint>.<ext>?<params>` (a list export) and saves it. */
export function downloadExport(endpoint: string, ext: 'csv' | 'xlsx', params: Record<string, string>): Promise<void> {
  return downloadFile(`${endpoint}.${ext}`, {
    fileName: `${apiPath(endpoint).split('/').pop()}.${ext}`,
    errorMessage: 'Não foi possível exportar a lista.',
    searchParams: params,
    successTitle: 'Exportação',
  });
}
