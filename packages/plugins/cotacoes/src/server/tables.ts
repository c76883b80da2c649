// drizzle mirrors of migrations/0001_cotacoes.sql (checked against the migrated database by
// test/server/schema-drift.test.ts).
import {
  boolean,
  char,
  customType,
  date,
  generatedByMigration,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from '@app/server-core/pg-core';
import type { CotacaoStatus, Fonte, Metodo, SituacaoConvite } from '../shared/index.js';

const money = (name: string) => numeric(name, { precision: 17, scale: 2 });
const decimal4 = (name: string) => numeric(name, { precision: 15, scale: 4 });
const stamp = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const cotacoes = pgTable('cotacoes', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  numero: integer('numero').notNull(),
  ano: integer('ano').notNull(),
  data: date('data').notNull(),
  status: text('status').$type<CotacaoStatus>().notNull().default('rascunho'),
  objeto: text('objeto').notNull(),
  centroCustoId: uuid('centro_custo_id').notNull(),
  requisicaoId: uuid('requisicao_id'),
  dataReferencia: date('data_referencia').notNull(),
  prazo: stamp('prazo'),
  metodo: text('metodo').$type<Metodo>().notNull(),
  iterar: boolean('iterar').notNull().default(false),
  observacoes: text('observacoes'),
  responsavelId: uuid('responsavel_id').notNull(),
  responsavelNome: text('responsavel_nome').notNull(),
  justificativa: text('justificativa'),
  justificativaPor: uuid('justificativa_por'),
  justificativaPorNome: text('justificativa_por_nome'),
  justificativaEm: stamp('justificativa_em'),
  justificativaAprovadaPor: uuid('justificativa_aprovada_por'),
  justificativaAprovadaPorNome: text('justificativa_aprovada_por_nome'),
  justificativaAprovadaEm: stamp('justificativa_aprovada_em'),
  valorTotal: money('valor_total').notNull().default('0'),
  concluidaEm: stamp('concluida_em'),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  busca: text('busca').generatedAlwaysAs(generatedByMigration()),
});

export const cotacaoItens = pgTable('cotacao_itens', {
  id: uuid('id').primaryKey().defaultRandom(),
  cotacaoId: uuid('cotacao_id').notNull(),
  entidadeId: uuid('entidade_id').notNull(),
  ordem: integer('ordem').notNull(),
  produtoId: uuid('produto_id').notNull(),
  requisicaoItemId: uuid('requisicao_item_id'),
  quantidade: decimal4('quantidade').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull().default('0'),
  valorTotal: money('valor_total').notNull().default('0'),
});

export const cotacaoFornecedores = pgTable('cotacao_fornecedores', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  cotacaoId: uuid('cotacao_id').notNull(),
  fornecedorId: uuid('fornecedor_id').notNull(),
  situacao: text('situacao').$type<SituacaoConvite>().notNull().default('convidado'),
  motivoEscolha: text('motivo_escolha'),
  motivoNaoResposta: text('motivo_nao_resposta'),
  convidadoEm: stamp('convidado_em').notNull().defaultNow(),
  dataProposta: stamp('data_proposta'),
  validade: date('validade'),
  version: integer('version').notNull().default(1),
});

export const cotacaoEvidencias = pgTable('cotacao_evidencias', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  cotacaoId: uuid('cotacao_id').notNull(),
  nome: text('nome').notNull(),
  tipo: text('tipo').notNull(),
  tamanho: integer('tamanho').notNull(),
  sha256: char('sha256', { length: 64 }).notNull(),
  conteudo: bytea('conteudo').notNull(),
  enviadoPor: uuid('enviado_por').notNull(),
  enviadoPorNome: text('enviado_por_nome').notNull(),
  createdAt: stamp('created_at').notNull().defaultNow(),
});

export const cotacaoPrecos = pgTable('cotacao_precos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  cotacaoId: uuid('cotacao_id').notNull(),
  produtoId: uuid('produto_id').notNull(),
  fonte: text('fonte').$type<Fonte>().notNull(),
  fornecedorId: uuid('fornecedor_id'),
  fonteDescricao: text('fonte_descricao').notNull(),
  valorUnitario: decimal4('valor_unitario').notNull(),
  marca: text('marca'),
  dataColeta: stamp('data_coleta').notNull(),
  validade: date('validade'),
  link: text('link'),
  evidenciaId: uuid('evidencia_id'),
  coletadoPor: uuid('coletado_por').notNull(),
  coletadoPorNome: text('coletado_por_nome').notNull(),
  inclusaoMotivo: text('inclusao_motivo'),
  exclusaoMotivo: text('exclusao_motivo'),
  version: integer('version').notNull().default(1),
  createdAt: stamp('created_at').notNull().defaultNow(),
  updatedAt: stamp('updated_at').notNull().defaultNow(),
});

export const cotacaoVencedores = pgTable(
  'cotacao_vencedores',
  {
    cotacaoId: uuid('cotacao_id').notNull(),
    produtoId: uuid('produto_id').notNull(),
    entidadeId: uuid('entidade_id').notNull(),
    precoId: uuid('preco_id').notNull(),
    motivo: text('motivo').notNull(),
    escolhidoPor: uuid('escolhido_por').notNull(),
    escolhidoPorNome: text('escolhido_por_nome').notNull(),
    escolhidoEm: stamp('escolhido_em').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.cotacaoId, t.produtoId] })],
);

export const cotacaoConfiguracoes = pgTable('cotacao_configuracoes', {
  entidadeId: uuid('entidade_id').primaryKey(),
  metodo: text('metodo').$type<Metodo>().notNull().default('media_saneada'),
  iterar: boolean('iterar').notNull().default(false),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
