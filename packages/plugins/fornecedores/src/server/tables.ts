// drizzle mirrors of migrations/*.sql (the SQL is the source; test/server/schema-drift.test.ts checks
// these against it). The ramos de atividade are @app/registros' own declaration, imported from
// '@app/registros/server'.
import {
  boolean,
  char,
  date,
  generatedByMigration,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  varchar,
} from '@app/server-core/pg-core';
import type { Contato, Situacao, TipoPessoa } from '../shared/index.js';

export const fornecedores = pgTable('fornecedores', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  documento: varchar('documento', { length: 14 }).notNull(),
  tipoPessoa: text('tipo_pessoa')
    .$type<TipoPessoa>()
    .generatedAlwaysAs(generatedByMigration()),
  razaoSocial: text('razao_social').notNull(),
  nomeFantasia: text('nome_fantasia'),
  logradouro: text('logradouro').notNull(),
  numero: text('numero'),
  complemento: text('complemento'),
  bairro: text('bairro'),
  cep: char('cep', { length: 8 }).notNull(),
  municipio: text('municipio').notNull(),
  uf: char('uf', { length: 2 }).notNull(),
  contatos: jsonb('contatos').$type<Contato[]>().notNull().default([]),
  situacao: text('situacao').$type<Situacao>().notNull().default('ativo'),
  impedimentoMotivo: text('impedimento_motivo'),
  impedimentoDe: date('impedimento_de', { mode: 'string' }),
  impedimentoAte: date('impedimento_ate', { mode: 'string' }),
  ativo: boolean('ativo').notNull().default(true),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: text('busca').generatedAlwaysAs(generatedByMigration()),
});

export const fornecedorRamos = pgTable(
  'fornecedor_ramos',
  {
    fornecedorId: uuid('fornecedor_id').notNull(),
    ramoId: uuid('ramo_id').notNull(),
    entidadeId: uuid('entidade_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fornecedorId, t.ramoId] })],
);

