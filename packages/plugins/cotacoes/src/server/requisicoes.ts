// A cotação made from an approved requisição (one → one), declared for the document kit's links: the
// picker GET /requisicoes-aprovadas (and /requisicoes-aprovadas/:id), POST /cotacoes/de-requisicao,
// and the same checks on the kit's POST/PUT naming `requisicaoId`: the requisição locked, 404 outside
// the person's centros, 400 not approved, 409 `requisicao_cotada` naming the live cotação. The link
// lives in cotacoes.requisicao_id (partial unique index of migration 0002: one live cotação per
// requisição); cancelling the cotação frees the requisição.
import { today } from '@app/br';
import { centrosCusto } from '@app/registros/server';
import { requisicaoItens, requisicoes } from '@app/requisicoes/server';
import { type DocumentLinkDefinition, type DocumentSource, centroCustoScope } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { deRequisicaoInputSchema } from '../shared/index.js';
import { lerConfiguracao } from './configuracao.js';
import { cotacoes } from './tables.js';

/** What cotações read of a requisição (never written here). */
export const requisicaoFonte: DocumentSource = {
  kind: 'requisicoes/requisicoes',
  table: requisicoes,
  label: { documento: 'Requisição', feminino: true },
  scope: (ctx) => centroCustoScope(ctx, requisicoes.centroCustoId),
  busca: requisicoes.busca,
  items: {
    table: requisicaoItens,
    documentColumn: requisicaoItens.requisicaoId,
    orderColumn: requisicaoItens.ordem,
    columns: {
      produtoId: requisicaoItens.produtoId,
      quantidade: requisicaoItens.quantidade,
      valorUnitario: requisicaoItens.valorUnitario,
      requisicaoItemId: requisicaoItens.id,
    },
  },
};

const requisicaoAprovadaSchema = z.object({
  id: z.string(),
  numero: z.number().int(),
  ano: z.number().int(),
  data: z.string(),
  justificativa: z.string(),
  centroCustoId: z.string(),
  centroCustoNome: z.string(),
  solicitanteNome: z.string(),
  valorTotal: z.string(),
  itens: z.number().int(),
  /** The live cotação that already prices it (null: none). */
  cotacao: z.object({ id: z.string(), numero: z.number().int(), ano: z.number().int() }).nullable(),
});

export const deRequisicao: DocumentLinkDefinition = {
  source: requisicaoFonte,
  cardinality: 'one',
  field: 'requisicaoId',
  column: cotacoes.requisicaoId,
  states: ['aprovada'],
  messages: {
    code: 'requisicao_cotada',
    used: ({ numero, ano }) => `Esta requisição já tem a cotação ${numero}/${ano}: cancele-a para cotar de novo.`,
    notEligible: 'Escolha uma requisição aprovada.',
  },
  picker: {
    path: '/requisicoes-aprovadas',
    summary: 'Requisições aprovadas que podem ser cotadas',
    description:
      "Requisições aprovadas da entidade nos centros de custo da pessoa (todos, se o perfil vê todos), por número ('12/2026'), justificativa ou solicitante, mais recentes primeiro; com a cotação (não cancelada) que já as cota. `disponiveis=true`: só as que ainda não têm.",
    columns: {
      data: requisicoes.data,
      justificativa: requisicoes.justificativa,
      centroCustoId: requisicoes.centroCustoId,
      centroCustoNome: sql<string>`${centrosCusto.codigo} || ' – ' || ${centrosCusto.nome}`,
      solicitanteNome: requisicoes.solicitanteNome,
      valorTotal: sql<string>`${requisicoes.valorTotal}::text`,
      itens: sql<number>`(SELECT count(*)::int FROM requisicao_itens ri WHERE ri.requisicao_id = requisicoes.id)`,
    },
    joins: [{ table: centrosCusto, on: eq(centrosCusto.id, requisicoes.centroCustoId) }],
    usedAs: 'cotacao',
    schema: requisicaoAprovadaSchema,
    one: true,
  },
  createFrom: {
    path: '/cotacoes/de-requisicao',
    summary: 'Nova cotação a partir de uma requisição aprovada',
    description:
      'Um rascunho com o objeto (a justificativa da requisição), o centro de custo e os itens dela (quantidade, valor unitário como referência e o vínculo com o item), o método e a iteração da configuração da entidade e a data de referência de hoje.',
    body: deRequisicaoInputSchema,
    build: async ({ tx, ctx, sources: [req], lines }) => {
      const config = await lerConfiguracao(tx, ctx.entidadeId);
      const justificativa = String(req!.justificativa);
      const objeto = justificativa.length >= 10 ? justificativa : `Pesquisa de preços: ${justificativa}`;
      return {
        objeto: objeto.slice(0, 2000),
        centroCustoId: req!.centroCustoId,
        dataReferencia: today(),
        metodo: config.metodo,
        iterar: config.iterar,
        itens: lines,
      };
    },
  },
};
