// drizzle mirrors of migrations/0001_cotacoes.sql and the later ones (checked against the migrated database by
// test/server/schema-drift.test.ts).
// The builders through the `pg` namespace, as in the other plugins: the .d.ts then names drizzle's types
// from '@app/server-core/pg-core' (named imports make it write 'drizzle-orm/pg-core', unresolvable here).
import { decimal4Column as decimal4, documentHeaderColumns, documentLineColumns, moneyColumn as money } from '@app/server-core';
import * as orm from '@app/server-core/orm';
import * as pg from '@app/server-core/pg-core';
import type { CotacaoStatus, Fonte, ItemAprovado, Metodo, SituacaoConvite } from '../shared/index.js';

const stamp = (name: string) => pg.timestamp(name, { withTimezone: true, mode: 'string' });
const bytea = pg.customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const cotacoes = pg.pgTable(
  'cotacoes',
  {
    ...documentHeaderColumns<CotacaoStatus>('rascunho'),
    objeto: pg.text('objeto').notNull(),
    centroCustoId: pg.uuid('centro_custo_id').notNull(),
    requisicaoId: pg.uuid('requisicao_id'),
    dataReferencia: pg.date('data_referencia').notNull(),
    prazo: stamp('prazo'),
    metodo: pg.text('metodo').$type<Metodo>().notNull(),
    iterar: pg.boolean('iterar').notNull().default(false),
    observacoes: pg.text('observacoes'),
    responsavelId: pg.uuid('responsavel_id').notNull(),
    responsavelNome: pg.text('responsavel_nome').notNull(),
    justificativa: pg.text('justificativa'),
    justificativaPor: pg.uuid('justificativa_por'),
    justificativaPorNome: pg.text('justificativa_por_nome'),
    justificativaEm: stamp('justificativa_em'),
    justificativaAprovadaPor: pg.uuid('justificativa_aprovada_por'),
    justificativaAprovadaPorNome: pg.text('justificativa_aprovada_por_nome'),
    justificativaAprovadaEm: stamp('justificativa_aprovada_em'),
    justificativaAprovadaImpressao: pg.char('justificativa_aprovada_impressao', { length: 64 }),
    justificativaAprovadaItens: pg.jsonb('justificativa_aprovada_itens').$type<ItemAprovado[]>(),
    justificativaAnuladaEm: stamp('justificativa_anulada_em'),
    justificativaAnuladaAprovador: pg.text('justificativa_anulada_aprovador'),
    justificativaAnuladaMotivo: pg.text('justificativa_anulada_motivo'),
    concluidaEm: stamp('concluida_em'),
  },
  // one live cotação per requisição (migration 0002)
  (t) => [pg.uniqueIndex('cotacoes_uma_viva_por_requisicao').on(t.requisicaoId).where(orm.sql`status <> 'cancelada' AND requisicao_id IS NOT NULL`)],
);

export const cotacaoItens = pg.pgTable('cotacao_itens', {
  ...documentLineColumns(),
  cotacaoId: pg.uuid('cotacao_id').notNull(),
  requisicaoItemId: pg.uuid('requisicao_item_id'),
  valorUnitario: decimal4('valor_unitario').notNull().default('0'),
  valorTotal: money('valor_total').notNull().default('0'),
});

export const cotacaoFornecedores = pg.pgTable('cotacao_fornecedores', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  cotacaoId: pg.uuid('cotacao_id').notNull(),
  fornecedorId: pg.uuid('fornecedor_id').notNull(),
  situacao: pg.text('situacao').$type<SituacaoConvite>().notNull().default('convidado'),
  motivoEscolha: pg.text('motivo_escolha'),
  motivoNaoResposta: pg.text('motivo_nao_resposta'),
  convidadoEm: stamp('convidado_em').notNull().defaultNow(),
  dataProposta: stamp('data_proposta'),
  validade: pg.date('validade'),
  version: pg.integer('version').notNull().default(1),
});

export const cotacaoEvidencias = pg.pgTable('cotacao_evidencias', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  cotacaoId: pg.uuid('cotacao_id').notNull(),
  nome: pg.text('nome').notNull(),
  tipo: pg.text('tipo').notNull(),
  tamanho: pg.integer('tamanho').notNull(),
  sha256: pg.char('sha256', { length: 64 }).notNull(),
  conteudo: bytea('conteudo').notNull(),
  enviadoPor: pg.uuid('enviado_por').notNull(),
  enviadoPorNome: pg.text('enviado_por_nome').notNull(),
  createdAt: stamp('created_at').notNull().defaultNow(),
});

export const cotacaoPrecos = pg.pgTable('cotacao_precos', {
  id: pg.uuid('id').primaryKey().defaultRandom(),
  entidadeId: pg.uuid('entidade_id').notNull(),
  cotacaoId: pg.uuid('cotacao_id').notNull(),
  produtoId: pg.uuid('produto_id').notNull(),
  fonte: pg.text('fonte').$type<Fonte>().notNull(),
  fornecedorId: pg.uuid('fornecedor_id'),
  fonteDescricao: pg.text('fonte_descricao').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull(),
  marca: pg.text('marca'),
  dataColeta: stamp('data_coleta').notNull(),
  validade: pg.date('validade'),
  link: pg.text('link'),
  evidenciaId: pg.uuid('evidencia_id'),
  coletadoPor: pg.uuid('coletado_por').notNull(),
  coletadoPorNome: pg.text('coletado_por_nome').notNull(),
  inclusaoMotivo: pg.text('inclusao_motivo'),
  exclusaoMotivo: pg.text('exclusao_motivo'),
  version: pg.integer('version').notNull().default(1),
  createdAt: stamp('created_at').notNull().defaultNow(),
  updatedAt: stamp('updated_at').notNull().defaultNow(),
});

export const cotacaoVencedores = pg.pgTable(
  'cotacao_vencedores',
  {
    cotacaoId: pg.uuid('cotacao_id').notNull(),
    produtoId: pg.uuid('produto_id').notNull(),
    entidadeId: pg.uuid('entidade_id').notNull(),
    precoId: pg.uuid('preco_id').notNull(),
    motivo: pg.text('motivo').notNull(),
    escolhidoPor: pg.uuid('escolhido_por').notNull(),
    escolhidoPorNome: pg.text('escolhido_por_nome').notNull(),
    escolhidoEm: stamp('escolhido_em').notNull().defaultNow(),
  },
  (t) => [pg.primaryKey({ columns: [t.cotacaoId, t.produtoId] })],
);

export const cotacaoConfiguracoes = pg.pgTable('cotacao_configuracoes', {
  entidadeId: pg.uuid('entidade_id').primaryKey(),
  metodo: pg.text('metodo').$type<Metodo>().notNull().default('media_saneada'),
  iterar: pg.boolean('iterar').notNull().default(false),
  version: pg.integer('version').notNull().default(1),
  updatedAt: pg.timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
