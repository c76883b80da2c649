import { definePlugin } from '@app/core';
import { PNCP_TAG } from '../shared/index.js';

/** @app/pncp, web half: '/pncp' behind tag 103. */
export default definePlugin({
  id: 'pncp',
  title: 'PNCP',
  basePath: '/pncp',
  tag: PNCP_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Publicações no PNCP', icon: 'file', group: 'Documentos', order: 6 },
  routes: [],
});
