// A pré-requisição made from an accepted memorando (one → one), declared for the document kit's links:
// the picker GET /pre-requisicoes/memorandos-aceitos, POST /pre-requisicoes/de-memorando (items and
// justification copied), and the same checks on the kit's POST/PUT naming `memorandoId`: the memorando
// locked, 404 outside the person's centros (origin or destination), 400 not accepted, 409
// `memorando_atendido` naming the live pré-requisição. The link lives in pre_requisicoes.memorando_id
// (partial unique index of migration 0003: one live pré-requisição per memorando); cancelling the
// pré-requisição frees the memorando.
import { formatNumero } from '@app/documents';
import { memorandoItens, memorandos } from '@app/memorandos/server';
import { centrosCusto } from '@app/registros/server';
import { type DocumentLinkDefinition, type DocumentSource, centroCustoScope } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { alias } from '@app/server-core/pg-core';
import { deMemorandoInputSchema, memorandoAceitoSchema } from '../shared/index.js';
import { preRequisicoes } from './tables.js';

const origem = alias(centrosCusto, 'origem');
const destino = alias(centrosCusto, 'destino');

/** What requisições read of a memorando (never written here). */
export const memorandoFonte: DocumentSource = {
  kind: 'memorandos/memorandos',
  table: memorandos,
  label: { documento: 'Memorando' },
  scope: (ctx) => centroCustoScope(ctx, memorandos.origemId, memorandos.destinoId),
  busca: memorandos.busca,
  items: {
    table: memorandoItens,
    documentColumn: memorandoItens.memorandoId,
    orderColumn: memorandoItens.ordem,
    columns: { produtoId: memorandoItens.produtoId, quantidade: memorandoItens.quantidade, valorUnitario: memorandoItens.valorUnitario },
  },
};

export const jaAtendido = (numero: string) => `Este memorando já deu origem à pré-requisição ${numero}: cancele-a para gerar outra.`;

export const deMemorando: DocumentLinkDefinition = {
  source: memorandoFonte,
  cardinality: 'one',
  field: 'memorandoId',
  column: preRequisicoes.memorandoId,
  states: ['aceito'],
  messages: { code: 'memorando_atendido', used: ({ numero, ano }) => jaAtendido(formatNumero(numero, ano)), notEligible: 'Escolha um memorando aceito.' },
  picker: {
    path: '/pre-requisicoes/memorandos-aceitos',
    summary: 'Memorandos aceitos que podem gerar uma pré-requisição',
    description:
      "Memorandos aceitos da entidade cuja origem ou destino é um centro de custo da pessoa (todos, se o perfil vê todos), por número ('12/2026'), assunto ou solicitante; com a pré-requisição (não cancelada) que já veio de cada um. `disponiveis=true`: só os que ainda não a têm.",
    columns: {
      data: memorandos.data,
      assunto: memorandos.assunto,
      solicitanteNome: memorandos.solicitanteNome,
      origemId: memorandos.origemId,
      origemNome: sql<string>`${origem.codigo} || ' – ' || ${origem.nome}`,
      destinoNome: sql<string>`${destino.codigo} || ' – ' || ${destino.nome}`,
      valorTotal: sql<string>`${memorandos.valorTotal}::text`,
      itens: sql<number>`(SELECT count(*)::int FROM memorando_itens mi WHERE mi.memorando_id = ${memorandos.id})`,
    },
    joins: [
      { table: origem, on: eq(origem.id, memorandos.origemId) },
      { table: destino, on: eq(destino.id, memorandos.destinoId) },
    ],
    usedAs: 'preRequisicao',
    schema: memorandoAceitoSchema,
  },
  createFrom: {
    path: '/pre-requisicoes/de-memorando',
    summary: 'Nova pré-requisição a partir de um memorando aceito',
    description: 'Copia os itens do memorando (produto, quantidade, valor unitário) e guarda o vínculo; justificativa do memorando.',
    body: deMemorandoInputSchema,
    build: ({ input, sources, lines }) => ({ ...input, justificativa: sources[0]!.justificativa, itens: lines }),
  },
};
