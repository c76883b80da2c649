// defineDocumentChildren: records that belong to a document (a cotação's invitations, winners,
// prices…) declared with their table, body schema and the parent's states in which they may change.
// The kit gives the routes under `<parent>/:id/<path>` and runs every write the same way:
//   token + tag (router) → an integer key and the integer ids of the body checked (400 before any
//   query: 'abc', '1.5' or a value beyond the column's type never reach the database) → the parent
//   locked FOR UPDATE in the person's entidade and row scope (404 outside it) → the parent's state
//   checked (409 `locked`, "Esta cotação está concluída e não pode ser alterada.") → the child's key
//   checked and its row locked (404 when it is not this parent's) → `check` (refusals under the
//   locks) → the optimistic `version` (409 `stale`) → every id of the body in `references` checked
//   against the entidade (and the same parent) → `validate` (400 with fields) → `beforeWrite` → the
//   write (the kit's INSERT/UPDATE/DELETE, or the operation's `run`) → the version bumped → the audit
//   row under the PARENT (its timeline shows it) → `afterWrite` → the child read back as `read`
//   answers it. All in the transaction of ctx.mutate.
// The parent lock serialises every child write of one document with the others and with the
// document's own transitions and edits (which lock the same row).
// defineDocumentAction: the same path for an action on the document itself that is not a transition
// of its flow (e.g. PUT /cotacoes/:id/justificativa).
import { z } from '@hono/zod-openapi';
import { type SQL, and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditEntry } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import type { DbOrTx, Tx } from '../../platform/db/types.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { auditOf } from '../../platform/mutation.js';
import { type PluginRouter, type RouteResponse, kitOperationId } from '../../platform/router.js';
import { STALE_MESSAGE } from '../crud.js';
import type { DocumentResource } from './define.js';

type Row = Record<string, unknown>;
type Method = 'post' | 'put' | 'patch' | 'delete';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The child table: its rows carry the entidade (`entidadeId`) and the parent's id (`parentColumn`). */
export type DocumentChildTable = PgTable & { entidadeId: AnyPgColumn };

/** An id in the body that must name a row of the entidade (and, with `parent`, of the same document). */
export interface DocumentChildReference {
  table: PgTable;
  /** Column the id is matched against (default: the table's `id`). */
  column?: AnyPgColumn;
  /** The entidade column of that table (default: its `entidadeId`). */
  entidade?: AnyPgColumn;
  /** The row must belong to the same parent document, e.g. an evidence of the same cotação. */
  parent?: AnyPgColumn;
  /** pt-BR message for the field (400 'Verifique os campos destacados.'). */
  message: string;
}

/** What every hook of an operation gets. */
export interface DocumentChildContext<B = Row> {
  ctx: RequestContext;
  parentId: string;
  /** The parent's row (table columns), locked FOR UPDATE. */
  parent: Row;
  /** The child's key (the path parameter); on create, set once the row is inserted. */
  key: string | undefined;
  /** The child as `read` answers it, before the write (undefined on create, or a missing key of an upsert). */
  child: Row | undefined;
  /** The child's table row, locked FOR UPDATE (undefined as `child`). */
  locked: Row | undefined;
  /** The validated body. */
  body: B;
  /** The child as `read` answers it after the write (in `audit` and `afterWrite`). */
  after?: Row | undefined;
  /** Records an audit row under the parent (its timeline), in the same transaction. */
  audit(entry: Omit<AuditEntry, 'registro'>): void;
}

/** The audit row of an operation (under the parent); every function gets the context after the write. */
export interface DocumentChildAudit<B = Row> {
  /** Default: 'incluir_<singular>', 'alterar_<singular>', 'excluir_<singular>', or the action's name. */
  acao?: string;
  /** Default: the child before (without `version`). */
  antes?: (c: DocumentChildContext<B>) => unknown;
  /** Default: the child after (without `version`). */
  depois?: (c: DocumentChildContext<B>) => unknown;
}

export interface DocumentChildOperation<B = Row> {
  summary?: string;
  description?: string;
  /** Tag of the route (default: the collection's, i.e. the parent's). */
  tag?: number;
  /** States of the parent in which this operation is allowed (default: the collection's `states`). */
  states?: readonly string[];
  /** A message of its own for a state not allowed (undefined: the kit's "… não pode ser alterada."). */
  stateMessage?: (status: string) => string | undefined;
  /** More documented answers, e.g. `{ 409: 'Já convidado' }`. */
  responses?: Record<number, string>;
  /** Refusals under both locks, before the version and the body (throw AppError: 409 in use…). */
  check?: (tx: Tx, c: DocumentChildContext<B>) => Promise<void>;
  /** Checks of the body after `references`: field → pt-BR message (400), or throw AppError. */
  validate?: (tx: Tx, c: DocumentChildContext<B>) => Promise<Record<string, string> | undefined>;
  beforeWrite?: (tx: Tx, c: DocumentChildContext<B>) => Promise<void>;
  /** After the write and its audit row (e.g. e-mails through sendMail). */
  afterWrite?: (tx: Tx, c: DocumentChildContext<B>) => Promise<void>;
  /**
   * The audit row under the parent (default: acao and the child before/after, see DocumentChildAudit).
   * A `run` that records its own rows through `c.audit` replaces it; false: none (a run that audits
   * only when it changed something).
   */
  audit?: DocumentChildAudit<B> | false;
}

