import { ADMIN_TAG as PCA_ADMIN_TAG, definePlugin, documentRoutes, resourceRoutes } from '@app/core';
import { LOA_TITLES, PCA_TAG, PCA_TITLES } from '../shared/tag.js';

/**
 * @app/pca, web half: '/elabora-pca' (list, new, edit/:id) behind tag 101, one menu entry in
 * 'Documentos'; '/elabora-pca/loa' (tag 3, the administration: the publication date of each year's LOA). Keep this module cheap: no static page imports, only the lazy chunk.
 */
export default definePlugin({
  id: 'pca',
  title: PCA_TITLES.title,
  basePath: '/elabora-pca',
  tag: PCA_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: PCA_TITLES.title, icon: 'file', group: 'Documentos', order: 5 },
  routes: [
    ...documentRoutes(PCA_TITLES, () => import('./pages/pca')),
    ...resourceRoutes(LOA_TITLES, () => import('./pages/loa'), { base: '/loa', tag: PCA_ADMIN_TAG }),
  ],
});
