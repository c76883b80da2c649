// The core tables this plugin administers (declared, with their `version` column, by server-core).
import { boolean, pgTable, text, uuid } from '@app/server-core/pg-core';

export { perfis as perfisT, usuarios as usuariosT } from '@app/server-core';

/**
 * The centros de custo of @app/registros (this plugin depends on it), read only: the columns the user
 * form offers and the validation of usuario_entidades.centros_custo need.
 */
export const centrosCustoT = pgTable('registros_centros_custo', {
  id: uuid('id').primaryKey(),
  entidadeId: uuid('entidade_id').notNull(),
  codigo: text('codigo').notNull(),
  nome: text('nome').notNull(),
  ativo: boolean('ativo').notNull(),
});
