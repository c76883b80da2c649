// drizzle mirrors of migrations/*.sql (the SQL is the source; test/server/schema-drift.test.ts checks
// these against it). The ramos de atividade are @app/registros' own declaration, imported from
// '@app/registros/server'.
// The builders through the `pg` namespace: the .d.ts of the exported tables then names drizzle's types
// `pg.PgColumn`… from '@app/server-core/pg-core' (named imports make it write 'drizzle-orm/pg-core', which
// this package does not depend on).
import * as pg from '@app/server-core/pg-core';
import type { Contato, Situacao, TipoPessoa } from '../shared/index.js';

export const fornecedores = pg.pgTable('fornecedores', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  documento: pg.varchar('documento', { length: 14 }).notNull(),
  tipoPessoa: pg.text('tipo_pessoa').$type<TipoPessoa>().generatedAlwaysAs(pg.generatedByMigration()),
  razaoSocial: pg.text('razao_social').notNull(),
  nomeFantasia: pg.text('nome_fantasia'),
  logradouro: pg.text('logradouro').notNull(),
  numero: pg.text('numero'),
  complemento: pg.text('complemento'),
  bairro: pg.text('bairro'),
  cep: pg.char('cep', { length: 8 }).notNull(),
  municipio: pg.text('municipio').notNull(),
  uf: pg.char('uf', { length: 2 }).notNull(),
  contatos: pg.jsonb('contatos').$type<Contato[]>().notNull().default([]),
  situacao: pg.text('situacao').$type<Situacao>().notNull().default('ativo'),
  impedimentoMotivo: pg.text('impedimento_motivo'),
  impedimentoDe: pg.date('impedimento_de', { mode: 'string' }),
  impedimentoAte: pg.date('impedimento_ate', { mode: 'string' }),
  ativo: pg.boolean('ativo').notNull().default(true),
  version: pg.integer('version').notNull().default(1),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: pg.text('busca').generatedAlwaysAs(pg.generatedByMigration()),
});

export const fornecedorRamos = pg.pgTable(
  'fornecedor_ramos',
  {
    fornecedorId: pg.uuid('fornecedor_id').notNull(),
    ramoId: pg.uuid('ramo_id').notNull(),
    entidadeId: pg.uuid('entidade_id').notNull(),
  },
  (t) => [pg.primaryKey({ columns: [t.fornecedorId, t.ramoId] })],
);
