// What became of each pré-requisição item (the kit's line coverage, defineDocumentCoverage): a
// requisição line may cover a pré-requisição item by quantity; 'atendido' = what requisições not
// cancelled nor rejected cover, 'pendente' = the rest; the pré-requisição's status follows (enviada →
// parcialmente atendida → atendida, and back when a requisição releases items), audited on it.
//
// Who may take what (issue 18): a source document and the child made from it serialise on the
// source's row lock (lockSources of the kit: FOR UPDATE, ascending id, 404 outside the person's
// centros), taken by EVERY route that creates or re-links a child before it checks anything:
//  * a memorando gives one live pré-requisição (memorandoParaPre: the kit's POST/PUT and de-memorando);
//  * converting pré-requisição items locks their pré-requisições (the kit's coverage), so a conversion
//    and a transition of the pré-requisição (cancelar, devolver: the kit locks its row) never
//    interleave: the later one sees the other's result and is refused (409).
// The fixed order everywhere: the record being saved (PUT) → the sources, ascending → their lines.
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { AppError, type RequestContext, type Tx, centroCustoScope, defineDocumentCoverage, lockSources } from '@app/server-core';
import { type SQL, and, eq, ne } from '@app/server-core/orm';
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

/** SQL of the quantity converted of the pré-requisição item `itemId` (numeric). */
export const atendidoDe = (itemId: SQL | typeof preRequisicaoItens.id): SQL => atendimento.covered(itemId);

/** Which requisições converted an item: [{ id, numero, ano, status, quantidade }]. */
export const conversoesDe = (itemId: typeof preRequisicaoItens.id): SQL => atendimento.coveringDocuments(itemId);

/** The live (not cancelled) pré-requisição that came from a memorando, besides `exceto`: a memorando is attended once. */
export async function preDoMemorando(tx: Tx, memorandoId: string, exceto?: string) {
  const [row] = await tx
    .select({ id: preRequisicoes.id, numero: preRequisicoes.numero, ano: preRequisicoes.ano })
    .from(preRequisicoes)
    .where(and(eq(preRequisicoes.memorandoId, memorandoId), ne(preRequisicoes.status, 'cancelada'), exceto ? ne(preRequisicoes.id, exceto) : undefined))
    .orderBy(preRequisicoes.createdAt)
    .limit(1);
  return row;
}

export const jaAtendido = (ja: { numero: number; ano: number }) =>
  `Este memorando já deu origem à pré-requisição ${formatNumero(ja.numero, ja.ano)}: cancele-a para gerar outra.`;

/**
 * The memorando a pré-requisição is made from or linked to, for every route that does it (the kit's
 * POST and PUT, POST /pre-requisicoes/de-memorando): locked FOR UPDATE, then checked under the lock.
 * 404 when it is not a memorando of the entidade with its origin or destination in the person's
 * centros (unless `atual`, the pré-requisição being edited, is already linked to it); 400 when not
 * accepted (idem); 409 `memorando_atendido` naming the live pré-requisição that already attends it.
 */
export async function memorandoParaPre(tx: Tx, ctx: RequestContext, memorandoId: string, atual?: { id: string; memorandoId: unknown }) {
  const mantido = atual?.memorandoId === memorandoId;
  const fontes = await lockSources(tx, {
    table: memorandos,
    ids: [memorandoId],
    entidadeId: ctx.entidadeId,
    scope: centroCustoScope(ctx, memorandos.origemId, memorandos.destinoId),
    keep: mantido ? [memorandoId] : [],
  });
  const m = fontes.get(memorandoId) as typeof memorandos.$inferSelect;
  if (m.status !== 'aceito' && !mantido) {
    throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { memorandoId: 'Escolha um memorando aceito.' });
  }
  const ja = await preDoMemorando(tx, memorandoId, atual?.id);
  if (ja) {
    const message = jaAtendido(ja);
    throw new AppError(409, 'memorando_atendido', message, { memorandoId: message });
  }
  return m;
}
