// drizzle mirrors of migrations/0001_pncp.sql and 0002_itens_excluidos.sql (the SQL is the source; test/server/schema-drift.test.ts
// checks these against it).
import * as pg from '@app/server-core/pg-core';
import type { EstadoPublicacao } from '../shared/index.js';

export const pncpCredenciais = pg.pgTable('pncp_credenciais', {
  entidadeId: pg.uuid('entidade_id').primaryKey(),
  login: pg.text('login').notNull(),
  senhaCifrada: pg.text('senha_cifrada').notNull(),
  atualizadoPor: pg.uuid('atualizado_por'),
  atualizadoPorNome: pg.text('atualizado_por_nome').notNull(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const pncpPlanos = pg.pgTable('pncp_planos', {
  planoId: pg.uuid('plano_id').primaryKey(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  cnpj: pg.char('cnpj', { length: 14 }).notNull(),
  codigoUnidade: pg.text('codigo_unidade').notNull(),
  anoPca: pg.integer('ano_pca').notNull(),
  sequencial: pg.integer('sequencial'),
  numeroControle: pg.text('numero_controle'),
  publicadoEm: pg.timestamp('publicado_em', { withTimezone: true }),
  excluidoEm: pg.timestamp('excluido_em', { withTimezone: true }),
});

export const pncpPlanoItens = pg.pgTable(
  'pncp_plano_itens',
  {
    planoId: pg.uuid('plano_id').notNull(),
    numeroItem: pg.integer('numero_item').notNull(),
    fingerprint: pg.text('fingerprint').notNull(),
    enviadoEm: pg.timestamp('enviado_em', { withTimezone: true }).notNull().defaultNow(),
    // 0002_itens_excluidos.sql: what was last sent, and when the PNCP deleted the item (then it is not on the PNCP)
    descricao: pg.text('descricao'),
    quantidade: pg.numeric('quantidade', { precision: 17, scale: 4 }),
    valorTotal: pg.numeric('valor_total', { precision: 17, scale: 4 }),
    excluidoEm: pg.timestamp('excluido_em', { withTimezone: true }),
  },
  (t) => [pg.primaryKey({ columns: [t.planoId, t.numeroItem] })],
);

export const pncpPublicacoes = pg.pgTable('pncp_publicacoes', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  planoId: pg.uuid('plano_id').notNull(),
  documento: pg.text('documento').notNull(),
  operacao: pg.text('operacao').$type<'publicar' | 'excluir'>().notNull(),
  justificativa: pg.text('justificativa'),
  estado: pg.text('estado').$type<EstadoPublicacao>().notNull().default('aguardando'),
  etapa: pg.text('etapa'),
  feitos: pg.integer('feitos').notNull().default(0),
  total: pg.integer('total').notNull().default(0),
  tentativas: pg.integer('tentativas').notNull().default(0),
  proximaTentativa: pg.timestamp('proxima_tentativa', { withTimezone: true }),
  ultimoErro: pg.text('ultimo_erro'),
  erros: pg.jsonb('erros').$type<{ numeroItem?: number; campo?: string; mensagem: string }[]>().notNull().default([]),
  jobId: pg.text('job_id'),
  solicitadoPor: pg.uuid('solicitado_por'),
  solicitadoPorNome: pg.text('solicitado_por_nome').notNull(),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  concluidoEm: pg.timestamp('concluido_em', { withTimezone: true }),
});