export interface DocumentChildCreate<B = Row> extends DocumentChildOperation<B> {
  /** Body → column values (default: the body's fields that are columns of the table). */
  toRow?: (body: B, c: DocumentChildContext<B>) => Row;
  /** A unique conflict on INSERT (e.g. the same supplier twice) → 409 `duplicate` with this message. */
  duplicate?: { message: string; field?: string };
  /** Replaces the kit's INSERT: returns the new child's key. */
  run?: (tx: Tx, c: DocumentChildContext<B>) => Promise<string>;
}

export interface DocumentChildUpdate<B = Row> extends DocumentChildOperation<B> {
  /** 'put' (default: the whole body) or 'patch' (the fields sent). */
  method?: 'put' | 'patch';
  /** A missing key is created (PUT <children>/:key as create-or-replace, e.g. the winner of an item). */
  upsert?: boolean;
  toRow?: (body: B, c: DocumentChildContext<B>) => Row;
  /** Replaces the kit's UPDATE (or INSERT of an upsert). */
  run?: (tx: Tx, c: DocumentChildContext<B>) => Promise<void>;
}

export interface DocumentChildDelete extends DocumentChildOperation<Row> {
  /** A key with no child answers 204 without writing (after `check`), instead of 404. */
  missingOk?: boolean;
  /** Replaces the kit's DELETE. */
  run?: (tx: Tx, c: DocumentChildContext<Row>) => Promise<void>;
}

/** An action on one child: POST (or PUT) <children>/:key/<name>. */
export interface DocumentChildAction<S extends z.ZodType | undefined = z.ZodType | undefined> extends DocumentChildOperation<BodyOf<S>> {
  /** Body (none when absent). With the collection's `version` column, `version` is accepted and checked when sent. */
  schema?: S;
  method?: 'post' | 'put';
  /** The action's work; a value returned is the answer (200), otherwise the child read back. */
  run: (tx: Tx, c: DocumentChildContext<BodyOf<S>>) => Promise<unknown>;
}

type BodyOf<S> = S extends z.ZodType ? z.output<S> : Row;

export interface DocumentChildrenDefinition<S extends z.ZodType = z.ZodType, U extends z.ZodType = S> {
  /** Path under `<parent>/:id/`, e.g. 'fornecedores' → /cotacoes/:id/fornecedores. */
  path: string;
  /** Name of the child's path parameter (default 'childId'), e.g. 'conviteId'. */
  param?: string;
  table: DocumentChildTable;
  /** The column holding the parent's id. */
  parentColumn: AnyPgColumn;
  /** The child's key inside the parent (default: the table's `id`), e.g. a product id for one row per item. */
  key?: AnyPgColumn;
  /** Optimistic version column: PUT/PATCH need `version` (400 without, 409 `stale`); every write bumps it. */
  version?: AnyPgColumn;
  label: { singular: string; plural: string };
  /** Tag of the routes (default: the parent's). */
  tag?: number;
  /** States of the parent in which the children may change (each operation may narrow it). */
  states: readonly string[];
  /** A message of its own for a state not allowed (undefined: the kit's). */
  stateMessage?: (status: string) => string | undefined;
  /** One child as answered (OpenAPI). */
  response: z.ZodType;
  /**
   * The children of a parent as the API answers them (or the one with `key`), in order. Default: the
   * `select` (all columns without it) with `joins`, ordered by `orderBy` (default the key).
   */
  read?: (db: DbOrTx, parentId: string, key: string | undefined, ctx: RequestContext) => Promise<Row[]>;
  select?: Record<string, AnyPgColumn | SQL>;
  joins?: { table: PgTable; on: SQL }[];
  orderBy?: (AnyPgColumn | SQL)[];
  /** Ids in the body checked against the entidade (and the parent): field (or 'list.*.field') → reference. */
  references?: Record<string, DocumentChildReference>;
  /** Body of POST (and of PUT/PATCH without `updateSchema`). */
  schema?: S;
  updateSchema?: U;
  /** GET <parent>/:id/<path> → `{ items }` (the parent read in the person's scope). */
  list?: boolean | { summary?: string; description?: string };
  /** GET <parent>/:id/<path>/:key. */
  get?: boolean | { summary?: string; description?: string };
  create?: DocumentChildCreate<z.output<S>>;
  update?: DocumentChildUpdate<z.output<U>>;
  delete?: DocumentChildDelete;
}

