// Approval by value level (alçadas) of requisições through the document kit (defineDocumentApprovals):
// the levels per entidade and centro de custo with substitutes, who decides the level awaited (ONE
// SQL definition in the kit: the role, the queue 'aguardando minha aprovação' and its count, the
// e-mails, the names on the approval page), segregation, one approval per level and round (unique in
// requisicao_aprovacoes), the e-mails. What is the requisição's own: its tables and columns, and that
// the requesters of the pré-requisições it converts never decide it.
import { TIME_ZONE } from '@app/br';
import { type Tx, defineDocumentApprovals } from '@app/server-core';
import { type SQL, eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { REQUISICOES_TAG } from '../shared/index.js';
import { alcadas, requisicaoAprovacoes, requisicoes } from './tables.js';

export const aprovacao = defineDocumentApprovals({
  table: requisicoes,
  columns: {
    id: requisicoes.id,
    entidadeId: requisicoes.entidadeId,
    status: requisicoes.status,
    centroCustoId: requisicoes.centroCustoId,
    amount: requisicoes.valorTotal,
    level: requisicoes.nivelAtual,
    levels: requisicoes.niveis,
    round: requisicoes.ciclo,
    approvedAmount: requisicoes.valorAprovado,
    requesterId: requisicoes.solicitanteId,
    requesterName: requisicoes.solicitanteNome,
  },
  levels: alcadas,
  records: requisicaoAprovacoes,
  recordDocument: requisicaoAprovacoes.requisicaoId,
  tag: REQUISICOES_TAG,
  states: { awaiting: 'em_aprovacao', approved: 'aprovada' },
  transitions: { submit: ['enviar'], approve: 'aprovar', decide: ['reprovar', 'devolver'] },
  // the requester of a pré-requisição it converts never decides it
  segregated: (usuario: SQL) => sql`EXISTS (SELECT 1 FROM requisicao_itens sri
      JOIN pre_requisicao_itens spi ON spi.id = sri.pre_requisicao_item_id
      JOIN pre_requisicoes sp ON sp.id = spi.pre_requisicao_id
     WHERE sri.requisicao_id = ${requisicoes.id} AND sp.solicitante_id = ${usuario})`,
  mail: {
    documento: 'Requisição',
    feminino: true,
    queue: 'Requisições > Aguardando minha aprovação',
    outcomes: { aprovada: 'foi aprovada', reprovada: 'foi reprovada', devolvida: 'foi devolvida para ajustes' },
  },
  summary: {
    shape: {
      /** The total the last level approved (null before the first approval). */
      valorAprovado: z.string().nullable(),
      valorPesquisado: z.string().nullable(),
    },
    value: (row) => ({ valorAprovado: (row.valorAprovado as string | null) ?? null, valorPesquisado: (row.valorPesquisado as string | null) ?? null }),
  },
});

/**
 * Keeps `aprovada_em` (migrations/0005_aprovada_em.sql) in the transaction that changes the status: for a
 * requisição now 'aprovada', the last approval of its round (the one just recorded; else its date at 00:00
 * in America/Sao_Paulo, as the migration filled the older ones), NULL in every other state. Call it after a
 * change that may make a requisição 'aprovada' or take it out of 'aprovada'.
 */
export async function atualizarAprovadaEm(tx: Tx, id: string): Promise<void> {
  await tx
    .update(requisicoes)
    .set({
      aprovadaEm: sql`CASE WHEN ${requisicoes.status} = 'aprovada' THEN coalesce(
        (SELECT max(a.created_at) FROM requisicao_aprovacoes a WHERE a.requisicao_id = ${requisicoes.id} AND a.ciclo = ${requisicoes.ciclo}),
        ${requisicoes.data}::timestamp AT TIME ZONE ${sql.raw(`'${TIME_ZONE}'`)}) END`,
    })
    .where(eq(requisicoes.id, id));
}
