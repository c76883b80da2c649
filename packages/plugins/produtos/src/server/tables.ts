// drizzle mirrors of migrations/*.sql (the SQL is the source; test/server/schema-drift.test.ts checks
// these against it). Other plugins import them from '@app/produtos/server'. The registries this plugin
// reads are @app/registros' own declarations, imported from '@app/registros/server'.
import { boolean, generatedByMigration, integer, pgTable, text, timestamp, uuid } from '@app/server-core/pg-core';
import type { TipoItem } from '../shared/index.js';

export const produtos = pgTable('produtos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  codigo: text('codigo').notNull(),
  descricao: text('descricao').notNull(),
  tipo: text('tipo').$type<TipoItem>().notNull(),
  grupoId: uuid('grupo_id').notNull(),
  subGrupoId: uuid('sub_grupo_id'),
  unidadeId: uuid('unidade_id').notNull(),
  tipoMaterialId: uuid('tipo_material_id'),
  codigoCatalogo: text('codigo_catalogo'),
  especificacao: text('especificacao'),
  ativo: boolean('ativo').notNull().default(true),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: text('busca').generatedAlwaysAs(generatedByMigration()),
});

export const produtoUsos = pgTable('produto_usos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  produtoId: uuid('produto_id').notNull(),
  origem: text('origem').notNull(),
  documentoId: text('documento_id').notNull(),
  descricao: text('descricao').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

