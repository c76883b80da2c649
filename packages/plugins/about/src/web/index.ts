import { definePlugin } from '@app/core';

/** @app/about, web half: versions of @app/core, of every enabled plugin and of the server. */
export default definePlugin({
  id: 'about',
  title: 'Sobre',
  basePath: '/about',
  tag: 0,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Sobre', icon: 'info', group: 'Sistema', order: 100 },
  routes: [
    { path: '/', title: 'Sobre', load: () => import('./pages/AboutPage') },
    // technical details for administrators: the one route with tag 3 (spec §2)
    { path: '/sistema', title: 'Sistema', tag: 3, load: () => import('./pages/SystemPage') },
  ],
});
