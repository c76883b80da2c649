import type { PluginRoute } from '../contract';
import type { DocumentPages } from './documents/types';
import type { ResourcePages } from './types';

// The routes a plugin manifest declares (titles and a lazy import only). Kept apart from the pages
// (define.tsx) so that the first page, which reads every manifest, never holds the kit's pages.
//
// A route loads the plugin's page module and, at the same time, the kit's chunk that page renders
// (the list, the form): both are asked for at once instead of one after the other (issue 23, the
// cold load of a list's address), and the page then renders without suspending a second time.

/** The kit's chunks a page of each kind renders (the same modules define.tsx loads lazily). */
const kitChunks = {
  resource: { list: () => import('./ListPage'), form: () => import('./FormPage'), duplicate: null },
  document: {
    list: () => import('./documents/ListDocument'),
    form: () => import('./documents/EditDocument'),
    duplicate: () => import('./documents/DuplicatePage'),
  },
} as const;

/** `load`'s export `page`, with `chunk` loaded alongside (a failure of either fails the route's load). */
function withChunk<M, K extends keyof M>(load: () => Promise<{ default: M }>, page: K, chunk: (() => Promise<unknown>) | null) {
  return () => Promise.all([load(), chunk?.()]).then(([m]) => ({ default: m.default[page] }));
}

function routes(
  titles: ResourceRouteTitles,
  load: () => Promise<{ default: Pick<ResourcePages, 'List' | 'New' | 'Edit'> }>,
  options: { base?: string; tag?: number },
  chunks: (typeof kitChunks)[keyof typeof kitChunks],
): PluginRoute[] {
  const base = (options.base ?? '').replace(/\/+$/, '');
  const tag = options.tag === undefined ? {} : { tag: options.tag };
  return [
    { path: base || '/', title: titles.title, ...tag, load: withChunk(load, 'List', chunks.list) },
    { path: `${base}/new`, title: titles.newTitle, ...tag, load: withChunk(load, 'New', chunks.form) },
    { path: `${base}/edit/:id`, title: titles.editTitle, ...tag, load: withChunk(load, 'Edit', chunks.form) },
  ];
}

export interface ResourceRouteTitles {
  title: string;
  newTitle: string;
  editTitle: string;
}

/**
 * The three routes of a resource for a plugin manifest (cheap: titles and a lazy import only):
 * `<base>/` list, `<base>/new`, `<base>/edit/:id`. `load` imports the module whose default export
 * is `defineResourcePages(...)`.
 */
export function resourceRoutes(
  titles: ResourceRouteTitles,
  load: () => Promise<{ default: Pick<ResourcePages, 'List' | 'New' | 'Edit'> }>,
  options: { base?: string; tag?: number } = {},
): PluginRoute[] {
  return routes(titles, load, options, kitChunks.resource);
}

export interface DocumentRouteTitles extends ResourceRouteTitles {
  /** Title of duplicar/:id (default: the edit title with 'Duplicar': 'Duplicar memorando'). */
  duplicateTitle?: string;
}

/**
 * The routes of a document for a plugin manifest (cheap: titles and a lazy import only): the three
 * of `resourceRoutes` plus `<base>/duplicar/:id`. The list and edit/:id are `leitura` pages: the
 * controle interno (CONTROLE_INTERNO_TAG) opens them read-only. `load` imports the module whose default export is
 * `defineDocumentPages(...)`.
 */
export function documentRoutes(
  titles: DocumentRouteTitles,
  load: () => Promise<{ default: DocumentPages }>,
  options: { base?: string; tag?: number } = {},
): PluginRoute[] {
  const base = (options.base ?? '').replace(/\/+$/, '');
  const tag = options.tag === undefined ? {} : { tag: options.tag };
  // the list and the record (read-only when not editable) also open to the controle interno
  const leitura = new Set([base || '/', `${base}/edit/:id`]);
  return [
    ...routes(titles, load, options, kitChunks.document).map((route) => (leitura.has(route.path) ? { ...route, leitura: true } : route)),
    {
      path: `${base}/duplicar/:id`,
      title: titles.duplicateTitle ?? titles.editTitle.replace(/^Editar\b/, 'Duplicar'),
      ...tag,
      load: withChunk(load, 'Duplicate', kitChunks.document.duplicate),
    },
  ];
}
