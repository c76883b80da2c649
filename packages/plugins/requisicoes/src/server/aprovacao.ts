// Approval by value level (alçadas): which levels a requisição needs, who may decide the level it
// awaits (ONE SQL definition for the role, the 'aguardando minha aprovação' filter and its count, the
// e-mails and the names on the approval page; with the substitute path), the approval row (one per
// level and round, unique in the database, with how it was given) and the e-mails it sends.
import { formatNumero } from '@app/documents';
import { type DbOrTx, type MailMessage, type RequestContext, type Tx, documentAuthorSql, sendMail, usuarios } from '@app/server-core';
import { type SQL, and, eq, inArray, or, sql } from '@app/server-core/orm';
import { REQUISICOES_TAG, niveisNecessarios } from '../shared/index.js';
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

/*
 * Who may decide (aprovar, reprovar, devolver) a requisição em aprovação: ONE definition, in SQL, used
 * by the per-row role ('aprovador'), the queue 'aguardando minha aprovação' and its count, the e-mails
 * 'aguarda a sua aprovação', the names the approval page shows and the record of each approval.
 *
 * A person is APTO for a requisição when they are an active member of its entidade whose perfil holds
 * tag 39, its centro de custo is in their scope (their centros, or a perfil that sees every centro),
 * and they are not segregated from it (see `segregadoSql`).
 * The alçada rows of a level for a centro: the centro's own row at that level, else the general row.
 * Among the apto people, who decides the level it awaits (L):
 *   1. the approvers named at L (user or perfil) — 'titular';
 *   2. when nobody apto is named at L: the approvers named at the next higher level configured for
 *      the centro (L' = the smallest level > L, whatever the total requires) — 'nivel_superior';
 *   3. when nobody apto is named at L nor at L': the substitutes named on L's alçada — 'substituto'.
 * 2 and 3 are recorded as "por substituição". One person approves one level of a round (segregation),
 * so a substitute never approves two levels.
 */

/**
 * The person (`usuario`: a uuid expression) may not decide the requisição of the outer query: its
 * requester, the requester of a pré-requisição it converts, who approved another level of this round,
 * or any author of it recorded by the document kit (wrote, changed or sent it, or wrote its sources).
 */
function segregadoSql(usuario: SQL): SQL {
  return sql`(${usuario} = ${requisicoes.solicitanteId}
    OR EXISTS (SELECT 1 FROM requisicao_itens sri
                 JOIN pre_requisicao_itens spi ON spi.id = sri.pre_requisicao_item_id
                 JOIN pre_requisicoes sp ON sp.id = spi.pre_requisicao_id
                WHERE sri.requisicao_id = ${requisicoes.id} AND sp.solicitante_id = ${usuario})
    OR EXISTS (SELECT 1 FROM requisicao_aprovacoes sa
                WHERE sa.requisicao_id = ${requisicoes.id} AND sa.ciclo = ${requisicoes.ciclo} AND sa.usuario_id = ${usuario})
    OR ${documentAuthorSql(requisicoes.id, usuario)})`;
}

/** `FROM` of a candidate: membership `m` with its user (`m_u`) and perfil (`m_p`). */
const membro = (m: string) =>
  sql.raw(`usuario_entidades ${m} JOIN usuarios ${m}_u ON ${m}_u.id = ${m}.usuario_id AND ${m}_u.ativo JOIN perfis ${m}_p ON ${m}_p.id = ${m}.perfil_id`);

/** The candidate `m` is apto for the requisição of the outer query. */
const apto = (m: string) =>
  sql`(${sql.raw(m)}.entidade_id = ${requisicoes.entidadeId} AND ${sql.raw(String(REQUISICOES_TAG))} = ANY(${sql.raw(m)}_p.tags)
       AND (${sql.raw(m)}_p.todos_centros OR ${requisicoes.centroCustoId} = ANY(${sql.raw(m)}.centros_custo))
       AND NOT ${segregadoSql(sql.raw(`${m}.usuario_id`))})`;

/** The candidate `m` is named on the alçada row of `nivel` for the requisição's centro (as approver or substitute). */
const nomeado = (m: string, nivel: SQL, como: 'aprovador' | 'substituto') => {
  const quem =
    como === 'aprovador'
      ? sql.raw(`(${m}.usuario_id = ANY(al.usuarios) OR ${m}.perfil_id = ANY(al.perfis))`)
      : sql.raw(`${m}.usuario_id = ANY(al.substitutos)`);
  return sql`EXISTS (SELECT 1 FROM requisicao_alcadas al
     WHERE al.entidade_id = ${requisicoes.entidadeId} AND al.nivel = ${nivel}
       AND (al.centro_custo_id = ${requisicoes.centroCustoId}
            OR (al.centro_custo_id IS NULL AND NOT EXISTS (
                  SELECT 1 FROM requisicao_alcadas alo
                   WHERE alo.entidade_id = al.entidade_id AND alo.nivel = al.nivel AND alo.centro_custo_id = ${requisicoes.centroCustoId})))
       AND ${quem})`;
};

/** Somebody apto is named at `nivel` (as approver or substitute). */
const haApto = (nivel: SQL, como: 'aprovador' | 'substituto') => sql`EXISTS (SELECT 1 FROM ${membro('h')} WHERE ${apto('h')} AND ${nomeado('h', nivel, como)})`;

