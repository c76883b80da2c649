import { definePlugin, documentRoutes } from '@app/core';
import { __CONST___TAG, __CONST___TITLES } from '../shared/index.js';

/**
 * @app/__ID__, web half: '__BASE_PATH__' (list, new, edit/:id, duplicar/:id) behind tag __TAG__, one menu
 * entry in 'Documentos'. Keep this module cheap: no static page imports, only the lazy chunk.
 */
export default definePlugin({
  id: '__ID__',
  title: __TITLE_TS__,
  basePath: '__BASE_PATH__',
  tag: __CONST___TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: __TITLE_TS__, icon: 'file', group: 'Documentos', order: 90 },
  routes: documentRoutes(__CONST___TITLES, () => import('./pages/__CAMEL__')),
});
