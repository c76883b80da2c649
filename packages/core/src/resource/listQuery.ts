// The one query of a resource's list (key and request), read by the list page and started by a
// navigation to it (RoutePage.prefetch, with the route's chunk) from the same declaration and URL, so
// the page finds the data asked for (or arriving) under its own key. Its own small chunk: nothing the
// first page loads imports it (common.tsx is there, through downloadFile, so it is imported, not the reverse).
import { api } from '../api';
import type { RoutePrefetchContext } from '../contract';
import { queryKeys } from '../queryKeys';
import { type PageBody, apiPath } from './common';
import { documentListOptions } from './documents/list';
import type { DocumentConfig } from './documents/types';
import type { ListFilter, ResourceConfig } from './types';
import { type ListDefaults, apiParams, parseListState } from './urlState';

/** URL/API names of a filter: a period is two ('dataDe', 'dataAte'). */
export const filterNames = (filter: ListFilter): string[] => ('period' in filter ? [`${filter.name}De`, `${filter.name}Ate`] : [filter.name]);

type ListShape = Pick<ResourceConfig, 'pageSize' | 'defaultSort' | 'columns' | 'filters' | 'ativo'>;

/** What the list's URL leaves out (page size, sort, filters kept, `ativo`), from its declaration. */
export function listDefaults(config: ListShape): ListDefaults {
  return {
    pageSize: config.pageSize ?? 20,
    sort: config.defaultSort ?? config.columns.find((c) => c.sortable !== false)?.key ?? '',
    filters: (config.filters ?? []).flatMap(filterNames),
    ativo: config.ativo !== false,
  };
}

/** The query of one page of the list (`params`: its API query string). */
export function listQuery(endpoint: string, params: Record<string, string>) {
  return {
    queryKey: queryKeys.list(endpoint, params),
    queryFn: ({ signal }: { signal?: AbortSignal }) => api.get(apiPath(endpoint), { searchParams: params, signal }).json<PageBody>(),
  };
}

/** Starts the list page's query for the URL a navigation opens (the page's own key and request). */
export function prefetchList(config: ListShape & Pick<ResourceConfig, 'endpoint'>, context: RoutePrefetchContext): Promise<void> {
  const defaults = listDefaults(config);
  const params = apiParams(parseListState(context.search, defaults), defaults);
  return context.queryClient.prefetchQuery(listQuery(config.endpoint, params));
}

/** The same for a document's list (its filters, sort and no `ativo`, as the document kit builds them). */
export function prefetchDocumentList(config: DocumentConfig, context: RoutePrefetchContext): Promise<void> {
  return prefetchList({ ...(config as unknown as ResourceConfig), ...documentListOptions(config) }, context);
}

const noop = () => {};

/**
 * A kit list's `prefetch` (RoutePage): its page's chunk, and with a navigation's context its data,
 * both at once. Without one (the menu's chunks preloaded when idle) the chunk only.
 */
export function startList(config: ResourceConfig, context: RoutePrefetchContext | undefined): Promise<void> | undefined {
  import('./ListPage').catch(noop);
  return context && prefetchList(config, context);
}

/** The same for a document's list (the document kit's list chunk). */
export function startDocumentList(config: DocumentConfig, context: RoutePrefetchContext | undefined): Promise<void> | undefined {
  import('./documents/ListDocument').catch(noop);
  return context && prefetchDocumentList(config, context);
}
