// What became of each pré-requisição item (the kit's line coverage, defineDocumentCoverage): a
// requisição line may cover a pré-requisição item by quantity; 'atendido' = what requisições not
// cancelled nor rejected cover, 'pendente' = the rest; the pré-requisição's status follows (enviada →
// parcialmente atendida → atendida, and back when a requisição releases items), audited on it
// ('atender' / 'liberar', with the requisição). A conversion locks the pré-requisições (ascending id)
// before their state is read, as their cancelar/devolver does: the two never interleave.
import { centroCustoScope, defineDocumentCoverage } from '@app/server-core';
import { PRE_REQUISICAO_CONVERSIVEL, REQUISICAO_LIBERA_ITENS } from '../shared/index.js';
import { preRequisicaoItens, preRequisicoes, requisicaoItens, requisicoes } from './tables.js';

/** Requisição lines cover pré-requisição items (same product), by quantity. */
export const atendimento = defineDocumentCoverage({
  source: {
    table: preRequisicoes,
    lines: preRequisicaoItens,
    lineId: preRequisicaoItens.id,
    lineEntidadeId: preRequisicaoItens.entidadeId,
    lineDocument: preRequisicaoItens.preRequisicaoId,
    lineQuantity: preRequisicaoItens.quantidade,
    lineOrder: preRequisicaoItens.ordem,
    scope: (ctx) => centroCustoScope(ctx, preRequisicoes.centroCustoId),
    eligible: PRE_REQUISICAO_CONVERSIVEL,
    status: { open: 'enviada', partial: 'parcialmente_atendida', full: 'atendida' },
  },
  target: {
    table: requisicoes,
    lines: requisicaoItens,
    lineDocument: requisicaoItens.requisicaoId,
    lineQuantity: requisicaoItens.quantidade,
    lineSource: requisicaoItens.preRequisicaoItemId,
    releases: REQUISICAO_LIBERA_ITENS,
  },
  match: { produtoId: { column: preRequisicaoItens.produtoId, message: 'O produto deve ser o do item da pré-requisição.' } },
  messages: {
    over: (pendente) => `A quantidade passa do pendente na pré-requisição (pendente: ${pendente}).`,
    exhausted: 'Este item da pré-requisição já foi atendido por outra requisição: atualize os itens.',
    unavailable: {
      code: 'pre_requisicao_indisponivel',
      message: 'A pré-requisição de algum item não está mais enviada (foi cancelada, devolvida ou atendida): atualize os itens.',
      line: 'A pré-requisição deste item não está enviada.',
    },
  },
  audit: { cause: 'requisicao' },
});
