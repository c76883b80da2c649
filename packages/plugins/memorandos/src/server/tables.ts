// drizzle mirrors of migrations/0001_memorandos.sql (the SQL is the source; test/server/schema-drift.test.ts
// checks these against it).
// The builders through the `pg` namespace: the .d.ts of the exported tables then names drizzle's types
// `pg.PgColumn`… from '@app/server-core/pg-core' (named imports make it write 'drizzle-orm/pg-core', which
// this package does not depend on).
import * as pg from '@app/server-core/pg-core';
import type { MemorandoStatus, Prioridade } from '../shared/index.js';

export const memorandos = pg.pgTable('memorandos', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  numero: pg.integer('numero').notNull(),
  ano: pg.integer('ano').notNull(),
  data: pg.date('data').notNull(),
  status: pg.text('status').$type<MemorandoStatus>().notNull().default('rascunho'),
  origemId: pg.uuid('origem_id').notNull(),
  destinoId: pg.uuid('destino_id').notNull(),
  solicitanteId: pg.uuid('solicitante_id').notNull(),
  solicitanteNome: pg.text('solicitante_nome').notNull(),
  assunto: pg.text('assunto').notNull(),
  justificativa: pg.text('justificativa').notNull(),
  prioridade: pg.text('prioridade').$type<Prioridade>().notNull().default('media'),
  dataDesejada: pg.date('data_desejada'),
  anoPca: pg.integer('ano_pca'),
  valorTotal: pg.numeric('valor_total', { precision: 17, scale: 2 }).notNull().default('0'),
  version: pg.integer('version').notNull().default(1),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: pg.text('busca').generatedAlwaysAs(pg.generatedByMigration()),
});

export const memorandoItens = pg.pgTable('memorando_itens', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  memorandoId: pg.uuid('memorando_id').notNull(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  ordem: pg.integer('ordem').notNull(),
  produtoId: pg.uuid('produto_id').notNull(),
  quantidade: pg.numeric('quantidade', { precision: 15, scale: 4 }).notNull(),
  valorUnitario: pg.numeric('valor_unitario', { precision: 15, scale: 4 }).notNull(),
  valorTotal: pg.numeric('valor_total', { precision: 17, scale: 2 }).notNull(),
  categoriaItemPca: pg.smallint('categoria_item_pca'),
});
