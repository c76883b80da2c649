// A resource list's query, defined once (issue 23): ListPage reads it with useQuery and a navigation
// prefetches it with the same options, from the same URL, so the two can never ask different things.
// Cheap (no React, no UI): the route can start the data before the list's chunk is in.
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { queryKeys } from '../queryKeys';
import type { ListFilter, ResourceConfig } from './types';
import { type ListDefaults, apiParams, parseListState } from './urlState';

/** One page of a list, as the API answers it. */
export interface PageBody<T = Record<string, unknown>> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** '/registros/grupos' → 'registros/grupos' (ky's prefix is '/api'). */
export const apiPath = (endpoint: string) => endpoint.replace(/^\/+/, '');

/** URL/API names of a filter: a period is two ('dataDe', 'dataAte'). */
export const filterNames = (filter: ListFilter): string[] => ('period' in filter ? [`${filter.name}De`, `${filter.name}Ate`] : [filter.name]);

/** A list's defaults from its declaration: page size, sort, the filters kept in the URL, `ativo`. */
export function listDefaults(config: ResourceConfig): ListDefaults {
  return {
    pageSize: config.pageSize ?? 20,
    sort: config.defaultSort ?? config.columns.find((c) => c.sortable !== false)?.key ?? '',
    filters: (config.filters ?? []).flatMap(filterNames),
    ativo: config.ativo !== false,
  };
}

/** The query of one page of a list, from its API parameters (`apiParams` of the URL's state). */
export function listQuery(config: Pick<ResourceConfig, 'endpoint'>, params: Record<string, string>) {
  return queryOptions({
    queryKey: queryKeys.list(config.endpoint, params),
    queryFn: ({ signal }) => api.get(apiPath(config.endpoint), { searchParams: params, signal }).json<PageBody>(),
  });
}

/** The query the list page makes for a URL query string ('q=papel&page=2', with or without '?'). */
export function listQueryForSearch(config: ResourceConfig, search: string) {
  const defaults = listDefaults(config);
  return listQuery(config, apiParams(parseListState(search, defaults), defaults));
}

/** Starts (or reuses) the list's data for a URL query string: what a navigation to the list does. */
export function prefetchList(queryClient: QueryClient, config: ResourceConfig, search: string): Promise<void> {
  return queryClient.prefetchQuery(listQueryForSearch(config, search));
}
