// What became of each pré-requisição item: 'atendido' = the quantities of requisição lines converting
// it (requisições not cancelled nor rejected), 'pendente' = the rest; the pré-requisição's status
// follows (enviada → parcialmente atendida → atendida, and back when a requisição releases items).
//
// Who may take what (issue 18): a source document and the child made from it serialise on the
// source's row lock (lockSources of the kit: FOR UPDATE, ascending id, 404 outside the person's
// centros), taken by EVERY route that creates or re-links a child before it checks anything:
//  * a memorando gives one live pré-requisição (memorandoParaPre: the kit's POST/PUT and de-memorando);
//  * converting pré-requisição items locks their pré-requisições (fontesDaConversao), so a conversion
//    and a transition of the pré-requisição (cancelar, devolver: the kit locks its row) never
//    interleave: the later one sees the other's result and is refused (409).
// The fixed order everywhere: the record being saved (PUT) → the sources, ascending → their lines.
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { AppError, type AuditFn, type RequestContext, type Tx, centroCustoScope, lockSources, notFound } from '@app/server-core';
import { type SQL, and, eq, inArray, ne, sql } from '@app/server-core/orm';
import { PRE_REQUISICAO_CONVERSIVEL, REQUISICAO_LIBERA_ITENS } from '../shared/index.js';
import { preRequisicaoItens, preRequisicoes } from './tables.js';

const LIBERA = sql.raw(REQUISICAO_LIBERA_ITENS.map((s) => `'${s}'`).join(', '));

/** SQL of the quantity converted of the pré-requisição item `itemId` (numeric). */
export const atendidoDe = (itemId: SQL | typeof preRequisicaoItens.id): SQL => sql`(
  SELECT coalesce(sum(ri.quantidade), 0) FROM requisicao_itens ri JOIN requisicoes r ON r.id = ri.requisicao_id
   WHERE ri.pre_requisicao_item_id = ${itemId} AND r.status NOT IN (${LIBERA}))`;

/** Which requisições converted an item: [{ id, numero, ano, status, quantidade }]. */
export const conversoesDe = (itemId: typeof preRequisicaoItens.id): SQL => sql`(
  SELECT coalesce(json_agg(json_build_object('id', r.id, 'numero', r.numero, 'ano', r.ano, 'status', r.status,
                                             'quantidade', ri.quantidade::text) ORDER BY r.ano, r.numero), '[]'::json)
    FROM requisicao_itens ri JOIN requisicoes r ON r.id = ri.requisicao_id
   WHERE ri.pre_requisicao_item_id = ${itemId})`;

/** The pré-requisições linked to a requisição's lines. */
export async function preRequisicoesDaRequisicao(tx: Tx, requisicaoId: string): Promise<string[]> {
  const { rows } = await tx.execute<{ id: string }>(sql`
    SELECT DISTINCT pi.pre_requisicao_id AS id FROM requisicao_itens ri
      JOIN pre_requisicao_itens pi ON pi.id = ri.pre_requisicao_item_id
     WHERE ri.requisicao_id = ${requisicaoId}::uuid`);
  return rows.map((r) => r.id);
}

/**
 * Sets the status of sent pré-requisições from their items: all converted → atendida, some →
 * parcialmente atendida, none → enviada (the version moves: an open form sees the change). Each
 * change is audited on the pré-requisição itself ('atender' when items were converted, 'liberar'
 * when a requisição gave them back), with the requisição that caused it, so its timeline shows it.
 */
