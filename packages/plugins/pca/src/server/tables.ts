// drizzle mirrors of migrations/0001_pca.sql (the SQL is the source; test/server/schema-drift.test.ts
// checks these against it). The builders through the `pg` namespace (see docs/plugins.md §3).
import { documentHeaderColumns, versionColumns } from '@app/server-core';
import * as orm from '@app/server-core/orm';
import * as pg from '@app/server-core/pg-core';
import type { ItemDaVersao, PcaStatus } from '../shared/index.js';
import type { Prioridade } from '@app/memorandos/shared';

/** The columns of `table` named, for a select. */
export const colunas = <T extends orm.Table, K extends keyof T['_']['columns'] & string>(table: T, nomes: readonly K[]) =>
  Object.fromEntries(nomes.map((k) => [k, orm.getTableColumns(table)[k]])) as Pick<T['_']['columns'], K>;

/** The columns of `table` but those named, in the table's order: a select of nearly all of them. */
export const colunasSem = <T extends orm.Table, K extends keyof T['_']['columns'] & string>(table: T, fora: readonly K[]) =>
  Object.fromEntries(Object.entries(orm.getTableColumns(table)).filter(([k]) => !fora.includes(k as K))) as Omit<T['_']['columns'], K>;

export const pcaPlanos = pg.pgTable('pca_planos', {
  ...documentHeaderColumns<PcaStatus>('em_elaboracao'),
  // exact to 4 places (the header's default is money, 2)
  valorTotal: pg.numeric('valor_total', { precision: 17, scale: 4 }).notNull().default('0'),
  anoPca: pg.integer('ano_pca').notNull(),
  codigoUnidade: pg.text('codigo_unidade').notNull(),
  centroCustoId: pg.uuid('centro_custo_id').notNull(),
  solicitanteId: pg.uuid('solicitante_id').notNull(),
  solicitanteNome: pg.text('solicitante_nome').notNull(),
  observacao: pg.text('observacao'),
  versao: pg.integer('versao').notNull().default(1),
  dataLoa: pg.date('data_loa'),
  revisaoJustificativa: pg.text('revisao_justificativa'),
});

/** migrations/0006_loa.sql: the publication date of each year's budget law, recorded by the entidade. */
export const pcaLoas = pg.pgTable('pca_loas', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  ano: pg.integer('ano').notNull(),
  dataPublicacao: pg.date('data_publicacao').notNull(),
  lei: pg.text('lei'),
  ...versionColumns(),
});

export const pcaItens = pg.pgTable('pca_itens', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  planoId: pg.uuid('plano_id').notNull(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  numeroItem: pg.integer('numero_item').notNull(),
  categoriaItemPca: pg.smallint('categoria_item_pca').notNull(),
  catalogo: pg.smallint('catalogo').notNull(),
  classificacaoCatalogo: pg.smallint('classificacao_catalogo').notNull(),
  classificacaoSuperiorCodigo: pg.text('classificacao_superior_codigo'),
  classificacaoSuperiorNome: pg.text('classificacao_superior_nome'),
  pdmCodigo: pg.text('pdm_codigo'),
  pdmDescricao: pg.text('pdm_descricao'),
  codigoItem: pg.text('codigo_item'),
  produtoId: pg.uuid('produto_id'),
  descricao: pg.text('descricao').notNull(),
  unidadeFornecimento: pg.text('unidade_fornecimento'),
  quantidade: pg.numeric('quantidade', { precision: 17, scale: 4 }).notNull(),
  valorUnitario: pg.numeric('valor_unitario', { precision: 17, scale: 4 }).notNull(),
  valorTotal: pg.numeric('valor_total', { precision: 17, scale: 4 }).notNull(),
  dataDesejada: pg.date('data_desejada'),
  unidadeRequisitante: pg.text('unidade_requisitante'),
  pendencias: pg.text('pendencias').array().notNull().default(orm.sql`'{}'`),
  chave: pg.text('chave'),
  contratacaoId: pg.uuid('contratacao_id'),
  recusaMotivo: pg.text('recusa_motivo'),
  recusadoPor: pg.text('recusado_por'),
  recusadoEm: pg.timestamp('recusado_em', { withTimezone: true }),
});

export const pcaItemFontes = pg.pgTable('pca_item_fontes', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  itemId: pg.uuid('item_id').notNull(),
  memorandoId: pg.uuid('memorando_id'),
  memorandoItemId: pg.uuid('memorando_item_id'),
  manualId: pg.uuid('manual_id'),
  quantidade: pg.numeric('quantidade', { precision: 17, scale: 4 }).notNull(),
  valorTotal: pg.numeric('valor_total', { precision: 17, scale: 4 }).notNull(),
});

export const pcaContratacoes = pg.pgTable('pca_contratacoes', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  planoId: pg.uuid('plano_id').notNull(),
  numero: pg.integer('numero').notNull(),
  titulo: pg.text('titulo').notNull(),
  categoriaItemPca: pg.smallint('categoria_item_pca').notNull(),
  prioridade: pg.text('prioridade').$type<Prioridade>().notNull(),
  inicio: pg.date('inicio').notNull(),
  fim: pg.date('fim').notNull(),
  version: pg.integer('version').notNull().default(1),
});

export const pcaItensManuais = pg.pgTable('pca_itens_manuais', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  planoId: pg.uuid('plano_id').notNull(),
  produtoId: pg.uuid('produto_id').notNull(),
  categoriaItemPca: pg.smallint('categoria_item_pca').notNull(),
  quantidade: pg.numeric('quantidade', { precision: 17, scale: 4 }).notNull(),
  valorUnitario: pg.numeric('valor_unitario', { precision: 17, scale: 4 }).notNull(),
  dataDesejada: pg.date('data_desejada').notNull(),
  justificativa: pg.text('justificativa').notNull(),
  version: pg.integer('version').notNull().default(1),
});

export const pcaVersoes = pg.pgTable('pca_versoes', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  planoId: pg.uuid('plano_id').notNull(),
  versao: pg.integer('versao').notNull(),
  aprovadoEm: pg.timestamp('aprovado_em', { withTimezone: true }).notNull().defaultNow(),
  valorTotal: pg.numeric('valor_total', { precision: 17, scale: 4 }).notNull(),
  itens: pg.jsonb('itens').$type<ItemDaVersao[]>().notNull(),
  /** migrations/0007: the plan as it stood when the next version's revision was opened (for `desistir`). */
  estado: pg.jsonb('estado'),
});
