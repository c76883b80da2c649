// Approval by value level (alçadas): which levels a requisição needs, who may approve the level it
// awaits (one SQL condition for the role, the 'aguardando minha aprovação' filter and the count), the
// approval row (one per level and round, unique in the database) and the e-mails it sends.
import { formatNumero } from '@app/documents';
import { type DbOrTx, type MailMessage, type RequestContext, type Tx, sendMail, usuarioEntidades, usuarios } from '@app/server-core';
import { type SQL, and, eq, inArray, or, sql } from '@app/server-core/orm';
import { niveisNecessarios } from '../shared/index.js';
import { alcadas, requisicaoAprovacoes, requisicoes } from './tables.js';

type Row = Record<string, unknown>;

export interface Alcada {
  nivel: number;
  nome: string;
  valorMinimo: string;
  perfis: string[];
  usuarios: string[];
}

/**
 * The levels that apply to a centro de custo: for each level, the rows of that centro when it has
 * any, else the general rows (centro empty). Sorted by level.
 */
export async function alcadasDoCentro(db: DbOrTx, entidadeId: string, centroCustoId: string): Promise<Alcada[]> {
  const rows = await db
    .select({
      nivel: alcadas.nivel,
      nome: alcadas.nome,
      valorMinimo: sql<string>`${alcadas.valorMinimo}::text`,
      centroCustoId: alcadas.centroCustoId,
      perfis: alcadas.perfis,
      usuarios: alcadas.usuarios,
    })
    .from(alcadas)
    .where(and(eq(alcadas.entidadeId, entidadeId), or(sql`${alcadas.centroCustoId} IS NULL`, eq(alcadas.centroCustoId, centroCustoId))));
  const proprios = new Set(rows.filter((r) => r.centroCustoId !== null).map((r) => r.nivel));
  return rows
    .filter((r) => r.centroCustoId !== null || !proprios.has(r.nivel))
    .map(({ centroCustoId: _c, ...r }) => r)
    .sort((a, b) => a.nivel - b.nivel);
}

/** The levels a total needs, ascending (levels whose minimum ≤ total). */
export function niveisDoTotal(total: string, aplicaveis: readonly Alcada[]): number[] {
  const niveis = [...new Set(aplicaveis.filter((a) => niveisNecessarios(total, [a]) === 1).map((a) => a.nivel))];
  return niveis.sort((a, b) => a - b);
}

/**
 * The person may approve the level the requisição awaits: it is em aprovação in the person's entidade;
 * the person is named at that level (user, or their perfil in the entidade) for its centro de custo;
 * did not ask for it (nor for a pré-requisição it converts); approved no level of this round.
 *
 * Set-based, not per row: the database works out once the (centro de custo, nível) pairs the person
 * approves — a centro's own row of a level where they are named, and for a general row where they are
 * named every centro of the entidade that has no row of its own at that level — and keeps the
 * requisições em aprovação whose (centro, nível atual) is one of them (requisicoes_fila_aprovacao_idx),
 * minus the ones the person asked for, the ones converting their pré-requisições and the ones they
 * approved in this round (each set also computed once). Same rule as the per-row reading of the
 * alçadas; test/server/fila-aprovacao.test.ts compares both on varied data.
 */
export function podeAprovarSql(ctx: Pick<RequestContext, 'user' | 'entidadeId'>): SQL {
  const user = ctx.user.id;
  const entidade = ctx.entidadeId;
  const nomeado = (al: string) =>
    sql`(${user}::uuid = ANY(${sql.raw(al)}.usuarios)
         OR EXISTS (SELECT 1 FROM usuario_entidades ue
                     WHERE ue.usuario_id = ${user}::uuid AND ue.entidade_id = ${entidade}::uuid AND ue.perfil_id = ANY(${sql.raw(al)}.perfis)))`;
  return sql`(${requisicoes.status} = 'em_aprovacao'
    AND ${requisicoes.entidadeId} = ${entidade}::uuid
    AND (${requisicoes.centroCustoId}, ${requisicoes.nivelAtual}) IN (
          SELECT al.centro_custo_id, al.nivel FROM requisicao_alcadas al
           WHERE al.entidade_id = ${entidade}::uuid AND al.centro_custo_id IS NOT NULL AND ${nomeado('al')}
          UNION ALL
          SELECT cc.id, ag.nivel FROM requisicao_alcadas ag
            JOIN registros_centros_custo cc ON cc.entidade_id = ag.entidade_id
           WHERE ag.entidade_id = ${entidade}::uuid AND ag.centro_custo_id IS NULL AND ${nomeado('ag')}
             AND NOT EXISTS (SELECT 1 FROM requisicao_alcadas o
                              WHERE o.entidade_id = ag.entidade_id AND o.nivel = ag.nivel AND o.centro_custo_id = cc.id))
    AND ${requisicoes.solicitanteId} <> ${user}::uuid
    AND ${requisicoes.id} NOT IN (
          SELECT ri.requisicao_id FROM pre_requisicoes p
            JOIN pre_requisicao_itens pi ON pi.pre_requisicao_id = p.id
            JOIN requisicao_itens ri ON ri.pre_requisicao_item_id = pi.id
           WHERE p.solicitante_id = ${user}::uuid)
    AND (${requisicoes.id}, ${requisicoes.ciclo}) NOT IN (
          SELECT a.requisicao_id, a.ciclo FROM requisicao_aprovacoes a
           WHERE a.usuario_id = ${user}::uuid AND a.entidade_id = ${entidade}::uuid))`;
}