export async function atualizarAtendimento(tx: Tx, ids: readonly string[], audit: AuditFn, causa: { requisicao: string }): Promise<void> {
  if (ids.length === 0) return;
  const lista = `{${[...new Set(ids)].join(',')}}`;
  // locked in id order first (a conversion takes them in the same order: no deadlock between the two)
  await tx.execute(sql`SELECT id FROM pre_requisicoes WHERE id = ANY(${lista}::uuid[]) ORDER BY id FOR UPDATE`);
  const { rows } = await tx.execute<{ id: string; antes: string; depois: string }>(sql`
    WITH itens AS (
      SELECT pi.pre_requisicao_id AS id, pi.quantidade, ${atendidoDe(sql`pi.id`)} AS atendido
        FROM pre_requisicao_itens pi WHERE pi.pre_requisicao_id = ANY(${lista}::uuid[])
    ), novo AS (
      SELECT id,
             CASE WHEN bool_and(atendido >= quantidade) THEN 'atendida'
                  WHEN bool_or(atendido > 0) THEN 'parcialmente_atendida'
                  ELSE 'enviada' END AS status
        FROM itens GROUP BY id
    ), antigo AS (
      SELECT p.id, p.status FROM pre_requisicoes p JOIN novo USING (id) FOR UPDATE OF p
    )
    UPDATE pre_requisicoes p SET status = novo.status, version = p.version + 1, updated_at = now()
      FROM novo, antigo
     WHERE p.id = novo.id AND antigo.id = p.id AND antigo.status IN ('enviada', 'parcialmente_atendida', 'atendida') AND antigo.status <> novo.status
    RETURNING p.id, antigo.status AS antes, novo.status AS depois`);
  const ordem = { enviada: 0, parcialmente_atendida: 1, atendida: 2 } as Record<string, number>;
  for (const r of rows) {
    audit({
      registro: r.id,
      acao: (ordem[r.depois] ?? 0) > (ordem[r.antes] ?? 0) ? 'atender' : 'liberar',
      antes: { status: r.antes },
      depois: { status: r.depois, requisicao: causa.requisicao },
    });
  }
}

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

export interface FonteDaConversao {
  preRequisicaoId: string;
  produtoId: string;
  /** Status of the pré-requisição, read under its lock. */
  status: string;
}

/**
 * The pré-requisição items a requisição's lines convert (`itemIds`), for a create or a PUT: their
 * pré-requisições are locked FOR UPDATE in id order — with those of the lines the requisição had
 * (`antes`), whose attendance the save recomputes — before anything reads their state, so the state
 * returned is the one a transition committed before (or will see after). An item not of the entidade,
 * or whose pré-requisição lies outside the person's centros, is a 404 (the lines the requisição
 * already had keep their link).
 */
export async function fontesDaConversao(
  tx: Tx,
  ctx: RequestContext,
  itemIds: readonly string[],
  antes: readonly string[],
): Promise<Map<string, FonteDaConversao>> {
  const todos = [...new Set([...itemIds, ...antes])];
  if (todos.length === 0) return new Map();
  const itens = await tx
    .select({ id: preRequisicaoItens.id, preRequisicaoId: preRequisicaoItens.preRequisicaoId, produtoId: preRequisicaoItens.produtoId })
    .from(preRequisicaoItens)
    .where(and(inArray(preRequisicaoItens.id, todos), eq(preRequisicaoItens.entidadeId, ctx.entidadeId)));
  const porItem = new Map(itens.map((i) => [i.id, i]));
  if (itemIds.some((id) => !porItem.has(id))) throw notFound();
  const pres = await lockSources(tx, {
    table: preRequisicoes,
    ids: itens.map((i) => i.preRequisicaoId),
    entidadeId: ctx.entidadeId,
    scope: centroCustoScope(ctx, preRequisicoes.centroCustoId),
    keep: antes.map((id) => porItem.get(id)?.preRequisicaoId),
  });
  const out = new Map<string, FonteDaConversao>();
  for (const id of itemIds) {
    const item = porItem.get(id)!;
    out.set(id, { preRequisicaoId: item.preRequisicaoId, produtoId: item.produtoId, status: String(pres.get(item.preRequisicaoId)?.status) });
  }
  return out;
}

/** Whether a pré-requisição in `status` takes new conversions. */
export const conversivel = (status: string) => (PRE_REQUISICAO_CONVERSIVEL as readonly string[]).includes(status);
