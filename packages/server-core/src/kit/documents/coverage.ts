// Line coverage between documents: the lines of a TARGET document (a requisição) may each cover a
// line of a SOURCE document (a pré-requisição item) by quantity. Declared once with
// `defineDocumentCoverage`, given to the target's defineDocumentResource (`coverage`), the kit owns:
//  * the picker of source lines still pending for the person (`picker`: entidade, the source's scope,
//    a state that takes coverage, remaining = quantity − what live targets cover);
//  * the check on save: every source line id of the body is a line of the entidade whose document is
//    in the person's scope (404 otherwise, as for a read; a line the target already covered keeps its
//    link), the source documents locked FOR UPDATE in ascending id order (lockSources) BEFORE their
//    state is read, matching fields (the same product), a state that takes coverage (409), and then
//    the quantity (items.source: the source lines locked, 400 above what is left, 409 when another
//    target took it all);
//  * the status fed back to the source (open → partial → full, and back), audited on the source's
//    timeline with the target that caused it; recomputed after each save and when the target moves
//    into a state that releases its lines (cancelled, rejected);
//  * a transition of the source serialises with conversions (both lock the source row) and, with
//    `refuseWhileCovered`, is refused (409) while live targets cover its lines (`guardSource`).
// Lock order everywhere: the target (PUT/transition) → the source documents, ascending → their lines.
import { z } from '@hono/zod-openapi';
import { type SQL, and, asc, eq, getTableColumns, getTableName, inArray, is, notInArray, sql, Column } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditFn } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import type { Tx } from '../../platform/db/types.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { PluginRouter } from '../../platform/router.js';
import type { CrudWriteContext } from '../crud.js';
import { searchCondition } from '../crud.js';
import type { DocumentItemSource } from './items.js';
import { lockSources } from './sources.js';

type Row = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A numbered document header: id, entidade, status, version, numero, ano. */
type Header = PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn; status: AnyPgColumn; version: AnyPgColumn; numero: AnyPgColumn; ano: AnyPgColumn };

export interface DocumentCoverageDefinition {
  source: {
    /** The source documents (pré-requisições). */
    table: Header;
    /** Their lines: table, id, entidade, header FK, quantity (numeric) and order columns. */
    lines: PgTable;
    lineId: AnyPgColumn;
    lineEntidadeId: AnyPgColumn;
    lineDocument: AnyPgColumn;
    lineQuantity: AnyPgColumn;
    lineOrder?: AnyPgColumn;
    /** The person's row-level scope over the source documents (e.g. centroCustoScope); outside it: 404. */
    scope?: (ctx: RequestContext) => SQL | undefined;
    /** States of the source whose lines take new coverage (e.g. ['enviada', 'parcialmente_atendida']). */
    eligible: readonly string[];
    /**
     * The status fed back from the coverage of its lines (only while the source is in one of the
     * three): none covered → `open`, some → `partial`, all → `full`.
     */
    status?: { open: string; partial: string; full: string };
    /** Source transitions refused (409 `em_uso`) while live targets cover its lines (see guardSource). */
    refuseWhileCovered?: readonly string[];
  };
  target: {
    /** The target documents (requisições). */
    table: Header;
    /** Their lines (the target's `items.table`), the header FK, the quantity and the covered line's id. */
    lines: PgTable;
    lineDocument: AnyPgColumn;
    lineQuantity: AnyPgColumn;
    lineSource: AnyPgColumn;
    /** States of the target whose lines cover nothing (their quantities go back: cancelled, rejected). */
    releases: readonly string[];
  };
  /** Fields a covering line repeats from its source line: body key → source column and pt-BR message (400). */
  match?: Record<string, { column: AnyPgColumn; message: string }>;
  messages: {
    /** 400 at `itens.N.<quantity>` above what is left: e.g. `A quantidade passa do pendente (pendente: ${pendente}).` */
    over: (pendente: string) => string;
    /** 409 when other targets took all of a line (a race lost): the line's message. */
    exhausted: string;
    /** 409 when a source is no longer in an eligible state: code, message and the line's message. */
    unavailable: { code: string; message: string; line: string };
    /** 409 of `refuseWhileCovered`: e.g. 'Há itens desta pré-requisição em requisições: cancele-as antes.' */
    inUse?: string;
  };
  /** Audit of a status change on the source: actions (default 'atender' / 'liberar') and the key naming the target (default 'causa'). */
  audit?: { covered?: string; released?: string; cause?: string };
}

