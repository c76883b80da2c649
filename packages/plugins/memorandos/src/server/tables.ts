// drizzle mirrors of migrations/0001_memorandos.sql (the SQL is the source; test/server/schema-drift.test.ts
// checks these against it).
import { date, generatedByMigration, integer, numeric, pgTable, text, timestamp, uuid } from '@app/server-core/pg-core';
import type { MemorandoStatus, Prioridade } from '../shared/index.js';

export const memorandos = pgTable('memorandos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  numero: integer('numero').notNull(),
  ano: integer('ano').notNull(),
  data: date('data').notNull(),
  status: text('status').$type<MemorandoStatus>().notNull().default('rascunho'),
  origemId: uuid('origem_id').notNull(),
  destinoId: uuid('destino_id').notNull(),
  solicitanteId: uuid('solicitante_id').notNull(),
  solicitanteNome: text('solicitante_nome').notNull(),
  assunto: text('assunto').notNull(),
  justificativa: text('justificativa').notNull(),
  prioridade: text('prioridade').$type<Prioridade>().notNull().default('media'),
  dataDesejada: date('data_desejada'),
  valorTotal: numeric('valor_total', { precision: 17, scale: 2 }).notNull().default('0'),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: text('busca').generatedAlwaysAs(generatedByMigration()),
});

export const memorandoItens = pgTable('memorando_itens', {
  id: uuid('id').primaryKey().defaultRandom(),
  memorandoId: uuid('memorando_id').notNull(),
  entidadeId: uuid('entidade_id').notNull(),
  ordem: integer('ordem').notNull(),
  produtoId: uuid('produto_id').notNull(),
  quantidade: numeric('quantidade', { precision: 15, scale: 4 }).notNull(),
  valorUnitario: numeric('valor_unitario', { precision: 15, scale: 4 }).notNull(),
  valorTotal: numeric('valor_total', { precision: 17, scale: 2 }).notNull(),
});
