import { defineCrudResource, defineServerPlugin } from '@app/server-core';
import { __CAMEL__Columns, __CAMEL__Schema, __CONST___PATH, __CONST___TAG, __CONST___TAG_NOME } from '../shared/index.js';
import { seed__PASCAL__ } from './seed.js';
import { __CAMEL__ } from './tables.js';

export * from './tables.js';

/**
 * @app/__ID__, server half: the CRUD of /api/__ID____BASE_PATH__ (list with search, sort, pages and
 * export; read; create; update with `version`; ativar/desativar; delete), every route behind tag
 * __TAG__, scoped to the session's entidade, every change audited.
 */
export default defineServerPlugin({
  id: '__ID__',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  tags: [{ tag: __CONST___TAG, nome: __CONST___TAG_NOME }],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    defineCrudResource(router, {
      path: __CONST___PATH,
      tag: __CONST___TAG,
      table: __CAMEL__,
      label: { singular: 'registro', plural: 'registros' },
      schema: __CAMEL__Schema,
      busca: __CAMEL__.busca,
      sortable: ['nome', 'descricao', 'ativo'],
      unique: [{ fields: ['nome'], ignoreCase: true, message: 'Já existe um registro com este nome.' }],
      columns: __CAMEL__Columns,
    });
  },
  seed: seed__PASCAL__,
});
