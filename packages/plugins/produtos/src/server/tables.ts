// drizzle mirrors of migrations/0001_produtos.sql, and the few columns of @app/registros' tables this
// plugin reads (kept here: the SQL in @app/registros' migrations is the source of truth).
import { sql } from '@app/server-core/orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from '@app/server-core/pg-core';
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
  busca: text('busca').generatedAlwaysAs(sql.raw("compras_busca(codigo || ' ' || descricao || ' ' || coalesce(codigo_catalogo, ''))")),
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

// --- @app/registros (read only)

const registro = () => ({
  id: uuid('id').primaryKey(),
  entidadeId: uuid('entidade_id').notNull(),
  ativo: boolean('ativo').notNull(),
});

export const grupos = pgTable('registros_grupos', { ...registro(), codigo: text('codigo').notNull(), nome: text('nome').notNull() });
export const subgrupos = pgTable('registros_subgrupos', {
  ...registro(),
  grupoId: uuid('grupo_id').notNull(),
  codigo: text('codigo').notNull(),
  nome: text('nome').notNull(),
});
export const unidades = pgTable('registros_unidades', { ...registro(), sigla: text('sigla').notNull(), descricao: text('descricao').notNull() });
export const tiposMaterial = pgTable('registros_tipos_material', { ...registro(), nome: text('nome').notNull() });