/** What defineDocumentChildren returns. */
export interface DocumentChildren {
  readonly paths: { list: string; item: string; actions: Record<string, string> };
  /** The children of a parent (or one) as the routes answer them; no scope check: read the parent first. */
  read(db: DbOrTx, parentId: string, key: string | undefined, ctx: RequestContext): Promise<Row[]>;
  /**
   * Runs an operation ('create', 'update', 'delete' or an action's name) as its route does (locks,
   * state, version, references, hooks, audit), inside a transaction opened by ctx.mutate; `body` must
   * be validated already. Answers the child read back (or what an action's run returned).
   */
  perform(tx: Tx, ctx: RequestContext, operation: string, parentId: string, key: string | undefined, body: unknown): Promise<unknown>;
}

/** 'Cotação' → 'cotação'; 'PCA' stays. */
const lowerFirst = (text: string) => (/^.[\p{Ll}\s]/u.test(text) || text.length === 1 ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** 'nao-respondeu' → 'nao_respondeu'; 'preço' → 'preco'. */
const auditName = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** The ids under `field` ('x' or 'list.*.x') of a body, with their paths. */
function idsAt(body: unknown, field: string): { path: string; value: unknown }[] {
  if (typeof body !== 'object' || body === null) return [];
  const record = body as Row;
  const star = field.indexOf('.*.');
  if (star < 0) return Object.hasOwn(record, field) ? [{ path: field, value: record[field] }] : [];
  const list = record[field.slice(0, star)];
  const inner = field.slice(star + 3);
  if (!Array.isArray(list)) return [];
  return list.flatMap((element, i) =>
    typeof element === 'object' && element !== null && Object.hasOwn(element, inner)
      ? [{ path: `${field.slice(0, star)}.${i}.${inner}`, value: (element as Row)[inner] }]
      : [],
  );
}

const isUuidColumn = (column: AnyPgColumn) => (column as { columnType?: string }).columnType === 'PgUUID';

type IntegerRange = readonly [bigint, bigint];
const INT2: IntegerRange = [-32_768n, 32_767n];
const INT4: IntegerRange = [-2_147_483_648n, 2_147_483_647n];
const INT8_NUMBER: IntegerRange = [BigInt(Number.MIN_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER)];
const INT8: IntegerRange = [-(2n ** 63n), 2n ** 63n - 1n];
/** The values each integer column type holds (drizzle's bigint in 'number' mode: the safe integers). */
const INTEGER_RANGES: Readonly<Record<string, IntegerRange>> = {
  PgSmallInt: INT2,
  PgSmallSerial: INT2,
  PgInteger: INT4,
  PgSerial: INT4,
  PgBigInt53: INT8_NUMBER,
  PgBigSerial53: INT8_NUMBER,
  PgBigInt64: INT8,
  PgBigSerial64: INT8,
};
/** The range of an integer column, undefined for any other type. */
const integerRange = (column: AnyPgColumn): IntegerRange | undefined => INTEGER_RANGES[(column as { columnType?: string }).columnType ?? ''];

/** 400 for an integer key (path) or id (body) that is not one, or not one its column holds. */
const INTEGER_MESSAGE = 'Informe um número inteiro válido.';
const INTEGER_TEXT = /^-?\d{1,20}$/;

/**
 * `value` (a number, or its decimal digits as text) as canonical text ('007' → '7') when it is an
 * integer `range` holds; undefined otherwise ('abc', '1.5', '1e3', ' 4', a value beyond the column's
 * type): checked before any query, so the database never sees it.
 */
function canonicalInteger(value: unknown, range: IntegerRange): string | undefined {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : typeof value === 'string' ? value : '';
  if (!INTEGER_TEXT.test(text)) return undefined;
  const n = BigInt(text);
  return n >= range[0] && n <= range[1] ? n.toString() : undefined;
}

/** The path parameter of an integer key: its digits, in the column's range (400 INTEGER_MESSAGE otherwise). */
const integerKeySchema = (range: IntegerRange) =>
  z
    .string()
    .regex(INTEGER_TEXT, INTEGER_MESSAGE)
    .refine((value) => canonicalInteger(value, range) !== undefined, INTEGER_MESSAGE);

/** `schema` accepting an optional `version` (kept when it already has one). */
function withVersion(schema: z.ZodType, where: string, required: boolean): z.ZodType {
  if (!(schema instanceof z.ZodObject)) {
    if (required) throw new Error(`${where}: with a version column, the update body must be a z.object (or declare \`version\` in it).`);
    return schema;
  }
  if (Object.hasOwn(schema.shape, 'version')) return schema;
  const extra = { version: z.number().int().optional() };
  try {
    return schema.extend(extra);
  } catch {
    const safe = (schema as unknown as { safeExtend?: (shape: object) => z.ZodType }).safeExtend;
    if (safe) return safe.call(schema, extra);
    if (required) throw new Error(`${where}: declare \`version: z.number().int().optional()\` in the update body (a refined schema cannot be extended).`);
    return schema;
  }
}

/** The parent document as the kit's children see it. */
interface ParentOf {
  doc: DocumentResource;
  where: string;
  /** 404 unless the parent is the person's to see; its row locked and its state checked. */
  lock(tx: Tx, ctx: RequestContext, id: string, states: readonly string[], message?: (status: string) => string | undefined): Promise<Row>;
  /** 404 unless the parent is the person's to read (no lock). */
  readable(db: DbOrTx, ctx: RequestContext, id: string): Promise<void>;
}

function parentOf(router: PluginRouter, doc: DocumentResource, what: string): ParentOf {
  const { flow, label } = doc;
  const parentPath = doc.crud.definition.path;
  const where = `${what}(${router.pluginId}${parentPath})`;
  const feminino = label.feminino === true;
  const lockedMessage = (status: string) =>
    `${feminino ? 'Esta' : 'Este'} ${lowerFirst(label.documento)} está ${lowerFirst(flow.stateLabel(status))} e não pode ser ${feminino ? 'alterada' : 'alterado'}.`;
  return {
    doc,
    where,
    lock: async (tx, ctx, id, states, message) => {
      const row = await doc.crud.lock(tx, id, ctx);
      const status = String(row.status);
      if (!states.includes(status)) throw new AppError(409, 'locked', message?.(status) ?? lockedMessage(status));
      return row;
    },
    readable: async (db, ctx, id) => {
      if (!UUID.test(id)) throw notFound();
      const table = doc.crud.table;
      const [found] = await db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(doc.crud.byId(id, ctx))
        .limit(1);
      if (!found) throw notFound();
    },
  };
}

function checkStates(where: string, flowStates: readonly string[], states: readonly string[] | undefined, what: string): void {
  for (const state of states ?? []) if (!flowStates.includes(state)) throw new Error(`${where}: ${what} names '${state}', not a state of the flow.`);
}

const responsesOf = (base: Record<number, RouteResponse>, extra: Record<number, string> | undefined): Record<number, RouteResponse> => {
  const out: Record<number, RouteResponse> = { ...base };
  for (const [status, description] of Object.entries(extra ?? {})) out[Number(status)] = { description };
  return out;
};

/**
 * Declares a collection of children of `parent` (a document of defineDocumentResource). Routes, each
 * with the collection's tag (or the operation's), all 404 outside the person's entidade and scope:
 *
 * - `GET    <parent>/:id/<path>` (`list`) → `{ items }` · `GET <parent>/:id/<path>/:key` (`get`)
 * - `POST   <parent>/:id/<path>` (`create`) → 201 the child
 * - `PUT|PATCH <parent>/:id/<path>/:key` (`update`) → the child (409 `stale` on an old `version`)
 * - `DELETE <parent>/:id/<path>/:key` (`delete`) → 204
 * - `POST|PUT <parent>/:id/<path>/:key/<action>` (`actions`) → the child (or what the action answers)
 *
 * Writes follow the order in the module comment; 409 `locked` when the parent's state does not allow
 * the operation. OpenAPI operationIds: `<plugin>.<parent><Path>.<list|get|create|update|delete|action>`.
 */
export function defineDocumentChildren<
  S extends z.ZodType = z.ZodType,
  U extends z.ZodType = S,
  A extends Record<string, z.ZodType | undefined> = Record<string, z.ZodType | undefined>,
>(
  router: PluginRouter,
  parent: DocumentResource,
  definition: DocumentChildrenDefinition<S, U> & { actions?: { [K in keyof A]: DocumentChildAction<A[K]> } },
): DocumentChildren {
  const def = definition;
  const p = parentOf(router, parent, 'defineDocumentChildren');
  const parentPath = parent.crud.definition.path;
  const where = `${p.where.replace(/\)$/, '')}/:id/${def.path})`;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(def.path)) throw new Error(`${where}: path must be one segment of lowercase letters, digits and hyphens.`);
  const tag = def.tag ?? parent.crud.definition.tag;
  const param = def.param ?? 'childId';
  const table = def.table;
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  const keyColumn = def.key ?? columns.id;
  if (!keyColumn) throw new Error(`${where}: the table has no 'id' column: declare \`key\`.`);
  const nameOf = (column: AnyPgColumn | undefined, what: string) => {
    const found = Object.entries(columns).find(([, c]) => c === column)?.[0];
    if (!found) throw new Error(`${where}: ${what} is not a column of the table.`);
    return found;
  };
  const parentKey = nameOf(def.parentColumn, 'parentColumn');
  const keyName = nameOf(keyColumn, 'key');
  const versionKey = def.version ? nameOf(def.version, 'version') : undefined;
  if (!columns.entidadeId) throw new Error(`${where}: the table needs an 'entidadeId' column.`);
  const flowStates = parent.flow.stateNames as readonly string[];
  checkStates(where, flowStates, def.states, 'states');
  for (const [name, op] of Object.entries({ create: def.create, update: def.update, delete: def.delete, ...(def.actions ?? {}) })) {
    checkStates(where, flowStates, (op as DocumentChildOperation | undefined)?.states, `${name}.states`);
  }
  const actions = (def.actions ?? {}) as Record<string, DocumentChildAction>;
  for (const name of Object.keys(actions)) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`${where}: action '${name}' must be lowercase letters, digits and hyphens.`);
  }
  for (const [field, ref] of Object.entries(def.references ?? {})) {
    const refColumns = getTableColumns(ref.table) as Record<string, AnyPgColumn>;
    if (!(ref.column ?? refColumns.id) || !(ref.entidade ?? refColumns.entidadeId)) {
      throw new Error(`${where}: reference '${field}' needs \`column\` and \`entidade\` (its table has no id/entidadeId).`);
    }
  }
  const keyRange = integerRange(keyColumn);
  const validKey = (key: string | undefined): key is string =>
    typeof key === 'string' && key !== '' && (!isUuidColumn(keyColumn) || UUID.test(key)) && (!keyRange || canonicalInteger(key, keyRange) !== undefined);
  /** The references whose column is an integer, with its range: their ids are checked before any query. */
  const integerReferences = Object.entries(def.references ?? {}).flatMap(([field, ref]) => {
    const range = integerRange((ref.column ?? (getTableColumns(ref.table) as Record<string, AnyPgColumn>).id)!);
    return range ? [{ field, range }] : [];
  });
  /** 400 up front: an integer key or an integer id of the body that is not one its column holds. */
  const checkIntegers = (kind: string, key: string | undefined, body: unknown): string | undefined => {
    const fields: Record<string, string> = {};
    let canonical = key;
    if (keyRange && kind !== 'create') {
      canonical = canonicalInteger(key, keyRange);
      if (canonical === undefined) fields[param] = INTEGER_MESSAGE;
    }
    if (kind !== 'delete') {
      for (const { field, range } of integerReferences) {
        for (const found of idsAt(body, field)) {
          if (found.value === null || found.value === undefined || found.value === '') continue;
          if (canonicalInteger(found.value, range) === undefined) fields[found.path] = INTEGER_MESSAGE;
        }
      }
    }
    if (Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);
    return canonical;
  };
  const singular = auditName(def.label.singular);
  const resource = `${parentPath}/${def.path}`;
  const listPath = `${parentPath}/:id/${def.path}`;
  const itemPath = `${listPath}/:${param}`;
  const systemKeys = new Set(['id', 'entidadeId', parentKey, keyName, 'version', 'createdAt', 'updatedAt']);

  const read = async (db: DbOrTx, parentId: string, key: string | undefined, ctx: RequestContext): Promise<Row[]> => {
    if (def.read) return def.read(db, parentId, key, ctx);
    let query = db
      .select((def.select ?? columns) as never)
      .from(table as PgTable)
      .$dynamic();
    for (const join of def.joins ?? []) query = query.leftJoin(join.table, join.on);
    return (await query
      .where(and(eq(def.parentColumn, parentId), eq(table.entidadeId, ctx.entidadeId), key === undefined ? undefined : eq(keyColumn, key)))
      .orderBy(...(def.orderBy ?? [asc(keyColumn)]))) as Row[];
  };
  const readOne = async (db: DbOrTx, parentId: string, key: string, ctx: RequestContext) => (await read(db, parentId, key, ctx))[0];
  const childWhere = (parentId: string, key: string, ctx: RequestContext) =>
    and(eq(keyColumn, key), eq(def.parentColumn, parentId), eq(table.entidadeId, ctx.entidadeId));
  const valuesOf = (body: unknown): Row => {
    const out: Row = {};
    for (const [k, v] of Object.entries((body ?? {}) as Row)) if (Object.hasOwn(columns, k) && !systemKeys.has(k)) out[k] = v;
    return out;
  };
  const plain = (row: Row | undefined): Row | undefined => {
    if (!row) return row;
    const { version: _v, ...rest } = row;
    return rest;
  };

  const checkReferences = async (tx: Tx, ctx: RequestContext, parentId: string, body: unknown) => {
    const fields: Record<string, string> = {};
    for (const [field, ref] of Object.entries(def.references ?? {})) {
      const found = idsAt(body, field).filter((f) => f.value !== null && f.value !== undefined && f.value !== '');
      if (found.length === 0) continue;
      const refColumns = getTableColumns(ref.table) as Record<string, AnyPgColumn>;
      // both checked when declared
      const column = (ref.column ?? refColumns.id)!;
      const entidade = (ref.entidade ?? refColumns.entidadeId)!;
      // an integer id may come as a number or as its digits (checked up front by checkIntegers)
      const range = integerRange(column);
      const normal = (v: unknown): string | undefined =>
        range ? canonicalInteger(v, range) : typeof v === 'string' && (!isUuidColumn(column) || UUID.test(v)) ? v : undefined;
      const ok = (v: unknown) => normal(v) !== undefined;
      const ids = [...new Set(found.map((f) => normal(f.value)).filter((v) => v !== undefined))];
      const rows = ids.length
        ? ((await tx
            .select({ value: column })
            .from(ref.table)
            .where(and(inArray(column, ids), eq(entidade, ctx.entidadeId), ref.parent ? eq(ref.parent, parentId) : undefined))) as { value: unknown }[])
        : [];
      const present = new Set(rows.map((r) => String(r.value)));
      for (const f of found) if (!Object.hasOwn(fields, f.path) && !(ok(f.value) && present.has(normal(f.value)!))) fields[f.path] = ref.message;
    }
    if (Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);
  };

  type Kind = 'create' | 'update' | 'delete' | 'action';
  interface Spec {
    kind: Kind;
    name: string;
    op: DocumentChildOperation<never> & {
      run?: (tx: Tx, c: DocumentChildContext<never>) => Promise<unknown>;
      toRow?: (body: never, c: DocumentChildContext<never>) => Row;
    };
  }
  const specs = new Map<string, Spec>();
  if (def.create) specs.set('create', { kind: 'create', name: 'create', op: def.create as Spec['op'] });
  if (def.update) specs.set('update', { kind: 'update', name: 'update', op: def.update as Spec['op'] });
  if (def.delete) specs.set('delete', { kind: 'delete', name: 'delete', op: def.delete as Spec['op'] });
  for (const [name, action] of Object.entries(actions)) {
    if (specs.has(name)) throw new Error(`${where}: an action cannot be named '${name}'.`);
    specs.set(name, { kind: 'action', name, op: action as Spec['op'] });
  }

  const perform = async (tx: Tx, ctx: RequestContext, operation: string, parentId: string, keyInput: string | undefined, input: unknown) => {
    const spec = specs.get(operation);
    if (!spec) throw new Error(`${where}: no operation '${operation}'.`);
    const { kind, op } = spec;
    const body = (input ?? {}) as Row;
    const key = checkIntegers(kind, keyInput, body);
    const update = kind === 'update' ? (op as DocumentChildUpdate) : undefined;
    if (versionKey && update && !update.upsert && body.version === undefined) {
      throw badRequest('Verifique os campos destacados.', { version: 'Informe a versão do registro.' });
    }
    const parentRow = await p.lock(tx, ctx, parentId, op.states ?? def.states, op.stateMessage ?? def.stateMessage);
    let locked: Row | undefined;
    let child: Row | undefined;
    if (kind !== 'create') {
      if (!validKey(key)) throw notFound();
      [locked] = (await tx
        .select()
        .from(table as PgTable)
        .where(childWhere(parentId, key, ctx))
        .for('update')) as Row[];
      const optional = update?.upsert || (kind === 'delete' && (op as DocumentChildDelete).missingOk);
      if (!locked && !optional) throw notFound();
      if (locked) child = await readOne(tx, parentId, key, ctx);
    }
    const c: DocumentChildContext<never> = {
      ctx,
      parentId,
      parent: parentRow,
      key,
      child,
      locked,
      body: body as never,
      audit: (entry) => {
        audited++;
        auditOf(tx)({ ...entry, registro: parentId });
      },
    };
    let audited = 0;
    await op.check?.(tx, c);
    if (versionKey && locked && kind !== 'delete') {
      if (kind === 'update' && body.version === undefined) throw badRequest('Verifique os campos destacados.', { version: 'Informe a versão do registro.' });
      if (body.version !== undefined && body.version !== locked[versionKey]) throw new AppError(409, 'stale', STALE_MESSAGE);
    }
    if (kind !== 'delete') await checkReferences(tx, ctx, parentId, body);
    const fields = await op.validate?.(tx, c);
    if (fields && Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);
    await op.beforeWrite?.(tx, c);

    let answer: unknown;
    const hasRun = typeof op.run === 'function';
    if (kind === 'create') {
      if (op.run) c.key = String(await op.run(tx, c));
      else {
        const values = { ...(op.toRow ? op.toRow(body as never, c) : valuesOf(body)), entidadeId: ctx.entidadeId, [parentKey]: parentId };
        const duplicate = (op as DocumentChildCreate).duplicate;
        const insert = tx.insert(table as PgTable).values(values as never);
        const [row] = (await (duplicate ? insert.onConflictDoNothing() : insert).returning({ key: keyColumn })) as { key: unknown }[];
        if (!row) throw new AppError(409, 'duplicate', duplicate!.message, duplicate!.field ? { [duplicate!.field]: duplicate!.message } : undefined);
        c.key = String(row.key);
      }
    } else if (kind === 'update') {
      if (op.run) await op.run(tx, c);
      else {
        const values = op.toRow ? op.toRow(body as never, c) : valuesOf(body);
        if (locked) {
          const set: Row = { ...values };
          if (versionKey) set[versionKey] = sql`${def.version} + 1`;
          if (columns.updatedAt) set.updatedAt = sql`now()`;
          if (Object.keys(set).length) {
            await tx
              .update(table as PgTable)
              .set(set as never)
              .where(childWhere(parentId, key!, ctx));
          }
        } else {
          await tx.insert(table as PgTable).values({ ...values, entidadeId: ctx.entidadeId, [parentKey]: parentId, [keyName]: key } as never);
        }
      }
    } else if (kind === 'delete') {
      if (op.run) await op.run(tx, c);
      else if (locked) await tx.delete(table as PgTable).where(childWhere(parentId, key!, ctx));
    } else {
      answer = await op.run!(tx, c);
    }
    // every write of an existing child through the kit moves its version (the kit's UPDATE already did)
    if (versionKey && locked && (kind === 'action' || (kind === 'update' && hasRun))) {
      await tx
        .update(table as PgTable)
        .set({ [versionKey]: sql`${def.version} + 1` } as never)
        .where(childWhere(parentId, key!, ctx));
    }
    c.after = c.key !== undefined && kind !== 'delete' ? await readOne(tx, parentId, c.key, ctx) : undefined;
    const audit = op.audit;
    const wrote = kind !== 'delete' || locked !== undefined;
    // the kit's row unless turned off, or a run recorded its own
    if (audit !== false && (audit !== undefined || audited === 0) && wrote) {
      const verb = { create: 'incluir', update: 'alterar', delete: 'excluir', action: '' }[kind];
      const acao = audit?.acao ?? (kind === 'action' ? auditName(spec.name) : `${verb}_${singular}`);
      const antes = audit?.antes ? audit.antes(c) : kind === 'create' ? undefined : plain(child);
      const depois = audit?.depois ? audit.depois(c) : kind === 'delete' ? undefined : plain(c.after);
      c.audit({ acao, ...(antes !== undefined ? { antes } : {}), ...(depois !== undefined ? { depois } : {}) });
    }
    await op.afterWrite?.(tx, c);
    return answer !== undefined ? answer : c.after;
  };

  const params = z.object({ id: z.string() });
  const childParams = z.object({ id: z.string(), [param]: keyRange ? integerKeySchema(keyRange) : z.string() });
  const listSchema = z.object({ items: z.array(def.response) });
  const keyOf = (c: { req: { param: (name: string) => string | undefined } }) => c.req.param(param);
  const parentLabel = parent.label;
  const doParent = `${parentLabel.feminino ? 'da' : 'do'} ${parent.crud.definition.label.singular}`;
  const statesText = (op: DocumentChildOperation<never> | undefined) =>
    `Só com ${parentLabel.feminino ? 'a' : 'o'} ${parent.crud.definition.label.singular} em: ${(op?.states ?? def.states).map((s) => parent.flow.stateLabel(s)).join(', ')} (409 \`locked\` fora deles).`;
  const answer = (c: { json: (v: unknown, s: number) => Response; body: (v: null, s: number) => Response }, value: unknown, status: number) =>
    value === undefined ? c.body(null, 204) : c.json(value, status);

  if (def.list) {
    const o = def.list === true ? {} : def.list;
    router.route({
      method: 'get',
      path: listPath,
      tag,
      operationId: kitOperationId(router.pluginId, resource, 'list'),
      summary: o.summary ?? `${def.label.plural} ${doParent}`,
      ...(o.description ? { description: o.description } : {}),
      request: { params },
      responses: { 200: listSchema, 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        await p.readable(ctx.db, ctx, id);
        return c.json({ items: await read(ctx.db, id, undefined, ctx) }, 200);
      },
    });
  }
  if (def.get) {
    const o = def.get === true ? {} : def.get;
    router.route({
      method: 'get',
      path: itemPath,
      tag,
      operationId: kitOperationId(router.pluginId, resource, 'get'),
      summary: o.summary ?? `Um ${def.label.singular} ${doParent}`,
      ...(o.description ? { description: o.description } : {}),
      request: { params: childParams },
      responses: { 200: def.response, 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param') as { id: string };
        const key = keyOf(c);
        await p.readable(ctx.db, ctx, id);
        const row = validKey(key) ? await readOne(ctx.db, id, key, ctx) : undefined;
        if (!row) throw notFound();
        return c.json(row, 200);
      },
    });
  }

  const withBody = (schema: z.ZodType | undefined, required: boolean) => (schema && versionKey ? withVersion(schema, where, required) : schema);
  const routeOf = (spec: Spec, method: Method, path: string, body: z.ZodType | undefined, success: number) => {
    const op = spec.op;
    const description = [op.description, statesText(op)].filter(Boolean).join(' ');
    const base: Record<number, RouteResponse> = {
      ...(success === 204 ? { 204: { description: 'Feito' } } : { [success]: def.response }),
      404: { description: 'Não encontrado' },
      409: {
        description:
          versionKey && spec.kind === 'update' ? 'Versão desatualizada (stale) ou estado que não permite (locked)' : 'Estado que não permite (locked)',
      },
    };
    router.route({
      method,
      path,
      tag: op.tag ?? tag,
      operationId: kitOperationId(router.pluginId, resource, spec.name),
      summary: op.summary ?? `${{ create: 'Incluir', update: 'Alterar', delete: 'Excluir', action: spec.name }[spec.kind]} ${def.label.singular}`,
      description,
      request: { params: spec.kind === 'create' ? params : childParams, ...(body ? { body } : {}) },
      responses: responsesOf(base, op.responses),
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        const key = spec.kind === 'create' ? undefined : keyOf(c);
        const input = body ? (c.req.valid('json' as never) as unknown) : undefined;
        const out = await ctx.mutate((tx) => perform(tx, ctx, spec.name, id, key, input));
        return success === 204 ? c.body(null, 204) : answer(c, out, success);
      },
    });
  };
  if (def.create) {
    if (!def.schema) throw new Error(`${where}: create needs \`schema\`.`);
    routeOf(specs.get('create')!, 'post', listPath, def.schema, 201);
  }
  if (def.update) {
    const schema = def.updateSchema ?? def.schema;
    if (!schema) throw new Error(`${where}: update needs \`schema\` or \`updateSchema\`.`);
    const method = def.update.method ?? 'put';
    const partial = method === 'patch' && schema instanceof z.ZodObject ? schema.partial() : schema;
    routeOf(specs.get('update')!, method, itemPath, withBody(partial, !def.update.upsert), 200);
  }
  if (def.delete) routeOf(specs.get('delete')!, 'delete', itemPath, undefined, 204);
  const actionPaths: Record<string, string> = {};
  for (const [name, action] of Object.entries(actions)) {
    actionPaths[name] = `${itemPath}/${name}`;
    routeOf(specs.get(name)!, action.method ?? 'post', actionPaths[name], withBody(action.schema, false), 200);
  }

  return {
    paths: { list: listPath, item: itemPath, actions: actionPaths },
    read,
    perform,
  };
}

