import { definePlugin } from '@app/core';
import { PNCP_TAG } from '../shared/tag.js';

/**
 * @app/pncp, web half: '/pncp' behind tag 103 (the publications; the PNCP user's configuration for
 * tag 104 on the same page). Keep this module cheap: only the lazy chunk.
 */
export default definePlugin({
  id: 'pncp',
  title: 'Publicações no PNCP',
  basePath: '/pncp',
  tag: PNCP_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Publicações no PNCP', icon: 'file', group: 'Documentos', order: 6 },
  routes: [{ path: '/', title: 'Publicações no PNCP', load: () => import('./pages/PncpPage') }],
});
