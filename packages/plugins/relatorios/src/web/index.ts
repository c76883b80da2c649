import { definePlugin } from '@app/core';
import { RELATORIOS_TAG } from '../shared/tag.js';

/** @app/relatorios, web half: '/reports' (the catalogue) and '/reports/:id' (one report), lazy pages. */
export default definePlugin({
  id: 'relatorios',
  title: 'Relatórios',
  basePath: '/reports',
  tag: RELATORIOS_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Relatórios', icon: 'file', group: 'Geral', order: 50 },
  routes: [
    { path: '/', title: 'Relatórios', load: () => import('./pages/CatalogoPage') },
    { path: '/:id', title: 'Relatório', load: () => import('./pages/RelatorioPage') },
  ],
});