/** An action on the document itself that is not a transition of its flow: see defineDocumentAction. */
export interface DocumentActionDefinition<S extends z.ZodType | undefined = undefined> {
  /** Path under `<parent>/:id/`, e.g. 'justificativa' or 'justificativa/aprovar'. */
  path: string;
  method?: 'post' | 'put' | 'patch';
  /** Default: the parent's. */
  tag?: number;
  schema?: S;
  /** States of the parent in which the action is allowed. */
  states: readonly string[];
  stateMessage?: (status: string) => string | undefined;
  summary: string;
  description?: string;
  /** The answer (OpenAPI). */
  response?: z.ZodType;
  responses?: Record<number, string>;
  /** The work, with the parent locked; its value is the answer (200). Audit through `c.audit` (under the parent). */
  run: (tx: Tx, c: Omit<DocumentChildContext<BodyOf<S>>, 'key' | 'child' | 'locked' | 'after'>) => Promise<unknown>;
}

/**
 * `POST|PUT|PATCH <parent>/:id/<path>`: an action on the document (its own columns, not a child),
 * with the parent locked in the person's scope (404) and its state checked (409 `locked`), run in
 * ctx.mutate; the action audits under the parent with `c.audit`. operationId
 * `<plugin>.<parent>.<path in camelCase>`.
 */
