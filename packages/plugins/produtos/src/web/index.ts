import { definePlugin, resourceRoutes } from '@app/core';
import { PRODUTOS_WEB_TAG, TITLES } from './titles';

/**
 * @app/produtos, web half: 'Produtos e Serviços' at /produtos (list, /new, /edit/:id) and the
 * spreadsheet import at /produtos/importar. Pages are lazy chunks.
 */
export default definePlugin({
  id: 'produtos',
  title: TITLES.title,
  basePath: '/produtos',
  tag: PRODUTOS_WEB_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: TITLES.title, icon: 'box', group: 'Cadastros', order: 1 },
  routes: [
    ...resourceRoutes(TITLES, () => import('./pages/produtos')),
    { path: '/importar', title: TITLES.importTitle, load: () => import('./pages/Importar') },
  ],
});
