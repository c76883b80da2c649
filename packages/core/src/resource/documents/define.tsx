// defineDocumentPages: a document's list, edit and duplicate pages from its declaration, on the
// resource kit (same list, same form, same controller), plus what every document has. This module
// is cheap (it is @app/core's, on the first page): the pages and what builds them are lazy chunks.
import { type ReactNode, lazy } from 'react';
import { ChunkLoadError } from '../../routing/chunkError';
import { type PagePrefetchContext, type PageStatics, preloadable } from '../../routing/preload';
import type { DocumentConfig, DocumentPages } from './types';

type Row = Record<string, unknown>;

const chunk = <T,>(load: () => Promise<T>) =>
  load().catch((error: unknown) => {
    throw new ChunkLoadError(error);
  });
// the list's chunk loads with its route's page module, and its data starts as soon as the chunk
// (which builds the list's declaration from the document's) is in (issue 23)
const ListDocument = preloadable(() => import('./ListDocument'));
const EditDocument = lazy(() => chunk(() => import('./EditDocument')));
const DuplicatePage = lazy(() => chunk(() => import('./DuplicatePage')));

/**
 * The pages of a document from its declaration, on the resource kit: call it in a lazy page module
 * and default-export the result; give the manifest `documentRoutes(...)`.
 *
 * - List: the plugin's columns between 'Número' (12/2026) and 'Situação' (a badge with the flow's
 *   label and tone); filters 'Situação' (several states: `status=a,b`) and 'Período' (`dataDe`,
 *   `dataAte`) before the plugin's; 'Editar' ('Abrir' when the record is not editable) and `rowActions`.
 * - Edit: the fields, then the items grid (live totals); read-only with the reason when the API says
 *   `editavel: false` ('Este memorando está enviado: somente leitura.'); the header shows exactly the
 *   record's `transicoes` as buttons (a transition with `reason` asks for a 'Motivo'), 'Duplicar',
 *   'Imprimir (PDF)'; the plugin's `panels`, then the timeline. After saving it stays on the record.
 * - duplicar/:id: duplicates and opens the new draft.
 *
 *   // src/web/pages/memorandos.tsx
 *   import { defineDocumentPages } from '@app/core';
 *   import { fluxoMemorando, memorandoSchema } from '../../shared/index.js';
 *
 *   export default defineDocumentPages({
 *     endpoint: '/memorandos/memorandos', title: 'Memorandos', newTitle: 'Novo memorando',
 *     editTitle: 'Editar memorando', documento: 'Memorando', flow: fluxoMemorando,
 *     schema: memorandoSchema, defaultSort: '-numero',
 *     columns: [{ key: 'assunto', header: 'Assunto' }, { key: 'origemNome', header: 'Origem' }],
 *     filters: [{ name: 'prioridade', label: 'Prioridade', options: PRIORIDADES }],
 *     period: { name: 'data', label: 'Período' },
 *     fields: [
 *       { name: 'origemId', type: 'reference', label: 'Origem', labelField: 'origemNome', required: true,
 *         source: { endpoint: '/registros/centros-custo', label: (c) => String(c.nome) } },
 *       { name: 'assunto', type: 'text', label: 'Assunto', required: true, wide: true },
 *       { name: 'justificativa', type: 'textarea', label: 'Justificativa da necessidade', required: true },
 *     ],
 *     items: { product: { endpoint: '/produtos/produtos', label: (p) => `${p.codigo} – ${p.descricao}`,
 *       description: (p) => String(p.unidadeSigla), fill: (p) => ({ unidade: p.unidadeSigla }) } },
 *   });
 *
 *   // src/web/index.ts (the manifest: titles and a lazy import only)
 *   routes: documentRoutes(TITLES, () => import('./pages/memorandos'), { tag: 29 }),
 */
export function defineDocumentPages<T = Row>(config: DocumentConfig<T>): DocumentPages {
  const c = config as unknown as DocumentConfig;
  // Created once per document, when its page module is evaluated (never during a render).
  const List: (() => ReactNode) & PageStatics = Object.assign(() => <ListDocument config={c} />, {
    preload: () => ListDocument.load(),
    prefetch: (context: PagePrefetchContext) => {
      // the list's declaration is built by its chunk: at once when it is in, else when it arrives
      const chunk = ListDocument.load();
      if (chunk.status === 'fulfilled' && chunk.value) return chunk.value.default.prefetch(context, c);
      return chunk.then((m) => m.default.prefetch(context, c));
    },
  });
  return {
    config: c,
    List,
    // biome-ignore lint/correctness/noComponentHookFactories: stable, created once per document
    New: () => <EditDocument config={c} mode="new" />,
    // biome-ignore lint/correctness/noComponentHookFactories: stable, created once per document
    Edit: () => <EditDocument config={c} mode="edit" />,
    // biome-ignore lint/correctness/noComponentHookFactories: stable, created once per document
    Duplicate: () => <DuplicatePage config={c} />,
  };
}