/** Ids among `ids` the person may approve now (one query for a list page). */
export async function aprovaveis(db: DbOrTx, ids: string[], ctx: RequestContext): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: requisicoes.id })
    .from(requisicoes)
    .where(and(inArray(requisicoes.id, ids), eq(requisicoes.entidadeId, ctx.entidadeId), podeAprovarSql(ctx)));
  return new Set(rows.map((r) => r.id));
}

/** Records the approval of the awaited level (the unique keys refuse a second one) and says where it goes. */
export async function registrarAprovacao(tx: Tx, row: Row, ctx: RequestContext): Promise<{ to: string; set: Row }> {
  const nivel = Number(row.nivelAtual);
  await tx.insert(requisicaoAprovacoes).values({
    entidadeId: ctx.entidadeId,
    requisicaoId: String(row.id),
    ciclo: Number(row.ciclo),
    nivel,
    usuarioId: ctx.user.id,
    usuarioNome: ctx.user.nome,
  });
  const niveis = niveisDoTotal(String(row.valorTotal), await alcadasDoCentro(tx, ctx.entidadeId, String(row.centroCustoId)));
  const proximo = niveis.find((n) => n > nivel);
  return proximo === undefined ? { to: 'aprovada', set: { nivelAtual: null } } : { to: 'em_aprovacao', set: { nivelAtual: proximo } };
}

/** E-mail addresses of the approvers of a level for a requisição (active users; never its requester). */
export async function aprovadoresDoNivel(
  db: DbOrTx,
  entidadeId: string,
  req: { centroCustoId: string; solicitanteId: string },
  nivel: number,
): Promise<{ id: string; nome: string; email: string }[]> {
  const nivelRows = (await alcadasDoCentro(db, entidadeId, req.centroCustoId)).filter((a) => a.nivel === nivel);
  const userIds = nivelRows.flatMap((a) => a.usuarios);
  const perfilIds = nivelRows.flatMap((a) => a.perfis);
  if (userIds.length + perfilIds.length === 0) return [];
  const byPerfil = perfilIds.length
    ? await db
        .select({ id: usuarioEntidades.usuarioId })
        .from(usuarioEntidades)
        .where(and(eq(usuarioEntidades.entidadeId, entidadeId), inArray(usuarioEntidades.perfilId, perfilIds)))
    : [];
  const ids = [...new Set([...userIds, ...byPerfil.map((r) => r.id)])].filter((id) => id !== req.solicitanteId);
  if (ids.length === 0) return [];
  return db
    .select({ id: usuarios.id, nome: usuarios.nome, email: usuarios.email })
    .from(usuarios)
    .where(and(inArray(usuarios.id, ids), eq(usuarios.ativo, true)));
}

/**
 * The e-mails of a transition, through the runtime's mailer as part of the transaction (sendMail:
 * the outbox inside it, or SMTP after the COMMIT; nothing for a step that rolls back): the approvers
 * of the level now awaited, or the requester of the outcome.
 */
export async function notificar(tx: Tx, name: string, after: Row, motivo: string | null, ctx: RequestContext): Promise<void> {
  const mailer = { send: async (message: MailMessage) => sendMail(tx, message) };
  const numero = formatNumero(after.numero as number, after.ano as number);
  const status = String(after.status);
  if (status === 'em_aprovacao' && (name === 'enviar' || name === 'aprovar')) {
    const nivel = Number(after.nivelAtual);
    const destinatarios = await aprovadoresDoNivel(
      tx,
      ctx.entidadeId,
      { centroCustoId: String(after.centroCustoId), solicitanteId: String(after.solicitanteId) },
      nivel,
    );
    for (const d of destinatarios) {
      await mailer.send({
        to: d.email,
        usuarioId: d.id,
        subject: `Requisição ${numero} aguarda a sua aprovação`,
        text: [
          `Olá, ${d.nome}.`,
          '',
          `A requisição ${numero} (${String(after.solicitanteNome)}) aguarda aprovação no nível ${nivel} de ${String(after.niveis)}.`,
          'Abra Requisições > Aguardando minha aprovação para analisá-la.',
        ].join('\n'),
      });
    }
    return;
  }
  if (!['aprovada', 'reprovada', 'devolvida'].includes(status)) return;
  const [solicitante] = await tx
    .select({ id: usuarios.id, nome: usuarios.nome, email: usuarios.email, ativo: usuarios.ativo })
    .from(usuarios)
    .where(eq(usuarios.id, String(after.solicitanteId)));
  if (!solicitante?.ativo) return;
  const resultado = status === 'aprovada' ? 'foi aprovada' : status === 'reprovada' ? 'foi reprovada' : 'foi devolvida para ajustes';
  await mailer.send({
    to: solicitante.email,
    usuarioId: solicitante.id,
    subject: `Requisição ${numero} ${resultado}`,
    text: [`Olá, ${solicitante.nome}.`, '', `A requisição ${numero} ${resultado} por ${ctx.user.nome}.`, ...(motivo ? ['', `Motivo: ${motivo}`] : [])].join(
      '\n',
    ),
  });
}
