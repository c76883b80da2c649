import { definePlugin } from '@app/core';

/**
 * @app/dashboard, web half: the home page ('/') shown after sign-in. Kept tiny: the page is a
 * lazy chunk, so the manifest adds almost nothing to the first page.
 */
export default definePlugin({
  id: 'dashboard',
  title: 'Dashboard',
  basePath: '/',
  tag: 0,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Início', icon: 'home', group: 'Geral', order: 0 },
  routes: [{ path: '/', title: 'Dashboard', load: () => import('./pages/DashboardPage') }],
});