export function defineDocumentAction<S extends z.ZodType | undefined = undefined>(
  router: PluginRouter,
  parent: DocumentResource,
  definition: DocumentActionDefinition<S>,
): { path: string } {
  const def = definition;
  const p = parentOf(router, parent, 'defineDocumentAction');
  checkStates(p.where, parent.flow.stateNames as readonly string[], def.states, 'states');
  const parentPath = parent.crud.definition.path;
  const path = `${parentPath}/:id/${def.path}`;
  router.route({
    method: def.method ?? 'post',
    path,
    tag: def.tag ?? parent.crud.definition.tag,
    operationId: kitOperationId(router.pluginId, parentPath, def.path),
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    request: { params: z.object({ id: z.string() }), ...(def.schema ? { body: def.schema } : {}) },
    responses: responsesOf(
      {
        200: def.response ?? { description: 'Feito' },
        404: { description: 'Não encontrado' },
        409: { description: 'Estado que não permite (locked)' },
      },
      def.responses,
    ),
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const body = (def.schema ? c.req.valid('json' as never) : {}) as BodyOf<S>;
      const out = await ctx.mutate(async (tx) => {
        const parentRow = await p.lock(tx, ctx, id, def.states, def.stateMessage);
        return def.run(tx, { ctx, parentId: id, parent: parentRow, body, audit: (entry) => auditOf(tx)({ ...entry, registro: id }) });
      });
      return out === undefined ? c.body(null, 204) : c.json(out, 200);
    },
  });
  return { path };
}
