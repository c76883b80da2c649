// Links between documents: a document made from one source document (one → one: the pré-requisição of
// a memorando, the cotação of a requisição) or from many (many → one: the plan that consolidates
// accepted demands), declared once on the TARGET document (`links` of defineDocumentResource). The kit
// gives, whatever the route:
//  * the picker of the sources still available to the person (GET <picker.path>: entidade, the source's
//    row scope, an eligible state, `disponiveis=true`: not used by a live target);
//  * the create-from operation (POST <createFrom.path>): sources locked FOR UPDATE in ascending id
//    order (lockSources), their state and use checked under the lock, lines copied (one → one) or
//    consolidated (many → one: grouped by a key, quantities and values summed exactly), created through
//    the document's own create path, audited on the target and on every source;
//  * the same checks on the plain POST/PUT whose body names a source id (the field of the link): every
//    id must be in the person's scope (404), in an eligible state (400), not used by another live
//    target (409 naming it); so a plain create and a create-from over one source serialise on its lock;
//  * release when the target reaches a released state (its cancel: the source is available again),
//    audited on the source;
//  * refusal of a source transition to a cancelled state while a live target uses it (409 `em_uso`,
//    'Usado na Pré-requisição 3/2026');
//  * the authors of the sources become 'fonte' authors of the target (segregation).
// Storage: a one → one link may keep the source id in a column of the target's header (`column`, with
// the plugin's partial unique index "one live target per source"); otherwise (many → one) the kit
// keeps one row per source in documento_vinculos (migration 0014), whose partial unique index is the
// same rule. Line-level coverage (quantities of source lines taken by target lines) is a separate
// mechanism that can sit beside a link: it locks the same source rows in the same order.
import { type Flow, formatNumero, toUnits, fromUnits } from '@app/documents';
import { z } from '@hono/zod-openapi';
import { type SQL, and, asc, desc, eq, getTableColumns, getTableName, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import { type AnyPgColumn, type PgTable, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../../platform/context.js';
import type { Tx } from '../../platform/db/types.js';
import { AppError, notFound } from '../../platform/errors.js';
import { auditOf } from '../../platform/mutation.js';
import type { PluginRouter } from '../../platform/router.js';
import { type CrudResource, type CrudWriteContext, searchCondition } from '../crud.js';
import { type SourceTable, lockSources } from './sources.js';

type Row = Record<string, unknown>;

/** documento_vinculos (migration 0014): the sources of a many → one target, one row each. */
export const documentoVinculos = pgTable('documento_vinculos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  destinoTipo: text('destino_tipo').notNull(),
  destinoId: uuid('destino_id').notNull(),
  fonteTipo: text('fonte_tipo').notNull(),
  fonteId: uuid('fonte_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  liberadoEm: timestamp('liberado_em', { withTimezone: true }),
});

/**
 * A live link of a many → one target of `kind` (not released), into `target` and/or from `source`
 * (an id, a column or SQL): the one definition of "linked now", as a condition on documento_vinculos
 * (not aliased), for the kit and for a target's own readers (its lines, its totals, which target a source
 * is in): `FROM documento_vinculos JOIN … ON … AND ${liveLink('pca/planos', { target: id })}`.
 */
export function liveLink(kind: string, ends: { target?: string | SQL | AnyPgColumn; source?: string | SQL | AnyPgColumn } = {}): SQL {
  return and(
    eq(documentoVinculos.destinoTipo, kind),
    isNull(documentoVinculos.liberadoEm),
    ends.target === undefined ? undefined : eq(documentoVinculos.destinoId, ends.target),
    ends.source === undefined ? undefined : eq(documentoVinculos.fonteId, ends.source),
  )!;
}

/** A source document's table: `id`, `entidadeId`, `status`, `numero`, `ano`. */
export type LinkSourceTable = SourceTable & { status: AnyPgColumn; numero: AnyPgColumn; ano: AnyPgColumn };

/**
 * What a target needs to know of a source document of another plugin (read only: no plugin writes
 * another's tables). The source plugin may export it, or the target builds it from the exported tables.
 */
export interface DocumentSource {
  /** The source's kind, as its defineDocumentResource numbers it: 'memorandos/memorandos' (its plugin is the part before '/'). */
  kind: string;
  table: LinkSourceTable;
  /** 'Memorando' (messages, audit), feminine noun or not. */
  label: { documento: string; feminino?: boolean };
  /** The person's row scope over the sources (404 outside it; the picker lists only these). */
  scope?: (ctx: RequestContext) => SQL | undefined;
  /** Normalized search column of the source (the picker's `q`, besides 'n/aaaa'). */
  busca?: AnyPgColumn;
  /** The source's lines, read in `orderColumn` order with `columns` (key → column) for the copy. */
  items?: { table: PgTable; documentColumn: AnyPgColumn; orderColumn?: AnyPgColumn; columns: Record<string, AnyPgColumn | SQL> };
}

/** What `createFrom.build` gets. */
export interface CreateFromArgs {
  tx: Tx;
  ctx: RequestContext;
  /** The body of the create-from route. */
  input: Row;
  /** The sources, locked, in (ano, numero) order. */
  sources: Row[];
  /** The lines for the target: copied (one → one) or consolidated (many → one). */
  lines: Row[];
}

export interface DocumentLinkDefinition {
  source: DocumentSource;
  /** 'one': one source per target (the field holds an id); 'many': many per target (the field holds an array of ids). */
  cardinality: 'one' | 'many';
  /** Body field naming the source(s): 'memorandoId', 'demandaIds'. */
  field: string;
  /** one → one only: the target's header column that stores the source id (else documento_vinculos). */
  column?: AnyPgColumn;
  /** Source states that may give a target ('aceito'). */
  states: readonly string[];
  /** Target states in which a target no longer uses its sources (default: the states its flow's cancel transitions reach). */
  releasedBy?: readonly string[];
  /** Source transitions refused while a live target uses it (default: those that reach a state a cancel transition of its flow reaches). */
  refuse?: readonly string[];
  /** one → one: a source line → a target line (default: as read with `source.items.columns`). */
  copy?: (line: Row, source: Row) => Row;
  /**
   * many → one: lines with the same `key` become one; the fields of `sum` (field → decimal places)
   * are summed exactly, the others come from the first line of the group (lines in source order).
   */
  consolidate?: { key: (line: Row) => string; sum: Record<string, number> };
  /** GET <path>: the sources the person may use; `columns` (key → column or SQL) besides id, numero, ano, `usedAs`. */
  picker?: {
    path: string;
    summary: string;
    description?: string;
    columns: Record<string, AnyPgColumn | SQL>;
    joins?: { table: PgTable; on: SQL }[];
    /** Key of the live target in each row ({ id, numero, ano } or null): 'preRequisicao'. */
    usedAs: string;
    /** Item schema (OpenAPI); default a loose object. */
    schema?: z.ZodObject;
    /** Also GET <path>/:id (one eligible source of the person's scope, 404 otherwise). */
    one?: boolean;
  };
  /** POST <path>: a new target from the sources named in `body` (its `field`). */
  createFrom?: {
    path: string;
    summary: string;
    description?: string;
    /** The route's body: must contain `field`. */
    body: z.ZodObject;
    /** The target's body (the kit sets `field`), parsed by the document's schema, then created as by its POST. */
    build: (args: CreateFromArgs) => Row | Promise<Row>;
  };
  messages?: {
    /** 409 code when a source is used by a live target (default 'fonte_em_uso'). */
    code?: string;
    /** The 409 message naming the live target ('12/2026'). */
    used?: (target: { numero: number; ano: number; numeroTexto: string }) => string;
    /** The 400 message at the field when a source is not in an eligible state. */
    notEligible?: string;
  };
}

/** The target document, as defineDocumentResource knows it. */
export interface LinkTarget {
  where: string;
  kind: string;
  table: SourceTable & { status: AnyPgColumn; numero: AnyPgColumn; ano: AnyPgColumn };
  flow: Flow<string, string, string>;
  label: { documento: string; feminino?: boolean };
  schema: z.ZodObject;
}

/** What the document kit calls (define.ts). */
export interface DocumentLinks {
  /** Inside the save's checks: locks and checks every source the body names (404 / 400 / 409). */
  validate(tx: Tx, data: Row, write: CrudWriteContext): Promise<void>;
  /** After the header is saved: keeps documento_vinculos in step, audits links made and undone on the sources. */
  afterSave(tx: Tx, id: string, data: Row, write: CrudWriteContext): Promise<void>;
  /** The sources of a target (live links), for its 'fonte' authors. */
  sourceIds(tx: Tx, id: string): Promise<string[]>;
  /** After a transition of the target to `to`: releases its sources in a released state. */
  afterTransition(tx: Tx, id: string, before: Row, to: string, ctx: RequestContext): Promise<void>;
  /** GET picker routes (before the CRUD's `/:id`). */
  registerPickers(): void;
  /** POST create-from routes (after the CRUD). */
  registerCreateFrom(ops: CrudResource): void;
}

const lowerFirst = (text: string) => (/^.[\p{Ll}\s]/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);
const numeroDe = (row: Row) => formatNumero(Number(row.numero), Number(row.ano));

/** The states the cancel transitions of a flow reach ('cancelada'). */
function cancelStates(flow: Flow<string, string, string>): Set<string> {
  return new Set(flow.cancelTransitions().map((name) => flow.transitions[name]!.to));
}

// ---- source side: who uses a source (registered by the targets, read by the source's transitions)

interface SourceGuard {
  targetPlugin: string;
  refuse: readonly string[] | undefined;
  live(tx: Tx, entidadeId: string, sourceId: string): Promise<Row | undefined>;
  target: { documento: string; feminino?: boolean };
}
// Keyed by source kind, then by target kind + field (a server built again in the same process replaces
// its entries); each guard reads only through the transaction it is given.
const guards = new Map<string, Map<string, SourceGuard>>();

/**
 * Called by a source document's transition (define.ts), with its row locked: 409 `em_uso` when the
 * transition would cancel it (or is declared in a link's `refuse`) while a live target uses it.
 */
export async function refuseSourceInUse(
  tx: Tx,
  source: { kind: string; id: string; transition: string; to: string; flow: Flow<string, string, string>; feminino: boolean },
  ctx: RequestContext,
): Promise<void> {
  const byTarget = guards.get(source.kind);
  if (!byTarget) return;
  const cancelled = cancelStates(source.flow);
  for (const guard of byTarget.values()) {
    if (!ctx.plugins.some((p) => p.id === guard.targetPlugin)) continue;
    const refused = guard.refuse ? guard.refuse.includes(source.transition) : cancelled.has(source.to);
    if (!refused) continue;
    const live = await guard.live(tx, ctx.entidadeId, source.id);
    if (live) {
      const message = `${source.feminino ? 'Usada' : 'Usado'} ${guard.target.feminino ? 'na' : 'no'} ${guard.target.documento} ${numeroDe(live)}.`;
      throw new AppError(409, 'em_uso', message);
    }
  }
}

// ---- target side

/** Builds the links of a target document (one per declaration). */
export function createDocumentLinks(router: PluginRouter, target: LinkTarget, definitions: readonly DocumentLinkDefinition[], tag: number): DocumentLinks {
  const { table } = target;
  const targetPlugin = router.pluginId;
  const released = (link: DocumentLinkDefinition) => [...(link.releasedBy ?? cancelStates(target.flow))];
  for (const link of definitions) {
    if (link.cardinality === 'many' && link.column)
      throw new Error(`${target.where}: a many → one link keeps its sources in documento_vinculos, not in a column.`);
    if (link.cardinality === 'many' && link.copy)
      throw new Error(`${target.where}: a many → one link consolidates its lines (consolidate), it does not copy them.`);
    if (released(link).length === 0) throw new Error(`${target.where}: the link from ${link.source.kind} needs releasedBy (no cancel state in the flow).`);
  }
  const columnKey = (link: DocumentLinkDefinition) =>
    link.column ? Object.entries(getTableColumns(table as PgTable) as Record<string, AnyPgColumn>).find(([, c]) => c === link.column)?.[0] : undefined;
  for (const link of definitions) if (link.column && !columnKey(link)) throw new Error(`${target.where}: link.column is not a column of the header.`);

  const idsOf = (link: DocumentLinkDefinition, value: unknown): string[] => {
    const list = link.cardinality === 'one' ? [value] : Array.isArray(value) ? value : [];
    return [...new Set(list.filter((v): v is string => typeof v === 'string' && v !== ''))];
  };

  /** Live targets using any of `sourceIds` (besides `except`): [{ id, numero, ano, fonteId }], oldest first. */
  const liveTargets = async (tx: Tx, link: DocumentLinkDefinition, entidadeId: string, sourceIds: string[], except?: string): Promise<Row[]> => {
    if (sourceIds.length === 0) return [];
    const liberados = released(link);
    if (link.column) {
      return (await tx
        .select({ id: table.id, numero: table.numero, ano: table.ano, fonteId: link.column })
        .from(table as PgTable)
        .where(
          and(
            eq(table.entidadeId, entidadeId),
            inArray(link.column, sourceIds),
            notInArray(table.status, liberados),
            except ? ne(table.id, except) : undefined,
          ),
        )
        .orderBy(asc(table.ano), asc(table.numero))) as Row[];
    }
    return (await tx
      .select({ id: table.id, numero: table.numero, ano: table.ano, fonteId: documentoVinculos.fonteId })
      .from(documentoVinculos)
      .innerJoin(table as PgTable, eq(table.id, documentoVinculos.destinoId))
      .where(
        and(
          eq(documentoVinculos.entidadeId, entidadeId),
          liveLink(target.kind),
          inArray(documentoVinculos.fonteId, sourceIds),
          except ? ne(documentoVinculos.destinoId, except) : undefined,
        ),
      )
      .orderBy(asc(table.ano), asc(table.numero))) as Row[];
  };

  /** The sources a target is linked to now (live). */
  const linkedIds = async (tx: Tx, link: DocumentLinkDefinition, id: string, current?: Row): Promise<string[]> => {
    if (link.column) {
      const key = columnKey(link)!;
      if (current) return idsOf(link, current[key]);
      const [row] = (await tx
        .select({ fonte: link.column })
        .from(table as PgTable)
        .where(eq(table.id, id))) as { fonte: unknown }[];
      return idsOf(link, row?.fonte);
    }
    const rows = await tx
      .select({ id: documentoVinculos.fonteId })
      .from(documentoVinculos)
      .where(liveLink(target.kind, { target: id }));
    return rows.map((r) => r.id);
  };

  const usedMessage = (link: DocumentLinkDefinition, live: Row) => {
    const numeroTexto = numeroDe(live);
    if (link.messages?.used) return link.messages.used({ numero: Number(live.numero), ano: Number(live.ano), numeroTexto });
    const s = link.source.label;
    return `${s.feminino ? 'Esta' : 'Este'} ${lowerFirst(s.documento)} já está ${target.label.feminino ? 'na' : 'no'} ${lowerFirst(target.label.documento)} ${numeroTexto}: cancele-${target.label.feminino ? 'a' : 'o'} para usá-${s.feminino ? 'la' : 'lo'} de novo.`;
  };

  /**
   * The checks of every route: the sources locked (ascending id), 404 outside the entidade or the
   * person's scope (unless already linked to `current`), 400 not eligible (idem), 409 used by another
   * live target. Returns the locked sources in (ano, numero) order.
   */
  const checkSources = async (
    tx: Tx,
    link: DocumentLinkDefinition,
    ids: string[],
    ctx: RequestContext,
    current?: { id: string; row?: Row },
  ): Promise<Row[]> => {
    if (ids.length === 0) return [];
    const kept = new Set(current ? await linkedIds(tx, link, current.id, current.row) : []);
    const locked = await lockSources(tx, {
      table: link.source.table,
      ids,
      entidadeId: ctx.entidadeId,
      scope: link.source.scope?.(ctx),
      keep: kept,
    });
    const notEligible = ids.find((id) => !kept.has(id) && !link.states.includes(String(locked.get(id)?.status)));
    if (notEligible) {
      const s = link.source.label;
      const message =
        link.messages?.notEligible ??
        `Escolha ${s.feminino ? 'uma' : 'um'} ${lowerFirst(s.documento)} ${link.states.map((state) => state.replace(/_/g, ' ')).join(' ou ')}.`;
      throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { [link.field]: message });
    }
    const [live] = await liveTargets(tx, link, ctx.entidadeId, ids, current?.id);
    if (live) {
      const message = usedMessage(link, live);
      throw new AppError(409, link.messages?.code ?? 'fonte_em_uso', message, { [link.field]: message });
    }
    return [...locked.values()].sort((a, b) => Number(a.ano) - Number(b.ano) || Number(a.numero) - Number(b.numero));
  };

  const sourcePlugin = (link: DocumentLinkDefinition) => link.source.kind.split('/')[0]!;
  const auditSources = (tx: Tx, link: DocumentLinkDefinition, ids: string[], acao: string, descricao: string) => {
    const audit = auditOf(tx);
    for (const fonte of ids) audit({ plugin: sourcePlugin(link), registro: fonte, acao, depois: { documento: descricao } });
  };
  const descricaoDe = async (tx: Tx, id: string) => {
    const [row] = (await tx
      .select({ numero: table.numero, ano: table.ano })
      .from(table as PgTable)
      .where(eq(table.id, id))) as Row[];
    return `${target.label.documento} ${numeroDe(row!)}`;
  };

  // the source's transitions ask who uses it
  for (const link of definitions) {
    const byTarget = guards.get(link.source.kind) ?? new Map<string, SourceGuard>();
    guards.set(link.source.kind, byTarget);
    byTarget.set(`${target.kind}|${link.field}`, {
      targetPlugin,
      refuse: link.refuse,
      target: target.label,
      live: async (tx, entidadeId, sourceId) => (await liveTargets(tx, link, entidadeId, [sourceId]))[0],
    });
  }

  const readLines = async (tx: Tx, link: DocumentLinkDefinition, sources: Row[]): Promise<Row[]> => {
    const items = link.source.items;
    if (!items || sources.length === 0) return [];
    const order = new Map(sources.map((s, i) => [String(s.id), i]));
    const rows = (await tx
      .select({ ...items.columns, __fonte: items.documentColumn })
      .from(items.table)
      .where(
        inArray(
          items.documentColumn,
          sources.map((s) => String(s.id)),
        ),
      )
      .orderBy(...(items.orderColumn ? [asc(items.orderColumn)] : []))) as Row[];
    rows.sort((a, b) => order.get(String(a.__fonte))! - order.get(String(b.__fonte))!);
    const byId = new Map(sources.map((s) => [String(s.id), s]));
    if (link.cardinality === 'one') {
      return rows.map(({ __fonte, ...line }) => (link.copy ? link.copy(line, byId.get(String(__fonte))!) : line));
    }
    return consolidateLines(
      rows.map(({ __fonte: _f, ...line }) => line),
      link.consolidate,
    );
  };

  return {
    async validate(tx, data, write) {
      for (const link of definitions) {
        if (!Object.hasOwn(data, link.field)) continue;
        const ids = idsOf(link, data[link.field]);
        await checkSources(tx, link, ids, write.ctx, write.current ? { id: String(write.current.id), row: write.current } : undefined);
      }
    },

    async afterSave(tx, id, data, write) {
      for (const link of definitions) {
        if (!Object.hasOwn(data, link.field)) continue;
        const before = write.current ? await linkedIds(tx, link, id, link.column ? write.current : undefined) : [];
        const now = idsOf(link, data[link.field]);
        // sets: a plan consolidates 10 000 DFDs (includes() on arrays would be 10⁸ comparisons)
        const antes = new Set(before);
        const depois = new Set(now);
        const added = now.filter((s) => !antes.has(s));
        const removed = before.filter((s) => !depois.has(s));
        if (!link.column) {
          if (removed.length) {
            await tx.delete(documentoVinculos).where(and(liveLink(target.kind, { target: id }), inArray(documentoVinculos.fonteId, removed)));
          }
          if (added.length) {
            // one parameter for all of them (a plan links 10 000 DFDs: 50 000 bound values otherwise)
            await tx.execute(sql`
              INSERT INTO documento_vinculos (entidade_id, destino_tipo, destino_id, fonte_tipo, fonte_id)
              SELECT ${write.entidadeId}::uuid, ${target.kind}, ${id}::uuid, ${link.source.kind}, f::uuid
                FROM jsonb_array_elements_text(${JSON.stringify(added)}::jsonb) AS f`);
          }
        }
        if (added.length || removed.length) {
          const descricao = await descricaoDe(tx, id);
          auditSources(tx, link, added, 'vincular', descricao);
          auditSources(tx, link, removed, 'desvincular', descricao);
        }
      }
    },

    async sourceIds(tx, id) {
      const out: string[] = [];
      for (const link of definitions) out.push(...(await linkedIds(tx, link, id)));
      return out;
    },

    async afterTransition(tx, id, before, to, _ctx) {
      for (const link of definitions) {
        const liberados = released(link);
        if (!liberados.includes(to) || liberados.includes(String(before.status))) continue;
        let fontes: string[];
        if (link.column) fontes = idsOf(link, before[columnKey(link)!]);
        else {
          const rows = await tx
            .update(documentoVinculos)
            .set({ liberadoEm: sql`now()` })
            .where(liveLink(target.kind, { target: id }))
            .returning({ fonteId: documentoVinculos.fonteId });
          fontes = rows.map((r) => r.fonteId);
        }
        if (fontes.length) auditSources(tx, link, fontes, 'liberar', `${target.label.documento} ${numeroDe(before)}`);
      }
    },

    registerPickers() {
      for (const link of definitions) {
        const picker = link.picker;
        if (!picker) continue;
        const s = link.source.table;
        const liberados = sql.join(
          released(link).map((state) => sql`${state}`),
          sql`, `,
        );
        // the source's id qualified (drizzle leaves a single table's columns bare, ambiguous inside the subquery)
        const sourceId = sql`${sql.identifier(getTableName(s as PgTable))}.${sql.identifier(s.id.name)}`;
        const live: SQL = link.column
          ? sql`(SELECT json_build_object('id', t.id, 'numero', t.numero, 'ano', t.ano) FROM ${table} t
                  WHERE t.${sql.identifier(link.column.name)} = ${sourceId} AND t.status NOT IN (${liberados}) ORDER BY t.ano, t.numero LIMIT 1)`
          : sql`(SELECT json_build_object('id', t.id, 'numero', t.numero, 'ano', t.ano) FROM documento_vinculos JOIN ${table} t ON t.id = documento_vinculos.destino_id
                  WHERE ${liveLink(target.kind, { source: sourceId })} ORDER BY t.ano, t.numero LIMIT 1)`;
        const fields = { id: s.id, numero: s.numero, ano: s.ano, ...picker.columns, [picker.usedAs]: live };
        const select = (ctx: RequestContext, extra: SQL | undefined, counting = false) => {
          let query = ctx.db
            .select(counting ? { n: sql<number>`count(*)::int` } : fields)
            .from(s as PgTable)
            .$dynamic();
          for (const j of picker.joins ?? []) query = query.innerJoin(j.table, j.on);
          return query.where(and(eq(s.entidadeId, ctx.entidadeId), inArray(s.status, [...link.states]), link.source.scope?.(ctx), extra));
        };
        const present = (row: Row) => ({ ...row, [picker.usedAs]: row[picker.usedAs] ?? null });
        const itemSchema = picker.schema ?? z.object({ id: z.string(), numero: z.number().int(), ano: z.number().int() }).loose();
        router.route({
          method: 'get',
          path: picker.path,
          tag,
          summary: picker.summary,
          description:
            picker.description ??
            `${link.source.label.documento} em ${link.states.join(', ')} no escopo da pessoa, por número ('12/2026') ou texto, mais recentes primeiro, com o documento (não cancelado) que já veio de cada um. \`disponiveis=true\`: só os que ainda não o têm.`,
          request: {
            query: z.object({
              q: z.string().trim().max(200).optional(),
              page: z.coerce.number().int().min(1).default(1),
              pageSize: z.coerce.number().int().min(1).max(50).default(20),
              disponiveis: z.enum(['true', 'false']).optional(),
            }),
          },
          responses: { 200: z.object({ items: z.array(itemSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }) },
          handler: async (c, ctx) => {
            const q = c.req.valid('query') as { q?: string; page: number; pageSize: number; disponiveis?: string };
            const numero = /^(\d{1,9})\/(\d{4})$/.exec(q.q ?? '');
            const where = and(
              numero
                ? and(eq(s.numero, Number(numero[1])), eq(s.ano, Number(numero[2])))
                : link.source.busca
                  ? searchCondition([{ expr: link.source.busca, normalized: true }], q.q)
                  : undefined,
              q.disponiveis === 'true' ? sql`NOT EXISTS ${live}` : undefined,
            );
            const [counted] = (await select(ctx, where, true)) as { n: number }[];
            const rows = (await select(ctx, where)
              .orderBy(desc(s.ano), desc(s.numero), asc(s.id))
              .limit(q.pageSize)
              .offset((q.page - 1) * q.pageSize)) as Row[];
            return c.json({ items: rows.map(present), total: Number(counted?.n ?? 0), page: q.page, pageSize: q.pageSize }, 200);
          },
        });
        if (picker.one) {
          router.route({
            method: 'get',
            path: `${picker.path}/:id`,
            tag,
            summary: `${picker.summary}: um`,
            request: { params: z.object({ id: z.uuid({ error: 'Identificador inválido.' }) }) },
            responses: { 200: itemSchema, 404: { description: 'Não encontrado, em outro estado ou fora do escopo da pessoa' } },
            handler: async (c, ctx) => {
              const [row] = (await select(ctx, eq(s.id, (c.req.valid('param') as { id: string }).id)).limit(1)) as Row[];
              if (!row) throw notFound();
              return c.json(present(row), 200);
            },
          });
        }
      }
    },

    registerCreateFrom(ops) {
      for (const link of definitions) {
        const from = link.createFrom;
        if (!from) continue;
        router.route({
          method: 'post',
          path: from.path,
          tag,
          summary: from.summary,
          description:
            (from.description ? `${from.description} ` : '') +
            'As fontes são travadas em ordem fixa e conferidas (escopo, situação, uso) pelo mesmo caminho do POST do documento.',
          request: { body: from.body },
          responses: {
            201: ops.itemSchema,
            400: { description: 'Fonte em situação que não permite' },
            404: { description: 'Fonte de outro escopo ou de outra entidade' },
            409: { description: 'Fonte já usada por um documento não cancelado' },
          },
          handler: async (c, ctx) => {
            const input = c.req.valid('json') as Row;
            const row = await ctx.mutate(async (tx, audit) => {
              const ids = idsOf(link, input[link.field]);
              if (ids.length === 0) {
                throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', {
                  [link.field]: `Escolha ${link.source.label.feminino ? 'a' : 'o'} ${lowerFirst(link.source.label.documento)}.`,
                });
              }
              // the same path as the document's POST: locked, 404 outside the scope, 400 not eligible, 409 used
              const sources = await checkSources(tx, link, ids, ctx);
              const lines = await readLines(tx, link, sources);
              const body = { ...(await from.build({ tx, ctx, input, sources, lines })), [link.field]: input[link.field] };
              const parsed = target.schema.safeParse(body);
              if (!parsed.success) {
                const fields: Record<string, string> = {};
                for (const issue of parsed.error.issues) {
                  const key = issue.path.length ? issue.path.map(String).join('.') : '_';
                  if (!Object.hasOwn(fields, key)) fields[key] = issue.message;
                }
                throw new AppError(400, 'validation_error', 'Os dados da fonte não formam um documento válido.', fields);
              }
              const created = await ops.createRecord(tx, parsed.data, { entidadeId: ctx.entidadeId, ctx });
              audit({
                registro: String(created.id),
                acao: 'criar',
                depois: { ...ops.auditable(created), fontes: sources.map((source) => `${link.source.label.documento} ${numeroDe(source)}`) },
              });
              return created;
            });
            return c.json((await ops.present([row], ctx))[0], 201);
          },
        });
      }
    },
  };
}

/**
 * Lines of many sources made one per key: the `sum` fields added exactly (decimal strings, `places`
 * decimals each), the other fields from the first line of the group; groups in order of first sight.
 */
export function consolidateLines(lines: readonly Row[], options: { key: (line: Row) => string; sum: Record<string, number> } | undefined): Row[] {
  if (!options) return lines.map((line) => ({ ...line }));
  const groups = new Map<string, { first: Row; sums: Map<string, bigint> }>();
  for (const line of lines) {
    const key = options.key(line);
    let group = groups.get(key);
    if (!group) {
      group = { first: line, sums: new Map() };
      groups.set(key, group);
    }
    for (const [field, places] of Object.entries(options.sum)) {
      const value = line[field];
      const units = value === null || value === undefined || value === '' ? 0n : toUnits(String(value), places);
      group.sums.set(field, (group.sums.get(field) ?? 0n) + units);
    }
  }
  return [...groups.values()].map(({ first, sums }) => {
    const out: Row = { ...first };
    for (const [field, places] of Object.entries(options.sum)) out[field] = fromUnits(sums.get(field) ?? 0n, places);
    return out;
  });
}
