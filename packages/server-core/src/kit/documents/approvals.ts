// Approval by value levels (alçadas) of a document, declared once and given to
// defineDocumentResource (`approvals`): which levels an amount needs per entidade and centro de custo,
// who decides the awaited level (titular, the next higher level, the substitutes named on the level),
// segregation of duties, the approval record (one per level and round, unique in the database), the
// e-mails to who can act, the queue 'aguardando minha aprovação' and its count.
//
// Who may decide is ONE SQL definition (`canDecideSql`): the per-row role ('aprovador', read for a
// page of records at once), the list filter `aguardandoMinha`, the menu count and PENDENCIAS, the
// e-mails, the names on the approval page and how an approval was given all read it.
//
// Storage: the plugin's own tables, declared with the columns below (a levels table and an approvals
// table; requisições: requisicao_alcadas and requisicao_aprovacoes), so each document keeps its data
// and foreign keys where they are.
import { TIME_ZONE, today } from '@app/br';
import { formatNumero } from '@app/documents';
import { z } from '@hono/zod-openapi';
import { type SQL, and, count, eq, getTableColumns, getTableName, or, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../../platform/context.js';
import { usuarios } from '../../platform/db/schema.js';
import type { Db, DbOrTx, Tx } from '../../platform/db/types.js';
import { AppError, notFound } from '../../platform/errors.js';
import { sendMail } from '../../platform/mutation.js';
import type { PluginRouter } from '../../platform/router.js';
import { centroCustoScope } from '../../platform/scope.js';
import type { IndicadorProvider } from '../indicadores.js';
import { type PendenciaProvider, diasDesde } from '../pendencias.js';
import { documentAuthorSql } from './authors.js';

type Row = Record<string, unknown>;

/** The levels table (alçadas): level `nivel` applies from `valorMinimo` (inclusive); a row of a centro replaces the general row (centro NULL) of its level. */
export type ApprovalLevelsTable = PgTable & {
  entidadeId: AnyPgColumn;
  nivel: AnyPgColumn;
  nome: AnyPgColumn;
  valorMinimo: AnyPgColumn;
  centroCustoId: AnyPgColumn;
  /** uuid[]: perfis whose members approve the level. */
  perfis: AnyPgColumn;
  /** uuid[]: users who approve the level. */
  usuarios: AnyPgColumn;
  /** uuid[]: who decides the level when nobody of it nor of the next higher level may. */
  substitutos: AnyPgColumn;
};

/** The approvals table: one row per approval given, unique per (document, ciclo, nivel) and per (document, ciclo, usuario). */
export type ApprovalRecordsTable = PgTable & {
  entidadeId: AnyPgColumn;
  ciclo: AnyPgColumn;
  nivel: AnyPgColumn;
  usuarioId: AnyPgColumn;
  usuarioNome: AnyPgColumn;
  /** NULL: by an approver of the level; 'nivel_superior' / 'substituto': por substituição. */
  substituicao: AnyPgColumn;
  createdAt: AnyPgColumn;
};

export type ApprovalVia = 'titular' | 'nivel_superior' | 'substituto';

/** 'por substituição (aprovador do nível superior)': how an approval was given, as the timeline says it. */
export const APPROVAL_VIA_LABEL: Record<ApprovalVia, string> = {
  titular: 'aprovador do nível',
  nivel_superior: 'por substituição (aprovador do nível superior)',
  substituto: 'por substituição (substituto indicado na alçada)',
};

export interface ApprovalLevel {
  nivel: number;
  nome: string;
  valorMinimo: string;
  perfis: string[];
  usuarios: string[];
}

export interface ApprovalDecider {
  id: string;
  nome: string;
  email: string;
  via: ApprovalVia;
}

export interface DocumentApprovalsDefinition {
  /** The document's header table and the columns the approvals read and write. */
  table: PgTable;
  columns: {
    id: AnyPgColumn;
    entidadeId: AnyPgColumn;
    status: AnyPgColumn;
    centroCustoId: AnyPgColumn;
    /** The amount the levels are chosen by (e.g. `valor_total`). */
    amount: AnyPgColumn;
    /** integer: the level awaited (NULL outside the awaiting state). */
    level: AnyPgColumn;
    /** integer: how many levels this round needs. */
    levels: AnyPgColumn;
    /** integer: the sending round (each submit starts a new one). */
    round: AnyPgColumn;
    /** The amount the last level approved (set on that approval). */
    approvedAmount?: AnyPgColumn;
    /** Who asked: never decides it, told of the outcome. */
    requesterId?: AnyPgColumn;
    requesterName?: AnyPgColumn;
  };
  levels: ApprovalLevelsTable;
  records: ApprovalRecordsTable;
  /** The records' column holding the document id. */
  recordDocument: AnyPgColumn;
  /** Tag an approver's perfil must hold (the document's tag). */
  tag: number;
  /** The role the flow's approval transitions ask (`who`), default 'aprovador'. */
  role?: string;
  states: { awaiting: string; approved: string };
  transitions: { submit: readonly string[]; approve: string; decide: readonly string[] };
  /** More people who never decide the document of the outer query (`usuario`: a uuid expression), e.g. the requesters of its sources. */
  segregated?: (usuario: SQL) => SQL;
  /** The e-mails: how people call the document and what they are told. */
  mail: {
    documento: string;
    feminino?: boolean;
    /** Where the person finds the queue: 'Requisições > Aguardando minha aprovação'. */
    queue: string;
    /** Final or returned state → what happened: { aprovada: 'foi aprovada', devolvida: 'foi devolvida para ajustes' }. */
    outcomes: Record<string, string>;
  };
  /** More fields of GET <path>/:id/aprovacao (e.g. the approved and researched values). */
  summary?: { shape: z.ZodRawShape; value: (row: Row) => Row };
}

/** GET <path>/:id/aprovacao. */
export const approvalStepsShape = {
  niveis: z.number().int(),
  nivelAtual: z.number().int().nullable(),
  ciclo: z.number().int(),
  etapas: z.array(
    z.object({
      nivel: z.number().int(),
      nome: z.string(),
      aprovadoPor: z.string().nullable(),
      aprovadoEm: z.string().nullable(),
      substituicao: z.enum(['nivel_superior', 'substituto']).nullable(),
    }),
  ),
  podemDecidir: z.array(z.object({ nome: z.string(), via: z.enum(['titular', 'nivel_superior', 'substituto']) })),
};

export interface DocumentApprovals {
  readonly definition: DocumentApprovalsDefinition;
  readonly role: string;
  /** The person may decide the document of the outer query now: the queue, its count, the per-row role. */
  canDecideSql(ctx: Pick<RequestContext, 'user' | 'entidadeId'>): SQL;
  /** How many documents await the person's decision, in the person's centros (the menu count, PENDENCIAS). */
  count(db: DbOrTx, ctx: RequestContext): Promise<number>;
  /** Ids among `ids` the person may decide now (one query for a page of records). */
  decidable(db: DbOrTx, ids: readonly string[], ctx: RequestContext): Promise<Set<string>>;
  /** Everybody who may decide the document now, and how. */
  deciders(db: DbOrTx, entidadeId: string, documentId: string): Promise<ApprovalDecider[]>;
  /** The levels of a centro: its own row of a level, else the general one; by level. */
  levelsFor(db: DbOrTx, entidadeId: string, centroCustoId: string): Promise<ApprovalLevel[]>;
  /** The levels an amount needs, ascending (minimum ≤ amount: a value equal to a minimum takes that level). */
  requiredLevels(amount: string, levels: readonly ApprovalLevel[]): number[];
  /** The columns of a new round for `amount` (409 `sem_alcada` when no level applies; `message` replaces the text). */
  newRound(db: DbOrTx, entidadeId: string, row: Row, amount: string, message?: string): Promise<Row>;
  /** The kit's part of a transition (submit: new round; approve: the record, next level or approved; decide: level cleared). */
  resolve(tx: Tx, name: string, row: Row, ctx: RequestContext): Promise<{ to?: string; set?: Row; audit?: Row } | undefined>;
  /** The e-mails of a transition (after the status changed, same transaction). */
  notify(tx: Tx, name: string, after: Row, motivo: string | null | undefined, ctx: RequestContext): Promise<void>;
  /** 'aguarda a sua aprovação' to exactly who may decide the document now. */
  notifyDeciders(tx: Tx, after: Row, ctx: RequestContext): Promise<void>;
  /** The levels of this round, who approved each, who may decide now (GET <path>/:id/aprovacao). */
  steps(db: DbOrTx, entidadeId: string, row: Row): Promise<Row>;
  /** A PENDENCIAS provider counting the queue. */
  pendencia(p: Omit<PendenciaProvider, 'count' | 'tag' | 'desde'>): PendenciaProvider;
  /**
   * An INDICADORES provider: of the person's queue, how many wait longer than `dias` calendar days in
   * America/Sao_Paulo since their last change (default 5); nothing to measure with an empty queue.
   */
  indicador(p: Omit<IndicadorProvider, 'medir' | 'tag'> & { dias?: number; documentos: { um: string; varios: string } }): IndicadorProvider;
  /**
   * Refuses at start a flow the declaration does not fit (called by defineDocumentResource): every
   * transition named must exist, and approve/decide must ask the approvals' role (`who`), or anyone
   * with the tag would decide.
   */
  assertFlow(flow: { isTransition(name: string): boolean; transitions: Record<string, { who?: readonly string[] } | undefined> }, where: string): void;
  /** GET <path>/:id/aprovacao and GET <path>/aguardando-minha-aprovacao/contagem (called by defineDocumentResource). */
  routes(router: PluginRouter, path: string, readOne: (db: DbOrTx, id: string, ctx: RequestContext) => Promise<Row | undefined>): void;
}

const col = (alias: string, column: AnyPgColumn) => sql.raw(`${alias}."${column.name}"`);
const compareMoney = (a: string, b: string) => {
  // exact: numeric strings with up to 2 decimals (money)
  const cents = (v: string) => {
    const [i = '0', d = ''] = v.trim().split('.');
    const neg = i.startsWith('-');
    const n = BigInt(i.replace('-', '') || '0') * 100n + BigInt(`${d}00`.slice(0, 2));
    return neg ? -n : n;
  };
  const x = cents(a);
  const y = cents(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Declares the approval by value levels of a document (module level, so a plugin's `contributes`
 * can use its `pendencia`); give it to defineDocumentResource as `approvals`.
 */
export function defineDocumentApprovals(def: DocumentApprovalsDefinition): DocumentApprovals {
  const d = def.columns;
  const L = def.levels;
  const R = def.records;
  const role = def.role ?? 'aprovador';
  const levelsName = sql.identifier(getTableName(L));
  const recordsName = sql.identifier(getTableName(R));
  const awaiting = def.states.awaiting;

  /** The person (`usuario`) never decides the document of the outer query. */
  const segregated = (usuario: SQL): SQL => {
    const parts: SQL[] = [
      sql`EXISTS (SELECT 1 FROM ${recordsName} sa WHERE ${col('sa', def.recordDocument)} = ${d.id} AND ${col('sa', R.ciclo)} = ${d.round} AND ${col('sa', R.usuarioId)} = ${usuario})`,
      documentAuthorSql(d.id, usuario),
    ];
    if (d.requesterId) parts.unshift(sql`${usuario} = ${d.requesterId}`);
    if (def.segregated) parts.push(def.segregated(usuario));
    return sql`(${sql.join(parts, sql` OR `)})`;
  };

  /** `FROM` of a candidate: membership `m` with its user (`m_u`) and perfil (`m_p`). */
  const membro = (m: string) =>
    sql.raw(`usuario_entidades ${m} JOIN usuarios ${m}_u ON ${m}_u.id = ${m}.usuario_id AND ${m}_u.ativo JOIN perfis ${m}_p ON ${m}_p.id = ${m}.perfil_id`);

  /** The candidate `m` is apto: member of the entidade with the tag, the centro in scope, not segregated. */
  const apto = (m: string) =>
    sql`(${sql.raw(m)}.entidade_id = ${d.entidadeId} AND ${sql.raw(String(Number(def.tag)))} = ANY(${sql.raw(m)}_p.tags)
       AND (${sql.raw(m)}_p.todos_centros OR ${d.centroCustoId} = ANY(${sql.raw(m)}.centros_custo))
       AND NOT ${segregated(sql.raw(`${m}.usuario_id`))})`;

  /** The level row of `nivel` for the document's centro (its own, else the general one) names the candidate `m`. */
  const nomeado = (m: string, nivel: SQL, como: 'aprovador' | 'substituto') => {
    const quem =
      como === 'aprovador'
        ? sql`(${sql.raw(m)}.usuario_id = ANY(${col('al', L.usuarios)}) OR ${sql.raw(m)}.perfil_id = ANY(${col('al', L.perfis)}))`
        : sql`${sql.raw(m)}.usuario_id = ANY(${col('al', L.substitutos)})`;
    return sql`EXISTS (SELECT 1 FROM ${levelsName} al
     WHERE ${col('al', L.entidadeId)} = ${d.entidadeId} AND ${col('al', L.nivel)} = ${nivel}
       AND (${col('al', L.centroCustoId)} = ${d.centroCustoId}
            OR (${col('al', L.centroCustoId)} IS NULL AND NOT EXISTS (
                  SELECT 1 FROM ${levelsName} alo
                   WHERE ${col('alo', L.entidadeId)} = ${col('al', L.entidadeId)} AND ${col('alo', L.nivel)} = ${col('al', L.nivel)}
                     AND ${col('alo', L.centroCustoId)} = ${d.centroCustoId})))
       AND ${quem})`;
  };

  /** Somebody apto is named at `nivel`. */
  const haApto = (nivel: SQL, como: 'aprovador' | 'substituto') =>
    sql`EXISTS (SELECT 1 FROM ${membro('h')} WHERE ${apto('h')} AND ${nomeado('h', nivel, como)})`;

  const NIVEL = sql`${d.level}`;
  /** The next higher level configured for the document's centro (NULL at the top). */
  const PROXIMO = sql`(SELECT min(${col('alp', L.nivel)}) FROM ${levelsName} alp
   WHERE ${col('alp', L.entidadeId)} = ${d.entidadeId} AND (${col('alp', L.centroCustoId)} = ${d.centroCustoId} OR ${col('alp', L.centroCustoId)} IS NULL)
     AND ${col('alp', L.nivel)} > ${d.level})`;

  /**
   * How the apto candidate `m` decides the awaited level: 1. named at it ('titular'); when nobody apto
   * is, 2. named at the next higher level ('nivel_superior'); when nobody apto is there either,
   * 3. a substitute named on the level ('substituto'); else NULL.
   */
  const viaSql = (m: string) => sql`(CASE
    WHEN ${nomeado(m, NIVEL, 'aprovador')} THEN 'titular'
    WHEN ${haApto(NIVEL, 'aprovador')} THEN NULL
    WHEN ${nomeado(m, PROXIMO, 'aprovador')} THEN 'nivel_superior'
    WHEN ${haApto(PROXIMO, 'aprovador')} THEN NULL
    WHEN ${nomeado(m, NIVEL, 'substituto')} THEN 'substituto'
  END)`;

  const decideSql = (m: string) => sql`(${d.status} = ${awaiting} AND ${apto(m)} AND ${viaSql(m)} IS NOT NULL)`;

  const canDecideSql = (ctx: Pick<RequestContext, 'user' | 'entidadeId'>): SQL =>
    sql`(${d.status} = ${awaiting} AND ${d.entidadeId} = ${ctx.entidadeId}::uuid
      AND EXISTS (SELECT 1 FROM ${membro('eu')} WHERE eu.usuario_id = ${ctx.user.id}::uuid AND ${decideSql('eu')}))`;

  const deciders = async (db: DbOrTx, entidadeId: string, documentId: string): Promise<ApprovalDecider[]> => {
    const { rows } = await db.execute<{ id: string; nome: string; email: string; via: ApprovalVia }>(sql`
      SELECT dc.usuario_id AS id, dc_u.nome, dc_u.email, ${viaSql('dc')} AS via
        FROM ${def.table} CROSS JOIN ${membro('dc')}
       WHERE ${d.id} = ${documentId}::uuid AND ${d.entidadeId} = ${entidadeId}::uuid AND ${decideSql('dc')}
       ORDER BY dc_u.nome, dc.usuario_id`);
    return rows.map((r) => ({ id: r.id, nome: r.nome, email: r.email, via: r.via }));
  };

  const decidable = async (db: DbOrTx, ids: readonly string[], ctx: RequestContext): Promise<Set<string>> => {
    const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    if (valid.length === 0) return new Set();
    const rows = (await db
      .select({ id: d.id })
      .from(def.table)
      .where(and(sql`${d.id} = ANY(${`{${valid.join(',')}}`}::uuid[])`, eq(d.entidadeId, ctx.entidadeId), canDecideSql(ctx)))) as { id: string }[];
    return new Set(rows.map((r) => String(r.id)));
  };

  const countQueue = async (db: DbOrTx, ctx: RequestContext): Promise<number> => {
    const [row] = await db
      .select({ n: count() })
      .from(def.table)
      .where(and(eq(d.entidadeId, ctx.entidadeId), centroCustoScope(ctx, d.centroCustoId), canDecideSql(ctx)));
    return Number(row?.n ?? 0);
  };

  /** Since when the oldest document of the queue waits: its last change (sent, or the level before approved). */
  const queueSince = async (db: DbOrTx, ctx: RequestContext): Promise<Date | null> => {
    const updatedAt = getTableColumns(def.table).updatedAt;
    if (!updatedAt) return null;
    const [row] = await db
      .select({ at: sql<Date | string | null>`min(${updatedAt})` })
      .from(def.table)
      .where(and(eq(d.entidadeId, ctx.entidadeId), centroCustoScope(ctx, d.centroCustoId), canDecideSql(ctx)));
    return row?.at ? new Date(row.at) : null;
  };

  const levelsFor = async (db: DbOrTx, entidadeId: string, centroCustoId: string): Promise<ApprovalLevel[]> => {
    const rows = (await db
      .select({
        nivel: L.nivel,
        nome: L.nome,
        valorMinimo: sql<string>`${L.valorMinimo}::text`,
        centroCustoId: L.centroCustoId,
        perfis: L.perfis,
        usuarios: L.usuarios,
      })
      .from(L)
      .where(and(eq(L.entidadeId, entidadeId), or(sql`${L.centroCustoId} IS NULL`, eq(L.centroCustoId, centroCustoId))))) as (ApprovalLevel & {
      centroCustoId: string | null;
    })[];
    const proprios = new Set(rows.filter((r) => r.centroCustoId !== null).map((r) => r.nivel));
    return rows
      .filter((r) => r.centroCustoId !== null || !proprios.has(r.nivel))
      .map(({ centroCustoId: _c, ...r }) => r)
      .sort((a, b) => a.nivel - b.nivel);
  };

  const requiredLevels = (amount: string, levels: readonly ApprovalLevel[]): number[] =>
    [...new Set(levels.filter((l) => compareMoney(l.valorMinimo, amount) <= 0).map((l) => l.nivel))].sort((a, b) => a - b);

  const key = (column: AnyPgColumn) => {
    for (const [k, c] of Object.entries(def.table as unknown as Record<string, unknown>)) if (c === column) return k;
    throw new Error(`defineDocumentApprovals(${getTableName(def.table)}): a column is not of the table.`);
  };
  const k = {
    level: key(d.level),
    levels: key(d.levels),
    round: key(d.round),
    amount: key(d.amount),
    centro: key(d.centroCustoId),
    approvedAmount: d.approvedAmount ? key(d.approvedAmount) : undefined,
    requesterId: d.requesterId ? key(d.requesterId) : undefined,
    requesterName: d.requesterName ? key(d.requesterName) : undefined,
  };
  const lower = def.mail.documento.charAt(0).toLowerCase() + def.mail.documento.slice(1);
  /** 'A requisição 12/2026' (a sentence's subject). */
  const sujeito = (after: Row) => `${def.mail.feminino ? 'A' : 'O'} ${lower} ${formatNumero(after.numero as number, after.ano as number)}`;

  const newRound = async (db: DbOrTx, entidadeId: string, row: Row, amount: string, message?: string): Promise<Row> => {
    const niveis = requiredLevels(amount, await levelsFor(db, entidadeId, String(row[k.centro])));
    if (niveis.length === 0) {
      throw new AppError(
        409,
        'sem_alcada',
        message ?? `Nenhuma alçada de aprovação se aplica a ${def.mail.feminino ? 'esta' : 'este'} ${lower}: peça ao administrador que configure as alçadas.`,
      );
    }
    return { [k.levels]: niveis.length, [k.level]: niveis[0], [k.round]: Number(row[k.round]) + 1 };
  };

  const resolve = async (tx: Tx, name: string, row: Row, ctx: RequestContext) => {
    if (def.transitions.submit.includes(name)) return { set: await newRound(tx, ctx.entidadeId, row, String(row[k.amount])) };
    if (name === def.transitions.approve) {
      const nivel = Number(row[k.level]);
      // the flow checked the role with the same definition in this transaction (row locked): never absent
      const via: ApprovalVia = (await deciders(tx, ctx.entidadeId, String(row.id))).find((x) => x.id === ctx.user.id)?.via ?? 'titular';
      // the unique keys refuse a second approval of the level, or a second level by the same person
      await tx.insert(R).values({
        entidadeId: ctx.entidadeId,
        [key2(def.recordDocument)]: String(row.id),
        ciclo: Number(row[k.round]),
        nivel,
        usuarioId: ctx.user.id,
        usuarioNome: ctx.user.nome,
        substituicao: via === 'titular' ? null : via,
      } as never);
      const proximo = requiredLevels(String(row[k.amount]), await levelsFor(tx, ctx.entidadeId, String(row[k.centro]))).find((n) => n > nivel);
      const audit = via === 'titular' ? {} : { porSubstituicao: APPROVAL_VIA_LABEL[via] };
      return proximo === undefined
        ? { to: def.states.approved, set: { [k.level]: null, ...(k.approvedAmount ? { [k.approvedAmount]: String(row[k.amount]) } : {}) }, audit }
        : { to: awaiting, set: { [k.level]: proximo }, audit };
    }
    if (def.transitions.decide.includes(name)) {
      const via = (await deciders(tx, ctx.entidadeId, String(row.id))).find((x) => x.id === ctx.user.id)?.via;
      return { set: { [k.level]: null }, audit: via && via !== 'titular' ? { porSubstituicao: APPROVAL_VIA_LABEL[via] } : {} };
    }
    return undefined;
  };
  function key2(column: AnyPgColumn) {
    for (const [kk, c] of Object.entries(R as unknown as Record<string, unknown>)) if (c === column) return kk;
    throw new Error(`defineDocumentApprovals(${getTableName(def.table)}): recordDocument is not a column of the approvals table.`);
  }

  const titulo = (after: Row) => `${def.mail.documento} ${formatNumero(after.numero as number, after.ano as number)}`;

  const notifyDeciders = async (tx: Tx, after: Row, ctx: RequestContext) => {
    const nome = titulo(after);
    const quem = k.requesterName && after[k.requesterName] ? ` (${String(after[k.requesterName])})` : '';
    for (const p of await deciders(tx, ctx.entidadeId, String(after.id))) {
      sendMail(tx, {
        to: p.email,
        usuarioId: p.id,
        subject: `${nome} aguarda a sua aprovação`,
        text: [
          `Olá, ${p.nome}.`,
          '',
          `${sujeito(after)}${quem} aguarda aprovação no nível ${String(after[k.level])} de ${String(after[k.levels])}.`,
          ...(p.via === 'titular' ? [] : [`Você pode decidi-la ${APPROVAL_VIA_LABEL[p.via]}: nenhum aprovador deste nível pode fazê-lo.`]),
          `Abra ${def.mail.queue} para analisá-la.`,
        ].join('\n'),
      });
    }
  };

  const notify = async (tx: Tx, name: string, after: Row, motivo: string | null | undefined, ctx: RequestContext) => {
    const status = String(after.status);
    if (status === awaiting && (def.transitions.submit.includes(name) || name === def.transitions.approve)) {
      await notifyDeciders(tx, after, ctx);
      return;
    }
    const resultado = def.mail.outcomes[status];
    if (!resultado || !k.requesterId || !after[k.requesterId]) return;
    const [solicitante] = await tx
      .select({ id: usuarios.id, nome: usuarios.nome, email: usuarios.email, ativo: usuarios.ativo })
      .from(usuarios)
      .where(eq(usuarios.id, String(after[k.requesterId])));
    if (!solicitante?.ativo) return;
    const nome = titulo(after);
    sendMail(tx, {
      to: solicitante.email,
      usuarioId: solicitante.id,
      subject: `${nome} ${resultado}`,
      text: [`Olá, ${solicitante.nome}.`, '', `${sujeito(after)} ${resultado} por ${ctx.user.nome}.`, ...(motivo ? ['', `Motivo: ${motivo}`] : [])].join('\n'),
    });
  };

  const steps = async (db: DbOrTx, entidadeId: string, row: Row): Promise<Row> => {
    const aplicaveis = await levelsFor(db, entidadeId, String(row[k.centro]));
    const niveis = requiredLevels(String(row[k.amount]), aplicaveis);
    const dadas = (await db
      .select({ nivel: R.nivel, nome: R.usuarioNome, em: R.createdAt, substituicao: R.substituicao })
      .from(R)
      .where(and(eq(def.recordDocument, String(row.id)), eq(R.ciclo, Number(row[k.round]))))) as {
      nivel: number;
      nome: string;
      em: Date | string;
      substituicao: 'nivel_superior' | 'substituto' | null;
    }[];
    const todos = [...new Set([...niveis, ...dadas.map((x) => x.nivel)])].sort((a, b) => a - b);
    return {
      niveis: Number(row[k.levels]) || niveis.length,
      nivelAtual: (row[k.level] as number | null) ?? null,
      ciclo: Number(row[k.round]),
      etapas: todos.map((nivel) => {
        const dada = dadas.find((x) => x.nivel === nivel);
        return {
          nivel,
          nome: aplicaveis.find((a) => a.nivel === nivel)?.nome ?? `Nível ${nivel}`,
          aprovadoPor: dada?.nome ?? null,
          aprovadoEm: dada ? new Date(dada.em).toISOString() : null,
          substituicao: dada?.substituicao ?? null,
        };
      }),
      podemDecidir: (await deciders(db, entidadeId, String(row.id))).map((x) => ({ nome: x.nome, via: x.via })),
      ...(def.summary?.value(row) ?? {}),
    };
  };

  const routes: DocumentApprovals['routes'] = (router, path, readOne) => {
    router.route({
      method: 'get',
      path: `${path}/aguardando-minha-aprovacao/contagem`,
      tag: def.tag,
      summary: `Quantos documentos aguardam a minha aprovação`,
      description: `O número do menu: ${def.mail.documento.toLowerCase()}s em aprovação no nível em que a pessoa decide (no escopo de centros de custo).`,
      responses: { 200: z.object({ total: z.number().int() }) },
      handler: async (c, ctx) => c.json({ total: await countQueue(ctx.db, ctx) }, 200),
    });
    router.route({
      method: 'get',
      path: `${path}/:id/aprovacao`,
      tag: def.tag,
      summary: `Níveis de aprovação`,
      description:
        'Os níveis que o valor exige (alçadas do centro de custo), o nível aguardado, quem aprovou cada um nesta rodada (e se por substituição) e quem pode decidir agora.',
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: z.object({ ...approvalStepsShape, ...(def.summary?.shape ?? {}) }), 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const row = await readOne(ctx.db, c.req.valid('param').id, ctx);
        if (!row) throw notFound();
        return c.json((await steps(ctx.db, ctx.entidadeId, row)) as never, 200);
      },
    });
  };

  const assertFlow: DocumentApprovals['assertFlow'] = (flow, where) => {
    const { submit, approve, decide } = def.transitions;
    for (const name of [...submit, approve, ...decide]) {
      if (!flow.isTransition(name)) throw new Error(`${where}: approvals name the transition '${name}', which the flow does not declare.`);
    }
    for (const name of [approve, ...decide]) {
      if (!flow.transitions[name]?.who?.includes(role)) throw new Error(`${where}: the transition '${name}' must be only for '${role}' (who: ['${role}']).`);
    }
  };

  return {
    definition: def,
    role,
    assertFlow,
    canDecideSql,
    count: countQueue,
    decidable,
    deciders,
    levelsFor,
    requiredLevels,
    newRound,
    resolve,
    notify,
    notifyDeciders,
    steps,
    pendencia: (p) => ({
      ...p,
      tag: def.tag,
      count: (db: Db, ctx: RequestContext) => countQueue(db, ctx),
      desde: (db: Db, ctx: RequestContext) => queueSince(db, ctx),
    }),
    indicador: ({ dias = 5, documentos, ...p }) => ({
      ...p,
      tag: def.tag,
      async medir(ctx) {
        const updatedAt = getTableColumns(def.table).updatedAt;
        if (!updatedAt) return null;
        const limite = new Date(Date.parse(today()) - dias * 86_400_000).toISOString().slice(0, 10);
        const [row] = await ctx.db
          .select({
            fila: count(),
            paradas: sql<number>`count(*) FILTER (WHERE (${updatedAt} AT TIME ZONE ${TIME_ZONE})::date < ${limite}::date)::int`,
            desde: sql<Date | string | null>`min(${updatedAt})`,
          })
          .from(def.table)
          .where(and(eq(d.entidadeId, ctx.entidadeId), centroCustoScope(ctx, d.centroCustoId), canDecideSql(ctx)));
        const fila = Number(row?.fila ?? 0);
        const paradas = Number(row?.paradas ?? 0);
        if (fila === 0) return null;
        const nome = (n: number) => `${n} ${n === 1 ? documentos.um : documentos.varios}`;
        const antiga = row?.desde ? diasDesde(row.desde) : 0;
        const espera = antiga === 0 ? 'chegou hoje' : `espera há ${antiga} ${antiga === 1 ? 'dia' : 'dias'}`;
        if (paradas === 0) return { valor: '0', nivel: 'normal', detalhe: `${nome(fila)} na sua fila; a mais antiga ${espera}.` };
        return {
          valor: String(paradas),
          nivel: antiga > 2 * dias ? 'critico' : 'atencao',
          detalhe: `${paradas} de ${nome(fila)} na sua fila há mais de ${dias} dias; a mais antiga ${espera}.`,
        };
      },
    }),
    routes,
  };
}
