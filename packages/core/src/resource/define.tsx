import { type ReactNode, lazy } from 'react';
import { ChunkLoadError } from '../routing/chunkError';
import { type PagePrefetchContext, type PageStatics, preloadable } from '../routing/preload';
import type { ImportarPlanilhaProps } from './ImportPage';
import { prefetchList } from './listQuery';
import type { ResourceConfig, ResourcePages } from './types';

const chunk = <T,>(load: () => Promise<T>) =>
  load().catch((error: unknown) => {
    throw new ChunkLoadError(error);
  });
// The list, form and import pages are their own chunk: the first page never pays for them. The
// list's chunk loads with its route's page module and its data starts with it (issue 23).
const ListPage = preloadable(() => import('./ListPage'));
const FormPage = lazy(() => chunk(() => import('./FormPage')));
const ImportPage = lazy(() => chunk(() => import('./ImportPage').then((m) => ({ default: m.ImportarPlanilha }))));

/** Spreadsheet import page of a resource (its own chunk, like the list and form pages). */
export function ImportarPlanilha(props: ImportarPlanilhaProps) {
  return <ImportPage {...props} />;
}

/**
 * The pages of a resource from its declaration: List (search, sort, paging, ativo filter, export,
 * all in the URL), New and Edit (schema validation, dirty-state guard, optimistic concurrency,
 * Excluir/Desativar). Call it in a lazy page module and default-export the result:
 *
 *   // pages/grupos.tsx
 *   export default defineResourcePages({ endpoint: '/registros/grupos', title, newTitle, editTitle,
 *     columns, fields, schema: grupoSchema });
 */
export function defineResourcePages<T = Record<string, unknown>>(config: ResourceConfig<T>): ResourcePages {
  const c = config as unknown as ResourceConfig;
  // Created once per resource, when its page module is evaluated (never during a render).
  const List: (() => ReactNode) & PageStatics = Object.assign(() => <ListPage config={c} />, {
    preload: () => ListPage.load(),
    // the list's query for the URL it opens with (listQuery.ts: the one ListPage reads)
    prefetch: ({ queryClient, search }: PagePrefetchContext) => prefetchList(queryClient, c, search),
  });
  return {
    config: c,
    List,
    // biome-ignore lint/correctness/noComponentHookFactories: stable, created once per resource
    New: () => <FormPage config={c} mode="new" />,
    // biome-ignore lint/correctness/noComponentHookFactories: stable, created once per resource
    Edit: () => <FormPage config={c} mode="edit" />,
  };
}

/**
 * The kit's New or Edit form (the one `defineResourcePages` gives: controller, field registry, view)
 * for a config the page builds while it runs: fields whose choices come from data the page loaded
 * first, rules that need the session. Its own chunk, like the kit's pages. Memoise the config (one
 * object while its inputs stay the same):
 *
 *   const opcoes = useQuery(…);
 *   const config = useMemo(() => opcoes.data && usuarioConfig(opcoes.data), [opcoes.data]);
 *   return config ? <ResourceForm config={config} mode={id ? 'edit' : 'new'} /> : <PageLoading />;
 */
export function ResourceForm<T = Record<string, unknown>>({ config, mode }: { config: ResourceConfig<T>; mode: 'new' | 'edit' }) {
  return <FormPage config={config as unknown as ResourceConfig} mode={mode} />;
}
