// @app/about/server: GET /api/about/versions, versions of server-core and of every enabled server plugin.
import { defineServerPlugin } from '@app/server-core';
import { ABOUT_TAG, type Versions, versionsSchema } from '../shared/index.js';

export default defineServerPlugin({
  id: 'about',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  tags: [{ tag: ABOUT_TAG, nome: 'Sobre' }],
  routes(router, setup) {
    // Fixed once the app is composed: computed here, answered as is.
    const versions: Versions = {
      core: setup.coreVersion,
      plugins: setup.plugins.map((p) => ({
        id: p.id,
        version: p.version,
        core: p.core,
        dependsOn: [...p.dependsOn],
        tags: p.tags.map((t) => ({ tag: t.tag, nome: t.nome })),
      })),
    };
    router.route({
      method: 'get',
      path: '/versions',
      tag: ABOUT_TAG,
      summary: 'Versões do servidor e dos plugins habilitados',
      responses: { 200: versionsSchema },
      handler: (c) => c.json(versions, 200),
    });
  },
});
