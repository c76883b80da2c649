/**
 * Spec §7: no retry, no refetch on window focus, data stale after 1000 ms. Mutations run whatever
 * the connection looks like (`networkMode: 'always'`): offline, a save fails at once and the form
 * says so, instead of pausing and replaying by itself when the connection returns.
 */
export const QUERY_DEFAULTS = {
  queries: { retry: false, refetchOnWindowFocus: false, staleTime: 1000 },
  mutations: { retry: false, networkMode: 'always' },
} as const;
