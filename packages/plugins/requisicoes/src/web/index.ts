import { ADMIN_TAG, definePlugin, documentRoutes, resourceRoutes } from '@app/core';
import { ALCADAS_TITLES, LIMITES_TITLES, PRE_TITLES, REQ_TITLES } from './titles';

const TAG = 39;

/**
 * @app/requisicoes, web half: one plugin, id 'requisicoes' (= the server half, /api/requisicoes/*),
 * two sections (tag 39, 'Documentos'):
 * - /pre-requisicao: list, new, edit/:id, duplicar/:id, ver/:id (read-only view: what became of
 *   each item, the timeline) and de-memorando (a new one from an accepted memorando);
 * - /requisicao: list (filter 'Aguardando minha aprovação'), new, edit/:id, duplicar/:id,
 *   aprovar/:id (the approval page), pre-requisicao (pré-requisições waiting to be converted) and
 *   pre-requisicao/edit/:id (choose items and quantities → a new requisição), and the administration
 *   of alçadas and limites de dispensa (routes of tag 3 inside the section: core guards each route
 *   by its own tag; a section nested in another's basePath is refused, so they are not sections).
 * Pages are lazy chunks; this manifest only holds titles.
 */
export default definePlugin({
  id: 'requisicoes',
  title: 'Pré-requisições e requisições',
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  mounts: [
    {
      basePath: '/pre-requisicao',
      title: PRE_TITLES.title,
      tag: TAG,
      menu: { label: PRE_TITLES.title, icon: 'file', group: 'Documentos', order: 30 },
      routes: [
        ...documentRoutes(PRE_TITLES, () => import('./pages/preRequisicoes')),
        // a read-only view: also open to the controle interno (@app/core CONTROLE_INTERNO_TAG)
        { path: '/ver/:id', title: PRE_TITLES.viewTitle, leitura: true, load: () => import('./pages/PreRequisicaoView') },
        { path: '/de-memorando', title: PRE_TITLES.fromMemorandoTitle, load: () => import('./pages/DeMemorando') },
      ],
    },
    {
      basePath: '/requisicao',
      title: REQ_TITLES.title,
      tag: TAG,
      menu: {
        label: REQ_TITLES.title,
        icon: 'file',
        group: 'Documentos',
        order: 31,
        count: { endpoint: '/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem', label: 'aguardando minha aprovação' },
      },
      routes: [
        ...documentRoutes(REQ_TITLES, () => import('./pages/requisicoes')),
        { path: '/aprovar/:id', title: REQ_TITLES.approveTitle, load: () => import('./pages/Aprovacao') },
        { path: '/pre-requisicao', title: REQ_TITLES.pendingTitle, load: () => import('./pages/Conversao').then((m) => ({ default: m.PendingList })) },
        {
          path: '/pre-requisicao/edit/:id',
          title: REQ_TITLES.convertTitle,
          load: () => import('./pages/Conversao').then((m) => ({ default: m.ConvertPage })),
        },
        ...resourceRoutes(ALCADAS_TITLES, () => import('./pages/alcadas'), { base: '/alcadas', tag: ADMIN_TAG }),
        ...resourceRoutes(LIMITES_TITLES, () => import('./pages/limites'), { base: '/limites-dispensa', tag: ADMIN_TAG }),
      ],
    },
  ],
});
