import { definePlugin, resourceRoutes } from '@app/core';
import { FORNECEDORES_WEB_TAG, TITLES } from './titles';

/**
 * @app/fornecedores, web half: 'Fornecedores' at /fornecedor (list, /new, /edit/:id: the resource
 * kit, declared in pages/fornecedores.tsx) and the spreadsheet import at /fornecedor/importar.
 * Pages are lazy chunks.
 */
export default definePlugin({
  id: 'fornecedores',
  title: TITLES.title,
  basePath: '/fornecedor',
  tag: FORNECEDORES_WEB_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: TITLES.title, icon: 'users', group: 'Cadastros', order: 2 },
  routes: [
    ...resourceRoutes(TITLES, () => import('./pages/fornecedores')),
    { path: '/importar', title: TITLES.importTitle, load: () => import('./pages/Importar') },
  ],
});
