// drizzle mirrors of migrations/0001_fornecedores.sql, and the columns of @app/registros' ramos de
// atividade this plugin reads (the SQL of @app/registros is the source of truth).
import { sql } from '@app/server-core/orm';
import { boolean, char, date, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid, varchar } from '@app/server-core/pg-core';
import type { Contato, Situacao, TipoPessoa } from '../shared/index.js';

export const fornecedores = pgTable('fornecedores', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  documento: varchar('documento', { length: 14 }).notNull(),
  tipoPessoa: text('tipo_pessoa')
    .$type<TipoPessoa>()
    .generatedAlwaysAs(sql.raw("CASE WHEN length(documento) = 11 THEN 'fisica' ELSE 'juridica' END")),
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
  busca: text('busca').generatedAlwaysAs(sql.raw('compras_busca(documento)')),
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

// --- @app/registros

export const ramosAtividade = pgTable('registros_ramos_atividade', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  nome: text('nome').notNull(),
  cnae: char('cnae', { length: 7 }),
  ativo: boolean('ativo').notNull().default(true),
});
