// drizzle mirrors of migrations/*.sql (the SQL is the source; test/server/schema-drift.test.ts checks
// these against it). Other plugins import them from '@app/requisicoes/server'.
// The builders through the `pg` and `orm` namespaces: the .d.ts of the exported tables then names
// drizzle's types `pg.PgColumn`, `orm.Column`… from '@app/server-core/pg-core' and '@app/server-core/orm'
// (named imports make it write 'drizzle-orm/pg-core', which this package does not depend on).
// The kit's document columns (id, entidade, number, year, date, status, total, version, busca; the lines'
// order, product, quantity, unit value, total) are spread in: only the requisições' own are written here.
import { documentHeaderColumns, documentLineColumns, moneyColumn as money, versionColumns as stamps } from '@app/server-core';
import * as orm from '@app/server-core/orm';
import * as pg from '@app/server-core/pg-core';
import type { Categoria, PreRequisicaoStatus, RequisicaoStatus } from '../shared/index.js';

export const preRequisicoes = pg.pgTable(
  'pre_requisicoes',
  {
    ...documentHeaderColumns<PreRequisicaoStatus>('rascunho'),
    centroCustoId: pg.uuid('centro_custo_id').notNull(),
    tipoSolicitacaoId: pg.uuid('tipo_solicitacao_id').notNull(),
    solicitanteId: pg.uuid('solicitante_id').notNull(),
    solicitanteNome: pg.text('solicitante_nome').notNull(),
    justificativa: pg.text('justificativa').notNull(),
    memorandoId: pg.uuid('memorando_id'),
  },
  // one live pré-requisição per memorando (migration 0003)
  (t) => [pg.uniqueIndex('pre_requisicoes_um_vivo_por_memorando').on(t.memorandoId).where(orm.sql`status <> 'cancelada' AND memorando_id IS NOT NULL`)],
);

export const preRequisicaoItens = pg.pgTable('pre_requisicao_itens', {
  ...documentLineColumns(),
  preRequisicaoId: pg.uuid('pre_requisicao_id').notNull(),
});

export const requisicoes = pg.pgTable('requisicoes', {
  ...documentHeaderColumns<RequisicaoStatus>('rascunho'),
  centroCustoId: pg.uuid('centro_custo_id').notNull(),
  tipoSolicitacaoId: pg.uuid('tipo_solicitacao_id').notNull(),
  categoria: pg.text('categoria').$type<Categoria>().notNull(),
  dotacao: pg.text('dotacao'),
  justificativa: pg.text('justificativa').notNull(),
  solicitanteId: pg.uuid('solicitante_id').notNull(),
  solicitanteNome: pg.text('solicitante_nome').notNull(),
  /** The total the last level approved (migrations/0004_aprovacao_governanca.sql). */
  valorAprovado: money('valor_aprovado'),
  /** The total after a price research (a concluded cotação's estimates in the items). */
  valorPesquisado: money('valor_pesquisado'),
  niveis: pg.integer('niveis').notNull().default(0),
  nivelAtual: pg.integer('nivel_atual'),
  ciclo: pg.integer('ciclo').notNull().default(0),
  /**
   * When it became 'aprovada' (the last approval of its round; migrations/0005_aprovada_em.sql), NULL in
   * any other state: written by the approval itself (./aprovacao.ts atualizarAprovadaEm), read by the
   * consumption figures (@app/analise, @app/pca) through the index requisicoes_aprovada_em_idx.
   */
  aprovadaEm: pg.timestamp('aprovada_em', { withTimezone: true }),
});

export const requisicaoItens = pg.pgTable('requisicao_itens', {
  ...documentLineColumns(),
  requisicaoId: pg.uuid('requisicao_id').notNull(),
  preRequisicaoItemId: pg.uuid('pre_requisicao_item_id'),
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
