import type { PluginRoute } from '../contract';
import type { DocumentPages } from './documents/types';
import type { ResourcePages } from './types';

// The routes a plugin manifest declares (titles and a lazy import only). Kept apart from the pages
// (define.tsx) so that the first page, which reads every manifest, never holds the kit's pages.

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
  const base = (options.base ?? '').replace(/\/+$/, '');
  const tag = options.tag === undefined ? {} : { tag: options.tag };
  return [
    { path: base || '/', title: titles.title, ...tag, load: () => load().then((m) => ({ default: m.default.List })) },
    { path: `${base}/new`, title: titles.newTitle, ...tag, load: () => load().then((m) => ({ default: m.default.New })) },
    { path: `${base}/edit/:id`, title: titles.editTitle, ...tag, load: () => load().then((m) => ({ default: m.default.Edit })) },
  ];
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
    ...resourceRoutes(titles, load, options).map((route) => (leitura.has(route.path) ? { ...route, leitura: true } : route)),
    {
      path: `${base}/duplicar/:id`,
      title: titles.duplicateTitle ?? titles.editTitle.replace(/^Editar\b/, 'Duplicar'),
      ...tag,
      load: () => load().then((m) => ({ default: m.default.Duplicate })),
    },
  ];
}
