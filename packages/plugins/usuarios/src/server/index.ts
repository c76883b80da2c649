// @app/usuarios/server: users and perfis of the session's entidade, the tags they grant, the centros de
// custo each user belongs to (the row-level scope of documents), demo users.
import { CONTROLE_INTERNO_TAG, CONTROLE_INTERNO_TAG_NOME, defineServerPlugin } from '@app/server-core';
import { USUARIOS_TAG } from '../shared/index.js';
import { perfilRoutes } from './perfis.js';
import { seedUsuarios } from './seed.js';
import { usuarioRoutes } from './usuarios.js';

export default defineServerPlugin({
  id: 'usuarios',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  // a user's centros de custo are @app/registros' (validated against its table; its demo centros are
  // seeded before the demo users are placed in them)
  dependsOn: ['registros'],
  // the controle interno tag is enforced by the document kit of @app/server-core; perfis grant it here
  tags: [
    { tag: USUARIOS_TAG, nome: 'Usuários e perfis' },
    { tag: CONTROLE_INTERNO_TAG, nome: CONTROLE_INTERNO_TAG_NOME },
  ],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    perfilRoutes(router);
    usuarioRoutes(router);
  },
  seed: seedUsuarios,
});
