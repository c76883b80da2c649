import { definePlugin } from '@app/core';
import { FORNECEDORES_WEB_TAG, TITLES } from './titles';

/**
 * @app/fornecedores, web half: 'Fornecedores' at /fornecedor (list, /new, /edit/:id) and the
 * spreadsheet import at /fornecedor/importar. Pages are lazy chunks.
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
    { path: '/', title: TITLES.title, load: () => import('./pages/Lista') },
    { path: '/new', title: TITLES.newTitle, load: () => import('./pages/Formulario') },
    { path: '/edit/:id', title: TITLES.editTitle, load: () => import('./pages/Formulario') },
    { path: '/importar', title: TITLES.importTitle, load: () => import('./pages/Importar') },
  ],
});
