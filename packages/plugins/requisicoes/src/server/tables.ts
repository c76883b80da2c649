// drizzle mirrors of migrations/0001_requisicoes.sql.
import { sql } from '@app/server-core/orm';
import { boolean, date, integer, numeric, pgTable, text, timestamp, uuid } from '@app/server-core/pg-core';
import type { Categoria, PreRequisicaoStatus, RequisicaoStatus } from '../shared/index.js';

const money = (name: string) => numeric(name, { precision: 17, scale: 2 });
const decimal4 = (name: string) => numeric(name, { precision: 15, scale: 4 });
const stamps = () => ({
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const preRequisicoes = pgTable('pre_requisicoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  numero: integer('numero').notNull(),
  ano: integer('ano').notNull(),
  data: date('data').notNull(),
  status: text('status').$type<PreRequisicaoStatus>().notNull().default('rascunho'),
  centroCustoId: uuid('centro_custo_id').notNull(),
  tipoSolicitacaoId: uuid('tipo_solicitacao_id').notNull(),
  solicitanteId: uuid('solicitante_id').notNull(),
  solicitanteNome: text('solicitante_nome').notNull(),
  justificativa: text('justificativa').notNull(),
  memorandoId: uuid('memorando_id'),
  valorTotal: money('valor_total').notNull().default('0'),
  ...stamps(),
  busca: text('busca').generatedAlwaysAs(
    sql.raw("compras_busca(numero::text || '/' || ano::text || ' ' || justificativa || ' ' || solicitante_nome)"),
  ),
});

export const preRequisicaoItens = pgTable('pre_requisicao_itens', {
  id: uuid('id').primaryKey().defaultRandom(),
  preRequisicaoId: uuid('pre_requisicao_id').notNull(),
  entidadeId: uuid('entidade_id').notNull(),
  ordem: integer('ordem').notNull(),
  produtoId: uuid('produto_id').notNull(),
  quantidade: decimal4('quantidade').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull(),
  valorTotal: money('valor_total').notNull(),
});

export const requisicoes = pgTable('requisicoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  numero: integer('numero').notNull(),
  ano: integer('ano').notNull(),
  data: date('data').notNull(),
  status: text('status').$type<RequisicaoStatus>().notNull().default('rascunho'),
  centroCustoId: uuid('centro_custo_id').notNull(),
  tipoSolicitacaoId: uuid('tipo_solicitacao_id').notNull(),
  categoria: text('categoria').$type<Categoria>().notNull(),
  dotacao: text('dotacao'),
  justificativa: text('justificativa').notNull(),
  solicitanteId: uuid('solicitante_id').notNull(),
  solicitanteNome: text('solicitante_nome').notNull(),
  valorTotal: money('valor_total').notNull().default('0'),
  niveis: integer('niveis').notNull().default(0),
  nivelAtual: integer('nivel_atual'),
  ciclo: integer('ciclo').notNull().default(0),
  ...stamps(),
  busca: text('busca').generatedAlwaysAs(
    sql.raw(
      "compras_busca(numero::text || '/' || ano::text || ' ' || justificativa || ' ' || solicitante_nome || ' ' || coalesce(dotacao, ''))",
    ),
  ),
});

export const requisicaoItens = pgTable('requisicao_itens', {
  id: uuid('id').primaryKey().defaultRandom(),
  requisicaoId: uuid('requisicao_id').notNull(),
  entidadeId: uuid('entidade_id').notNull(),
  ordem: integer('ordem').notNull(),
  produtoId: uuid('produto_id').notNull(),
  preRequisicaoItemId: uuid('pre_requisicao_item_id'),
  quantidade: decimal4('quantidade').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull(),
  valorTotal: money('valor_total').notNull(),
});

export const requisicaoAprovacoes = pgTable('requisicao_aprovacoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  requisicaoId: uuid('requisicao_id').notNull(),
  ciclo: integer('ciclo').notNull(),
  nivel: integer('nivel').notNull(),
  usuarioId: uuid('usuario_id').notNull(),
  usuarioNome: text('usuario_nome').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const requisicaoGrupos = pgTable('requisicao_grupos', {
  requisicaoId: uuid('requisicao_id').notNull(),
  entidadeId: uuid('entidade_id').notNull(),
  grupoId: uuid('grupo_id').notNull(),
  ano: integer('ano').notNull(),
  categoria: text('categoria').$type<Categoria>().notNull(),
  valor: money('valor').notNull(),
  conta: boolean('conta').notNull().default(false),
});

export const alcadas = pgTable('requisicao_alcadas', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  nivel: integer('nivel').notNull(),
  nome: text('nome').notNull(),
  valorMinimo: money('valor_minimo').notNull(),
  centroCustoId: uuid('centro_custo_id'),
  perfis: uuid('perfis').array().notNull().default(sql`'{}'`),
  usuarios: uuid('usuarios').array().notNull().default(sql`'{}'`),
  ...stamps(),
});

export const limitesDispensa = pgTable('requisicao_limites_dispensa', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  ano: integer('ano').notNull(),
  categoria: text('categoria').$type<Categoria>().notNull(),
  valor: money('valor').notNull(),
  ...stamps(),
});
