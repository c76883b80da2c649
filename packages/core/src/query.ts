import { QueryClient } from '@tanstack/react-query';

import { QUERY_DEFAULTS } from './queryDefaults';
import { registerCacheClearer } from './runtime/caches';

// Only the lazy shell imports this module: the sign-in page never loads TanStack Query.

let client: QueryClient | null = null;

/** The one TanStack Query client (created on first use, so the sign-in page does not load it). */
export function getQueryClient(): QueryClient {
  if (!client) {
    const created = new QueryClient({ defaultOptions: QUERY_DEFAULTS });
    // dropped on sign-out and by the error screen's "Limpar aplicação"
    registerCacheClearer(() => created.clear());
    client = created;
  }
  return client;
}
