// drizzle mirrors of migrations/*.sql (the SQL is the source; test/server/schema-drift.test.ts checks
// these against it). Other plugins import them from '@app/requisicoes/server'.
// The builders through the `pg` and `orm` namespaces: the .d.ts of the exported tables then names
// drizzle's types `pg.PgColumn`, `orm.Column`… from '@app/server-core/pg-core' and '@app/server-core/orm'
// (named imports make it write 'drizzle-orm/pg-core', which this package does not depend on).
import * as orm from '@app/server-core/orm';
import * as pg from '@app/server-core/pg-core';
import type { Categoria, PreRequisicaoStatus, RequisicaoStatus } from '../shared/index.js';

const money = (name: string) => pg.numeric(name, { precision: 17, scale: 2 });
const decimal4 = (name: string) => pg.numeric(name, { precision: 15, scale: 4 });
const stamps = () => ({
  version: pg.integer('version').notNull().default(1),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const preRequisicoes = pg.pgTable(
  'pre_requisicoes',
  {
    id: pg.uuid('id').primaryKey().defaultRandom(),
    entidadeId: pg.uuid('entidade_id').notNull(),
    numero: pg.integer('numero').notNull(),
    ano: pg.integer('ano').notNull(),
    data: pg.date('data').notNull(),
    status: pg.text('status').$type<PreRequisicaoStatus>().notNull().default('rascunho'),
    centroCustoId: pg.uuid('centro_custo_id').notNull(),
    tipoSolicitacaoId: pg.uuid('tipo_solicitacao_id').notNull(),
    solicitanteId: pg.uuid('solicitante_id').notNull(),
    solicitanteNome: pg.text('solicitante_nome').notNull(),
    justificativa: pg.text('justificativa').notNull(),
    memorandoId: pg.uuid('memorando_id'),
    valorTotal: money('valor_total').notNull().default('0'),
    ...stamps(),
    busca: pg.text('busca').generatedAlwaysAs(pg.generatedByMigration()),
  },
  // one live pré-requisição per memorando (migration 0003)
  (t) => [pg.uniqueIndex('pre_requisicoes_um_vivo_por_memorando').on(t.memorandoId).where(orm.sql`status <> 'cancelada' AND memorando_id IS NOT NULL`)],
);

export const preRequisicaoItens = pg.pgTable('pre_requisicao_itens', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  preRequisicaoId: pg.uuid('pre_requisicao_id').notNull(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  ordem: pg.integer('ordem').notNull(),
  produtoId: pg.uuid('produto_id').notNull(),
  quantidade: decimal4('quantidade').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull(),
  valorTotal: money('valor_total').notNull(),
});

export const requisicoes = pg.pgTable('requisicoes', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  numero: pg.integer('numero').notNull(),
  ano: pg.integer('ano').notNull(),
  data: pg.date('data').notNull(),
  status: pg.text('status').$type<RequisicaoStatus>().notNull().default('rascunho'),
  centroCustoId: pg.uuid('centro_custo_id').notNull(),
  tipoSolicitacaoId: pg.uuid('tipo_solicitacao_id').notNull(),
  categoria: pg.text('categoria').$type<Categoria>().notNull(),
  dotacao: pg.text('dotacao'),
  justificativa: pg.text('justificativa').notNull(),
  solicitanteId: pg.uuid('solicitante_id').notNull(),
  solicitanteNome: pg.text('solicitante_nome').notNull(),
  valorTotal: money('valor_total').notNull().default('0'),
  /** The total the last level approved (migrations/0004_aprovacao_governanca.sql). */
  valorAprovado: money('valor_aprovado'),
  /** The total after a price research (a concluded cotação's estimates in the items). */
  valorPesquisado: money('valor_pesquisado'),
  niveis: pg.integer('niveis').notNull().default(0),
  nivelAtual: pg.integer('nivel_atual'),
  ciclo: pg.integer('ciclo').notNull().default(0),
  ...stamps(),
  busca: pg.text('busca').generatedAlwaysAs(pg.generatedByMigration()),
});

export const requisicaoItens = pg.pgTable('requisicao_itens', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  requisicaoId: pg.uuid('requisicao_id').notNull(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  ordem: pg.integer('ordem').notNull(),
  produtoId: pg.uuid('produto_id').notNull(),
  preRequisicaoItemId: pg.uuid('pre_requisicao_item_id'),
  quantidade: decimal4('quantidade').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull(),
  valorTotal: money('valor_total').notNull(),
});

export const requisicaoAprovacoes = pg.pgTable('requisicao_aprovacoes', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  requisicaoId: pg.uuid('requisicao_id').notNull(),
  ciclo: pg.integer('ciclo').notNull(),
  nivel: pg.integer('nivel').notNull(),
  usuarioId: pg.uuid('usuario_id').notNull(),
  usuarioNome: pg.text('usuario_nome').notNull(),
  /** NULL: by an approver of the level; 'nivel_superior' / 'substituto': por substituição. */
  substituicao: pg.text('substituicao').$type<'nivel_superior' | 'substituto'>(),
  createdAt: pg.timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const requisicaoGrupos = pg.pgTable(
  'requisicao_grupos',
  {
    requisicaoId: pg.uuid('requisicao_id').notNull(),
    entidadeId: pg.uuid('entidade_id').notNull(),
    grupoId: pg.uuid('grupo_id').notNull(),
    ano: pg.integer('ano').notNull(),
    categoria: pg.text('categoria').$type<Categoria>().notNull(),
    valor: money('valor').notNull(),
    conta: pg.boolean('conta').notNull().default(false),
  },
  (t) => [pg.primaryKey({ columns: [t.requisicaoId, t.grupoId] })],
);

export const alcadas = pg.pgTable('requisicao_alcadas', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  nivel: pg.integer('nivel').notNull(),
  nome: pg.text('nome').notNull(),
  valorMinimo: money('valor_minimo').notNull(),
  centroCustoId: pg.uuid('centro_custo_id'),
  perfis: pg.uuid('perfis').array().notNull().default(orm.sql`'{}'`),
  usuarios: pg.uuid('usuarios').array().notNull().default(orm.sql`'{}'`),
  /** Who decides the level when nobody of it nor of the next higher level may (segregation). */
  substitutos: pg.uuid('substitutos').array().notNull().default(orm.sql`'{}'`),
  ...stamps(),
});

export const limitesDispensa = pg.pgTable('requisicao_limites_dispensa', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  ano: pg.integer('ano').notNull(),
  categoria: pg.text('categoria').$type<Categoria>().notNull(),
  valor: money('valor').notNull(),
  ...stamps(),
});
