/** Spec §7: no retry, no refetch on window focus, data stale after 1000 ms. */
export const QUERY_DEFAULTS = {
  queries: { retry: false, refetchOnWindowFocus: false, staleTime: 1000 },
  mutations: { retry: false },
} as const;