const NIVEL = sql`${requisicoes.nivelAtual}`;
/** The next higher level configured for the requisição's centro (NULL at the top). */
const PROXIMO = sql`(SELECT min(alp.nivel) FROM requisicao_alcadas alp
   WHERE alp.entidade_id = ${requisicoes.entidadeId} AND (alp.centro_custo_id = ${requisicoes.centroCustoId} OR alp.centro_custo_id IS NULL)
     AND alp.nivel > ${requisicoes.nivelAtual})`;

/** How the apto candidate `m` decides the awaited level: 'titular', 'nivel_superior', 'substituto', or NULL. */
const viaSql = (m: string) => sql`(CASE
    WHEN ${nomeado(m, NIVEL, 'aprovador')} THEN 'titular'
    WHEN ${haApto(NIVEL, 'aprovador')} THEN NULL
    WHEN ${nomeado(m, PROXIMO, 'aprovador')} THEN 'nivel_superior'
    WHEN ${haApto(PROXIMO, 'aprovador')} THEN NULL
    WHEN ${nomeado(m, NIVEL, 'substituto')} THEN 'substituto'
  END)`;

/** The candidate `m` may decide the requisição of the outer query now. */
const decideSql = (m: string) => sql`(${requisicoes.status} = 'em_aprovacao' AND ${apto(m)} AND ${viaSql(m)} IS NOT NULL)`;

/** The person may decide the requisição now (the queue, its count, the per-row role). */
export function podeAprovarSql(ctx: Pick<RequestContext, 'user' | 'entidadeId'>): SQL {
  return sql`(${requisicoes.status} = 'em_aprovacao' AND ${requisicoes.entidadeId} = ${ctx.entidadeId}::uuid
    AND EXISTS (SELECT 1 FROM ${membro('eu')} WHERE eu.usuario_id = ${ctx.user.id}::uuid AND ${decideSql('eu')}))`;
}

export type Via = 'titular' | 'nivel_superior' | 'substituto';
export interface Decisor {
  id: string;
  nome: string;
  email: string;
  via: Via;
}

/** Everybody who may decide the requisição now, and how (the same definition as podeAprovarSql). */
export async function decisores(db: DbOrTx, entidadeId: string, requisicaoId: string): Promise<Decisor[]> {
  const { rows } = await db.execute<{ id: string; nome: string; email: string; via: Via }>(sql`
    SELECT d.usuario_id AS id, d_u.nome, d_u.email, ${viaSql('d')} AS via
      FROM requisicoes CROSS JOIN ${membro('d')}
     WHERE ${requisicoes.id} = ${requisicaoId}::uuid AND ${requisicoes.entidadeId} = ${entidadeId}::uuid AND ${decideSql('d')}
     ORDER BY d_u.nome, d.usuario_id`);
  return rows.map((r) => ({ id: r.id, nome: r.nome, email: r.email, via: r.via }));
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

/**
 * Records the approval of the awaited level (the unique keys refuse a second one) with how the person
 * decides it (por substituição or not) and says where it goes; at the last level the approved value
 * is the total approved.
 */
export async function registrarAprovacao(tx: Tx, row: Row, ctx: RequestContext): Promise<{ to: string; set: Row; via: Via }> {
  const nivel = Number(row.nivelAtual);
  const eu = (await decisores(tx, ctx.entidadeId, String(row.id))).find((d) => d.id === ctx.user.id);
  // the kit checked the role with the same definition in this transaction (row locked): never absent
  const via: Via = eu?.via ?? 'titular';
  await tx.insert(requisicaoAprovacoes).values({
    entidadeId: ctx.entidadeId,
    requisicaoId: String(row.id),
    ciclo: Number(row.ciclo),
    nivel,
    usuarioId: ctx.user.id,
    usuarioNome: ctx.user.nome,
    substituicao: via === 'titular' ? null : via,
  });
  const niveis = niveisDoTotal(String(row.valorTotal), await alcadasDoCentro(tx, ctx.entidadeId, String(row.centroCustoId)));
  const proximo = niveis.find((n) => n > nivel);
  return proximo === undefined
    ? { to: 'aprovada', set: { nivelAtual: null, valorAprovado: String(row.valorTotal) }, via }
    : { to: 'em_aprovacao', set: { nivelAtual: proximo }, via };
}

/** 'por substituição (aprovador do nível superior)'. */
export const VIA_LABEL: Record<Via, string> = {
  titular: 'aprovador do nível',
  nivel_superior: 'por substituição (aprovador do nível superior)',
  substituto: 'por substituição (substituto indicado na alçada)',
};

/** The e-mails 'aguarda a sua aprovação': exactly the people who may decide it now. */
export async function avisarDecisores(tx: Tx, after: Row, ctx: RequestContext): Promise<void> {
  const numero = formatNumero(after.numero as number, after.ano as number);
  const nivel = Number(after.nivelAtual);
  for (const d of await decisores(tx, ctx.entidadeId, String(after.id))) {
    sendMail(tx, {
      to: d.email,
      usuarioId: d.id,
      subject: `Requisição ${numero} aguarda a sua aprovação`,
      text: [
        `Olá, ${d.nome}.`,
        '',
        `A requisição ${numero} (${String(after.solicitanteNome)}) aguarda aprovação no nível ${nivel} de ${String(after.niveis)}.`,
        ...(d.via === 'titular' ? [] : [`Você pode decidi-la ${VIA_LABEL[d.via]}: nenhum aprovador deste nível pode fazê-lo.`]),
        'Abra Requisições > Aguardando minha aprovação para analisá-la.',
      ].join('\n'),
    });
  }
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
    await avisarDecisores(tx, after, ctx);
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
