// @app/usuarios/server: users and perfis of the session's entidade, the tags they grant, demo users.
import { defineServerPlugin } from '@app/server-core';
import { USUARIOS_TAG } from '../shared/index.js';
import { perfilRoutes } from './perfis.js';
import { seedUsuarios } from './seed.js';
import { usuarioRoutes } from './usuarios.js';

export default defineServerPlugin({
  id: 'usuarios',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  tags: [{ tag: USUARIOS_TAG, nome: 'Usuários e perfis' }],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    perfilRoutes(router);
    usuarioRoutes(router);
  },
  seed: seedUsuarios,
});
