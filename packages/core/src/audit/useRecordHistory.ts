import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { queryKeys } from '../queryKeys';
import type { RecordHistory } from './types';

/**
 * Query key of a record's history: under ['resource', endpoint], so invalidating a resource's queries
 * after a save (or a transition) refreshes its timeline too.
 */
export const recordHistoryKey = (endpoint: string, id: string) => queryKeys.history(endpoint, id);

/** GET <endpoint>/:id/historico through core's API client (bearer token, pt-BR errors). Disabled without an id. */
export function useRecordHistory(endpoint: string, id: string | null | undefined) {
  return useQuery({
    queryKey: recordHistoryKey(endpoint, id ?? ''),
    enabled: Boolean(id),
    queryFn: ({ signal }) => api.get(`${endpoint.replace(/^\/+/, '')}/${encodeURIComponent(id ?? '')}/historico`, { signal }).json<RecordHistory>(),
  });
}
