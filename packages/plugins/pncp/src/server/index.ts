// @app/pncp/server: the PNCP integration under /api/pncp (tags 103, 104).
import { defineServerPlugin } from '@app/server-core';
import { PNCP_CONFIG_TAG, PNCP_CONFIG_TAG_NOME, PNCP_TAG, PNCP_TAG_NOME } from '../shared/index.js';

export default defineServerPlugin({
  id: 'pncp',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['pca'],
  tags: [
    { tag: PNCP_TAG, nome: PNCP_TAG_NOME },
    { tag: PNCP_CONFIG_TAG, nome: PNCP_CONFIG_TAG_NOME },
  ],
  migrations: new URL('../../migrations/', import.meta.url),
  routes() {},
});