/** One of GET <picker path>'s options (`fields` of the picker besides these). */
export interface DocumentCoveragePicker {
  path: string;
  tag: number;
  summary: string;
  description?: string;
  /** Answered fields besides `id` and the three quantities (the source header is joined). */
  fields: Record<string, AnyPgColumn | SQL>;
  /** Schema of one option (all the answered fields, for OpenAPI). */
  schema: z.ZodObject;
  /** LEFT JOINs for `fields` (one row per line). */
  joins?: { table: PgTable; on: SQL }[];
  /** Optional uuid query parameters: name → column (`?preRequisicaoId=`). */
  filters?: Record<string, AnyPgColumn>;
  /** `?q=`: words searched in this normalized (compras_busca) expression. */
  search?: AnyPgColumn | SQL;
  /** Keys of the quantities (default 'quantidade', 'atendido', 'pendente'). */
  keys?: { quantity?: string; covered?: string; remaining?: string };
  /** Most options answered (default 1000). */
  limit?: number;
}

export interface DocumentCoverage {
  readonly definition: DocumentCoverageDefinition;
  /** Body key of the covered line's id in a target line ('preRequisicaoItemId'). */
  readonly lineSourceKey: string;
  /** SQL: the quantity of source line `lineId` covered by live targets (numeric). */
  covered(lineId: SQL | AnyPgColumn): SQL;
  /** SQL: what is left of source line `lineId` (never below 0), numeric. */
  remaining(lineId: SQL | AnyPgColumn): SQL;
  /** SQL: json array of the targets covering the line: [{ id, numero, ano, status, quantidade }] by number. */
  coveringDocuments(lineId: SQL | AnyPgColumn): SQL;
  /** The quantity check the target's items run (DocumentItemsDefinition.source). */
  readonly itemSource: DocumentItemSource;
  /** GET <path>: the source lines the person may still cover. */
  picker(router: PluginRouter, options: DocumentCoveragePicker): void;
  /** Inside the target's validate: locks and checks the source lines of `lines` (404 / fields / 409). */
  check(tx: Tx, lines: readonly Row[], write: CrudWriteContext, field: string): Promise<Record<string, string> | undefined>;
  /** The source documents of a target's lines. */
  sourcesOf(tx: Tx, targetId: string): Promise<string[]>;
  /** The source documents of source line ids. */
  documentsOfLines(tx: Tx, lineIds: readonly string[]): Promise<string[]>;
  /** Recomputes the status of the source documents from their lines' coverage, audited on each. */
  feedback(tx: Tx, sourceIds: readonly string[], audit: AuditFn, cause: string): Promise<void>;
  /** Refuses (409) a source transition of `refuseWhileCovered` while live targets cover its lines. */
  guardSource(tx: Tx, sourceId: string, transition: string): Promise<void>;
}

/**
 * A column named in full (`"table"."column"`, or `"alias"."column"`): drizzle leaves names bare in a
 * one-table select, where a subquery over other tables with the same column names would take them.
 */
function named(column: AnyPgColumn | SQL, alias?: string): SQL {
  if (!is(column, Column)) return column as SQL;
  const c = column as AnyPgColumn;
  return sql.raw(`"${alias ?? getTableName(c.table)}"."${c.name}"`);
}

function keyOf(table: PgTable, column: AnyPgColumn, what: string): string {
  const key = Object.entries(getTableColumns(table) as Record<string, AnyPgColumn>).find(([, c]) => c === column)?.[0];
  if (!key) throw new Error(`defineDocumentCoverage: ${what} is not a column of its table.`);
  return key;
}

