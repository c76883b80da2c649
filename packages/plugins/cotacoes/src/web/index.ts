import { ADMIN_TAG, definePlugin, documentRoutes } from '@app/core';
import { COTACAO_TITLES } from './titles';

const TAG = 73;

/**
 * @app/cotacoes, web half: '/cotacao' behind tag 73 ('Documentos'):
 * - list, new, edit/:id, duplicar/:id (the document kit);
 * - de-requisicao: a new cotação with the items of an approved requisição;
 * - add/:id: the collection of prices (invited suppliers, their blank forms, answers by hand or
 *   imported from their XLSX, 'não respondeu', prices of other sources with evidence);
 * - mapa/:id: the mapa comparativo (every item × every supplier), the statistics and the method,
 *   winners, the justification of items with fewer than three prices, Concluir, the memória de cálculo;
 * - configuracao (tag 3): the entidade's default method.
 * Pages are lazy chunks; this manifest only holds titles.
 */
export default definePlugin({
  id: 'cotacoes',
  title: COTACAO_TITLES.title,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  basePath: '/cotacao',
  tag: TAG,
  menu: { label: COTACAO_TITLES.title, icon: 'file', group: 'Documentos', order: 40 },
  routes: [
    ...documentRoutes(COTACAO_TITLES, () => import('./pages/cotacoes')),
    { path: '/de-requisicao', title: COTACAO_TITLES.fromRequisicaoTitle, load: () => import('./pages/DeRequisicao') },
    { path: '/add/:id', title: COTACAO_TITLES.addTitle, load: () => import('./pages/Coleta') },
    // the mapa also opens, read-only, to the controle interno (@app/core CONTROLE_INTERNO_TAG)
    { path: '/mapa/:id', title: COTACAO_TITLES.mapaTitle, leitura: true, load: () => import('./pages/Mapa') },
    { path: '/configuracao', title: COTACAO_TITLES.configTitle, tag: ADMIN_TAG, load: () => import('./pages/Configuracao') },
  ],
});
