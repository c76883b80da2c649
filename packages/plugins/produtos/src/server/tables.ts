// drizzle mirrors of migrations/*.sql (the SQL is the source; test/server/schema-drift.test.ts checks
// these against it). Other plugins import them from '@app/produtos/server'. The registries this plugin
// reads are @app/registros' own declarations, imported from '@app/registros/server'.
// The builders through the `pg` namespace: the .d.ts of the exported tables then names drizzle's types
// `pg.PgColumn`… from '@app/server-core/pg-core' (named imports make it write 'drizzle-orm/pg-core', which
// this package does not depend on).
import * as pg from '@app/server-core/pg-core';
import type { TipoItem } from '../shared/index.js';

export const produtos = pg.pgTable('produtos', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  codigo: pg.text('codigo').notNull(),
  descricao: pg.text('descricao').notNull(),
  tipo: pg.text('tipo').$type<TipoItem>().notNull(),
  grupoId: pg.uuid('grupo_id').notNull(),
  subGrupoId: pg.uuid('sub_grupo_id'),
  unidadeId: pg.uuid('unidade_id').notNull(),
  tipoMaterialId: pg.uuid('tipo_material_id'),
  codigoCatalogo: pg.text('codigo_catalogo'),
  classeCnbsCodigo: pg.text('classe_cnbs_codigo'),
  classeCnbsNome: pg.text('classe_cnbs_nome'),
  pdmCodigo: pg.text('pdm_codigo'),
  pdmDescricao: pg.text('pdm_descricao'),
  especificacao: pg.text('especificacao'),
  ativo: pg.boolean('ativo').notNull().default(true),
  version: pg.integer('version').notNull().default(1),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: pg.text('busca').generatedAlwaysAs(pg.generatedByMigration()),
});

export const produtoUsos = pg.pgTable('produto_usos', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  produtoId: pg.uuid('produto_id').notNull(),
  origem: pg.text('origem').notNull(),
  documentoId: pg.text('documento_id').notNull(),
  descricao: pg.text('descricao').notNull(),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