/** Declares that each line of a target document may cover a line of a source document, by quantity. */
export function defineDocumentCoverage(definition: DocumentCoverageDefinition): DocumentCoverage {
  const { source, target, messages } = definition;
  const lineSourceKey = keyOf(target.lines, target.lineSource, 'target.lineSource');
  keyOf(target.lines, target.lineQuantity, 'target.lineQuantity');
  keyOf(source.lines, source.lineQuantity, 'source.lineQuantity');
  const releases = [...target.releases];
  const live = releases.length ? notInArray(target.table.status, releases) : sql`true`;
  // the subqueries name their own tables by aliases: the outer query may hold the same tables
  const tl = (column: AnyPgColumn) => named(column, 'cov_tl');
  const th = (column: AnyPgColumn) => named(column, 'cov_t');
  const liveIn = releases.length
    ? sql`${th(target.table.status)} NOT IN (${sql.join(
        releases.map((r) => sql`${r}`),
        sql`, `,
      )})`
    : sql`true`;
  const fromTargets = sql`${target.lines} cov_tl JOIN ${target.table} cov_t ON ${th(target.table.id)} = ${tl(target.lineDocument)}`;
  const actions = {
    covered: definition.audit?.covered ?? 'atender',
    released: definition.audit?.released ?? 'liberar',
    cause: definition.audit?.cause ?? 'causa',
  };
  const hasUpdatedAt = Object.hasOwn(getTableColumns(source.table), 'updatedAt');

  const covered = (lineId: SQL | AnyPgColumn) =>
    sql`(SELECT coalesce(sum(${tl(target.lineQuantity)}), 0) FROM ${fromTargets} WHERE ${tl(target.lineSource)} = ${named(lineId)} AND ${liveIn})`;

  const itemSource: DocumentItemSource = {
    column: target.lineSource,
    table: source.lines,
    id: source.lineId,
    entidadeId: source.lineEntidadeId,
    quantity: source.lineQuantity,
    counts: live,
    message: messages.over,
    missing: messages.unavailable.line,
    exhausted: { code: messages.unavailable.code, message: messages.exhausted },
  };

  const documentsOfLines = async (tx: Tx, lineIds: readonly string[]) => {
    const ids = [...new Set(lineIds.filter((id) => UUID.test(id)))];
    if (ids.length === 0) return [];
    const rows = (await tx.selectDistinct({ id: source.lineDocument }).from(source.lines).where(inArray(source.lineId, ids))) as { id: string }[];
    return rows.map((r) => String(r.id));
  };

  const sourcesOf = async (tx: Tx, targetId: string) => {
    const rows = (await tx
      .selectDistinct({ id: source.lineDocument })
      .from(target.lines)
      .innerJoin(source.lines, eq(source.lineId, target.lineSource))
      .where(eq(target.lineDocument, targetId))) as { id: string }[];
    return rows.map((r) => String(r.id));
  };

  const check = async (tx: Tx, lines: readonly Row[], write: CrudWriteContext, field: string) => {
    const linked = lines
      .map((line, i) => ({ line, i, id: line[lineSourceKey] }))
      .filter((l): l is { line: Row; i: number; id: string } => typeof l.id === 'string' && l.id !== '');
    const before = ((write.current?.[field] as Row[] | undefined) ?? []).map((l) => l[lineSourceKey]).filter((id): id is string => typeof id === 'string');
    const all = [...new Set([...linked.map((l) => l.id), ...before])];
    if (all.length === 0) return undefined;
    if (linked.some((l) => !UUID.test(l.id))) throw notFound();
    const matchColumns = Object.fromEntries(Object.entries(definition.match ?? {}).map(([key, m]) => [key, m.column]));
    const found = (await tx
      .select({ id: source.lineId, document: source.lineDocument, ...matchColumns })
      .from(source.lines)
      .where(
        and(
          inArray(
            source.lineId,
            all.filter((id) => UUID.test(id)),
          ),
          eq(source.lineEntidadeId, write.entidadeId),
        ),
      )) as Row[];
    const byId = new Map(found.map((r) => [String(r.id), r]));
    // an id that is not a line of the entidade: 404, as for a read (existence never confirmed)
    if (linked.some((l) => !byId.has(l.id))) throw notFound();
    // the source documents locked (ascending id) before their state is read: a source transition and
    // this conversion serialise; outside the scope a 404, unless the target already covered that document
    const documents = await lockSources(tx, {
      table: source.table,
      ids: found.map((r) => String(r.document)),
      entidadeId: write.entidadeId,
      scope: source.scope?.(write.ctx),
      keep: before.map((id) => (byId.has(id) ? String(byId.get(id)!.document) : undefined)),
    });
    const kept = new Set(before);
    const fields: Record<string, string> = {};
    const unavailable: Record<string, string> = {};
    for (const { line, i, id } of linked) {
      const sourceLine = byId.get(id)!;
      const mismatch = Object.entries(definition.match ?? {}).find(([key]) => String(line[key] ?? '') !== String(sourceLine[key] ?? ''));
      if (mismatch) fields[`${field}.${i}.${mismatch[0]}`] = mismatch[1].message;
      else if (!kept.has(id) && !source.eligible.includes(String(documents.get(String(sourceLine.document))?.status))) {
        unavailable[`${field}.${i}.${lineSourceKey}`] = messages.unavailable.line;
      }
    }
    if (Object.keys(fields).length) return fields;
    if (Object.keys(unavailable).length) throw new AppError(409, messages.unavailable.code, messages.unavailable.message, unavailable);
    return undefined;
  };

  const order: Record<string, number> = source.status ? { [source.status.open]: 0, [source.status.partial]: 1, [source.status.full]: 2 } : {};
  const feedback = async (tx: Tx, sourceIds: readonly string[], audit: AuditFn, cause: string) => {
    const states = source.status;
    const ids = [...new Set(sourceIds)].filter((id) => UUID.test(id)).sort();
    if (!states || ids.length === 0) return;
    // locked in id order (a conversion takes them in the same order): no deadlock between the two
    const current = (await tx
      .select({ id: source.table.id, status: source.table.status })
      .from(source.table)
      .where(inArray(source.table.id, ids))
      .orderBy(asc(source.table.id))
      .for('update')) as { id: string; status: string }[];
    const coverage = (await tx
      .select({
        id: source.lineDocument,
        full: sql<boolean>`bool_and(${covered(source.lineId)} >= ${source.lineQuantity})`,
        some: sql<boolean>`bool_or(${covered(source.lineId)} > 0)`,
      })
      .from(source.lines)
      .where(inArray(source.lineDocument, ids))
      .groupBy(source.lineDocument)) as { id: string; full: boolean; some: boolean }[];
    const byId = new Map(coverage.map((c) => [String(c.id), c]));
    for (const row of current) {
      const c = byId.get(String(row.id));
      if (!c || !(row.status in order)) continue;
      const next = c.full ? states.full : c.some ? states.partial : states.open;
      if (next === row.status) continue;
      await tx
        .update(source.table)
        .set({ status: next, version: sql`${source.table.version} + 1`, ...(hasUpdatedAt ? { updatedAt: sql`now()` } : {}) } as never)
        .where(eq(source.table.id, row.id));
      audit({
        registro: String(row.id),
        acao: (order[next] ?? 0) > (order[row.status] ?? 0) ? actions.covered : actions.released,
        antes: { status: row.status },
        depois: { status: next, [actions.cause]: cause },
      });
    }
  };

  const guardSource = async (tx: Tx, sourceId: string, transition: string) => {
    if (!source.refuseWhileCovered?.includes(transition)) return;
    const [hit] = await tx
      .select({ id: source.lineId })
      .from(source.lines)
      .where(and(eq(source.lineDocument, sourceId), sql`${covered(source.lineId)} > 0`))
      .limit(1);
    if (hit) throw new AppError(409, 'em_uso', messages.inUse ?? 'Há itens deste documento atendidos por outros documentos: cancele-os antes.');
  };

  const picker = (router: PluginRouter, options: DocumentCoveragePicker) => {
    const keys = {
      quantity: options.keys?.quantity ?? 'quantidade',
      covered: options.keys?.covered ?? 'atendido',
      remaining: options.keys?.remaining ?? 'pendente',
    };
    const filters = options.filters ?? {};
    const query = z.object({
      ...Object.fromEntries(Object.keys(filters).map((name) => [name, z.uuid().optional()])),
      ...(options.search ? { q: z.string().max(200).optional() } : {}),
    });
    router.route({
      method: 'get',
      path: options.path,
      tag: options.tag,
      summary: options.summary,
      ...(options.description ? { description: options.description } : {}),
      request: { query },
      responses: { 200: z.object({ items: z.array(options.schema) }) },
      handler: async (c, ctx) => {
        const q = c.req.valid('query') as Record<string, string | undefined>;
        const done = covered(source.lineId);
        let select = ctx.db
          .select({
            id: source.lineId,
            ...options.fields,
            [keys.quantity]: sql<string>`${source.lineQuantity}::text`,
            [keys.covered]: sql<string>`${done}::numeric(15,4)::text`,
            [keys.remaining]: sql<string>`(${source.lineQuantity} - ${done})::numeric(15,4)::text`,
          })
          .from(source.lines)
          .innerJoin(source.table, eq(source.table.id, source.lineDocument))
          .$dynamic();
        for (const join of options.joins ?? []) select = select.leftJoin(join.table, join.on);
        const rows = await select
          .where(
            and(
              eq(source.table.entidadeId, ctx.entidadeId),
              inArray(source.table.status, [...source.eligible]),
              source.scope?.(ctx),
              ...Object.entries(filters).map(([name, column]) => (q[name] ? eq(column, q[name]) : undefined)),
              options.search ? searchCondition([{ expr: options.search, normalized: true }], q.q) : undefined,
              sql`${source.lineQuantity} > ${done}`,
            ),
          )
          .orderBy(source.table.ano, source.table.numero, ...(source.lineOrder ? [source.lineOrder] : []))
          .limit(options.limit ?? 1000);
        return c.json({ items: rows }, 200);
      },
    });
  };

  return {
    definition,
    lineSourceKey,
    covered,
    remaining: (lineId) => sql`greatest(${named(source.lineQuantity)} - ${covered(lineId)}, 0)`,
    coveringDocuments: (lineId) => sql`(
      SELECT coalesce(json_agg(json_build_object('id', ${th(target.table.id)}, 'numero', ${th(target.table.numero)}, 'ano', ${th(target.table.ano)},
                                                 'status', ${th(target.table.status)}, 'quantidade', ${tl(target.lineQuantity)}::text)
                               ORDER BY ${th(target.table.ano)}, ${th(target.table.numero)}), '[]'::json)
        FROM ${fromTargets} WHERE ${tl(target.lineSource)} = ${named(lineId)})`,
    itemSource,
    picker,
    check,
    sourcesOf,
    documentsOfLines,
    feedback,
    guardSource,
  };
}
