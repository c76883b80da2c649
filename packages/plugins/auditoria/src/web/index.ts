import { definePlugin } from '@app/core';

/** @app/auditoria, web half: 'Logs de Auditoria' at /logs (tag 90). The page is a lazy chunk. */
export default definePlugin({
  id: 'auditoria',
  title: 'Logs de Auditoria',
  basePath: '/logs',
  tag: 90,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Logs de Auditoria', icon: 'file', group: 'Administração', order: 90 },
  routes: [{ path: '/', title: 'Logs de Auditoria', load: () => import('./pages/LogsPage') }],
});
