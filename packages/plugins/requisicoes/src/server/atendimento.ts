// What became of each pré-requisição item: 'atendido' = the quantities of requisição lines converting
// it (requisições not cancelled nor rejected), 'pendente' = the rest; the pré-requisição's status
// follows (enviada → parcialmente atendida → atendida, and back when a requisição releases items).
import type { AuditFn, Tx } from '@app/server-core';
import { type SQL, sql } from '@app/server-core/orm';
import { REQUISICAO_LIBERA_ITENS } from '../shared/index.js';
import type { preRequisicaoItens } from './tables.js';

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
