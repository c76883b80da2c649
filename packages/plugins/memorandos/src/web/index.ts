import { definePlugin, documentRoutes } from '@app/core';
import { TITLES } from './titles';

/**
 * @app/memorandos, web half: 'Memorandos' at /memorando (list, /new, /edit/:id, /duplicar/:id).
 * Pages are one lazy chunk; this manifest only holds titles.
 */
export default definePlugin({
  id: 'memorandos',
  title: TITLES.title,
  basePath: '/memorando',
  tag: 29,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: TITLES.title, icon: 'file', group: 'Documentos', order: 20 },
  routes: documentRoutes(TITLES, () => import('./pages/memorandos')),
});
