// defineCrudResource: the REST routes of a registry (list with search/sort/paging/filters, read,
// create, update with optimistic concurrency, delete refused while in use, activate/deactivate,
// CSV/XLSX export) from a few declarative lines. See README.md, "Registries: defineCrudResource".
import { TIME_ZONE } from '@app/br';
import { z } from '@hono/zod-openapi';
import {
  Column,
  type SQL,
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  getTableName,
  inArray,
  is,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RequestContext } from './context.js';
import type { DbOrTx, Tx } from './db/types.js';
import { AppError, badRequest, notFound } from './errors.js';
import { dateSchema } from './input-guard.js';
import { pageOf, pageQuerySchema } from './pagination.js';
import type { PluginRouter } from './router.js';
import { type CellValue, toCsv, toXlsx } from './xlsx.js';

/** 409 `stale`: the PUT carried an old `version`. */
export const STALE_MESSAGE = 'Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.';
/** Most rows an export answers (the list's filters and sort apply). */
export const MAX_EXPORT_ROWS = 100_000;

type Row = Record<string, unknown>;

/** A table the kit can serve: uuid `id`, `entidadeId`, integer `version`, boolean `ativo`. */
export type CrudTable = PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn; version: AnyPgColumn; ativo: AnyPgColumn };

/** A column of the list and of the CSV/XLSX export (same shape as the web kit's columns). */
export interface CrudColumn {
  /** Field of the item (a table column or an `extra`). */
  key: string;
  /** pt-BR header, e.g. 'Código'. */
  header: string;
  /** Value written to the export (default: the field; booleans become Sim/Não). */
  value?: (row: Row) => CellValue;
}

export interface CrudReference {
  /** Referenced registry (same entidade is checked): a table with `id` and `entidadeId`. */
  table: PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn };
  /** pt-BR message for the field when the id is not a row of the caller's entidade. */
  message: string;
}

export interface CrudUnique {
  /** Row fields that together must be unique in the entidade. */
  fields: string[];
  /** Compare text fields with lower() ('Medicamentos' = 'medicamentos'); index (entidade_id, lower(col)). */
  ignoreCase?: boolean;
  /** pt-BR message, e.g. 'Já existe um grupo com este código.' (409 `duplicate`, also in `fields`). */
  message: string;
}

export interface CrudWriteContext {
  entidadeId: string;
  /** Id of the record being changed (undefined on create). */
  id?: string | undefined;
  ctx: RequestContext;
}

export interface CrudResourceDefinition<S extends z.ZodObject = z.ZodObject> {
  /** Path under /api/<plugin>, e.g. '/grupos' → /api/registros/grupos, /grupos/:id, /grupos.csv… */
  path: string;
  /** Permission tag of every route. */
  tag: number;
  table: CrudTable;
  /** For OpenAPI summaries: { singular: 'grupo', plural: 'grupos' }. */
  label: { singular: string; plural: string };
  /** Body of POST (and of PUT unless `updateSchema`): the zod schema shared with the web form. */
  schema: S;
  updateSchema?: z.ZodObject;
  /** Body → table values (default: the body as is). Not called with entidadeId/version/ativo. */
  toRow?: (data: z.output<S>, write: CrudWriteContext) => Row;
  /** Extra checks after zod: return field → pt-BR message to answer 400. */
  validate?: (tx: Tx, data: z.output<S>, write: CrudWriteContext) => Promise<Record<string, string> | undefined>;
  /** Runs after the row is inserted/updated, in the same transaction (e.g. link tables). */
  afterSave?: (tx: Tx, id: string, data: z.output<S>, write: CrudWriteContext) => Promise<void>;
  /**
   * Computed fields selected with every row (sortable, exportable). In a subquery name the outer table
   * in plain SQL, e.g. sql`(SELECT g.nome FROM grupos g WHERE g.id = subgrupos.grupo_id)`: drizzle
   * renders ${t.column} unqualified there.
   */
  extra?: Record<string, SQL | AnyPgColumn>;
  /**
   * LEFT JOINs for `extra` fields that are columns of another table (one row per record: join on a
   * key), e.g. `const g = alias(grupos, 'g')` → `joins: [{ table: g, on: eq(g.id, produtos.grupoId) }]`,
   * `extra: { grupoNome: g.nome }`. Sorting a long list by such a field joins once (a hash join)
   * instead of running a subquery per row, so prefer a join over a subquery for sortable lookups.
   */
  joins?: { table: PgTable; on: SQL }[];
  /** A stored, normalized search column (`compras_busca(...)`, generated, GIN gin_trgm_ops index). */
  busca?: AnyPgColumn | SQL;
  /** Columns normalized at query time (fine for small tables; no index). */
  searchColumns?: (AnyPgColumn | SQL)[];
  /** Fields `sort=` accepts (`nome` ascending, `-nome` descending): columns or `extra` keys. */
  sortable: string[];
  /** Default `sort`, e.g. 'nome' or '-createdAt' (default: the first sortable field). */
  defaultSort?: string;
  /** Equality filters from the query string: `{ grupoId: subgrupos.grupoId }` → `?grupoId=…`. */
  filters?: Record<string, AnyPgColumn>;
  /** Body fields holding ids of other registries (a value or an array), checked in the same entidade. */
  references?: Record<string, CrudReference>;
  unique?: CrudUnique[];
  /**
   * Where the record is used, as pt-BR text ('Usado em 2 sub-grupos'), or null. When null (or
   * absent) the kit still counts rows of every table with a RESTRICT/NO ACTION foreign key to it,
   * named by the table comment 'singular|plural' (COMMENT ON TABLE x IS 'sub-grupo|sub-grupos').
   */
  usedBy?: (tx: Tx, id: string, row: Row) => Promise<string | null>;
  /** Columns of the export (and of the list). */
  columns: CrudColumn[];
  /** File name of the export without extension (default: the path, e.g. 'grupos'). */
  exportName?: string;
  /** Columns never answered nor audited (default ['busca']; entidadeId is never answered). */
  hidden?: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Splits a search into at most 8 terms, LIKE wildcards escaped. */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8)
    .map((t) => t.replace(/[\\%_]/g, (m) => `\\${m}`));
}

/** `expr` contains every term (accent- and case-insensitive); `normalized` says expr is already compras_busca(...). */
export function searchCondition(expressions: { expr: AnyPgColumn | SQL; normalized: boolean }[], q: string | undefined): SQL | undefined {
  const terms = searchTerms(q);
  if (terms.length === 0 || expressions.length === 0) return undefined;
  return and(
    ...terms.map((term) =>
      or(
        ...expressions.map(({ expr, normalized }) =>
          normalized
            ? sql`${expr} LIKE '%' || compras_busca(${term}) || '%'`
            : sql`compras_busca(${expr}::text) LIKE '%' || compras_busca(${term}) || '%'`,
        ),
      ),
    ),
  );
}

function isTextColumn(column: AnyPgColumn): boolean {
  return column.dataType === 'string' && column.columnType !== 'PgUUID';
}

/** Collation of text sort keys: ICU's root locale when the server has it (PGlite does), else the default. */
export const SORT_COLLATION = 'und-x-icu';
const collationCache = new WeakMap<object, Promise<boolean>>();
/** Whether `db` has the ICU collation (asked once per database handle). */
export function hasSortCollation(db: DbOrTx): Promise<boolean> {
  let cached = collationCache.get(db);
  if (!cached) {
    cached = db
      .execute<{ ok: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = ${SORT_COLLATION}) AS ok`)
      .then(({ rows }) => rows[0]?.ok === true)
      .catch((err: unknown) => {
        // Not an answer about the collation (the database is unreachable, say): ask again next time.
        collationCache.delete(db);
        throw err;
      });
    collationCache.set(db, cached);
  }
  return cached;
}

/** Lists with at most this many matches are sorted after filtering (never by walking an index in order). */
export const FILTER_FIRST_MAX = 10_000;

const INTEGER_COLUMNS = new Set(['PgInteger', 'PgSmallInt', 'PgSerial', 'PgSmallSerial']);

function filterSchema(column: AnyPgColumn): z.ZodType {
  if (column.columnType === 'PgUUID') return z.string().regex(UUID, 'Identificador inválido.').optional();
  if (column.dataType === 'boolean') return z.enum(['true', 'false']).optional();
  // a day that does not exist (2024-02-30) or an integer out of range is a 400, not a database error
  if (column.columnType.startsWith('PgDate')) return dateSchema().optional().or(z.literal(''));
  if (INTEGER_COLUMNS.has(column.columnType)) {
    return z.coerce.number().int('Informe um número inteiro.').min(-2_147_483_648).max(2_147_483_647).optional();
  }
  if (column.dataType === 'number') return z.coerce.number().optional();
  return z.string().max(200).optional();
}

function joinPt(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} e ${parts[parts.length - 1]}`;
}

/**
 * Rows of other tables that point at `id` through a RESTRICT / NO ACTION foreign key (CASCADE and
 * SET NULL ones do not block a delete), described with each table's comment 'singular|plural':
 * 'Usado em 2 sub-grupos e 1 produto', or null.
 */
export async function describeReferences(db: DbOrTx, table: PgTable, id: string): Promise<string | null> {
  const { rows: refs } = await db.execute<{ tabela: string; coluna: string; descricao: string | null }>(sql`
    SELECT c.conrelid::regclass::text AS tabela,
           quote_ident(a.attname) AS coluna,
           obj_description(c.conrelid, 'pg_class') AS descricao
      FROM pg_constraint c
      CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, refcol)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
      JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = k.refcol
     WHERE c.contype = 'f'
       AND c.confrelid = to_regclass(quote_ident(${getTableName(table)}))
       AND c.confdeltype IN ('a', 'r')
       AND r.attname = 'id'
     ORDER BY 1, 2`);
  const parts: string[] = [];
  for (const ref of refs) {
    const { rows } = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM ${sql.raw(ref.tabela)} WHERE ${sql.raw(ref.coluna)} = ${id}`,
    );
    const n = Number(rows[0]?.n ?? 0);
    if (n === 0) continue;
    const [singular, plural] = (ref.descricao ?? '').split('|').map((s) => s.trim());
    const name = singular
      ? n === 1
        ? singular
        : (plural ?? singular)
      : `${n === 1 ? 'registro' : 'registros'} de ${ref.tabela.replace(/"/g, '')}`;
    parts.push(`${n.toLocaleString('pt-BR')} ${name}`);
  }
  return parts.length ? `Usado em ${joinPt(parts)}` : null;
}

/**
 * Declares the routes of one registry on a plugin router (all with `definition.tag`, all scoped by
 * the caller's entidade, every change in ctx.mutate with a field-level audit row):
 *
 * - `GET    <path>?q=&page=&pageSize=&sort=nome|-nome&ativo=true|false|todos&<filters>` → { items, total, page, pageSize }
 * - `GET    <path>.csv` / `<path>.xlsx` (same filters and sort, up to MAX_EXPORT_ROWS)
 * - `GET    <path>/:id` → item (another entidade's id → 404)
 * - `POST   <path>` → 201 item (409 `duplicate` with fields; 400 with fields)
 * - `PUT    <path>/:id` body + `version` → item (409 `stale` when version is old)
 * - `DELETE <path>/:id` → 204 (409 `in_use` saying where it is used)
 * - `POST   <path>/:id/desativar` | `/ativar` → item
 */
export function defineCrudResource<S extends z.ZodObject>(router: PluginRouter, definition: CrudResourceDefinition<S>): void {
  const def = definition;
  const { table, tag, path } = def;
  const where = `defineCrudResource(${router.pluginId}${path})`;
  if (!/^\/[a-z0-9][a-z0-9-]*$/i.test(path)) throw new Error(`${where}: path must look like '/grupos'.`);
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  for (const key of ['id', 'entidadeId', 'version', 'ativo']) {
    if (!columns[key]) throw new Error(`${where}: the table needs a '${key}' column.`);
  }
  const hidden = new Set(['entidadeId', ...(def.hidden ?? ['busca'])]);
  const extra = def.extra ?? {};
  const publicFields: Record<string, AnyPgColumn | SQL> = {};
  for (const [key, column] of Object.entries(columns)) if (!hidden.has(key)) publicFields[key] = column;
  for (const [key, expr] of Object.entries(extra)) publicFields[key] = expr;
  const auditSkip = new Set(['createdAt', 'updatedAt']);

  const sortExpr = (key: string, icu: boolean): SQL | AnyPgColumn | undefined => {
    // own keys only: sort=constructor / __proto__ must not find Object.prototype's members
    const column = Object.hasOwn(columns, key) ? columns[key] : undefined;
    if (column && !hidden.has(key)) {
      return isTextColumn(column) && icu ? sql`${column} COLLATE ${sql.identifier(SORT_COLLATION)}` : column;
    }
    const computed = Object.hasOwn(extra, key) ? extra[key] : undefined;
    if (computed && is(computed, Column) && isTextColumn(computed as AnyPgColumn) && icu) {
      return sql`${computed} COLLATE ${sql.identifier(SORT_COLLATION)}`;
    }
    return computed;
  };
  for (const key of def.sortable) if (!sortExpr(key, false)) throw new Error(`${where}: sortable field '${key}' is not a column nor an extra.`);
  const defaultSort = def.defaultSort ?? def.sortable[0] ?? 'id';
  for (const c of def.columns) {
    if (!(c.key in publicFields) && !c.value) throw new Error(`${where}: column '${c.key}' is not a field (give it value).`);
  }
  const searchExprs = [
    ...(def.busca ? [{ expr: def.busca, normalized: true }] : []),
    ...(def.searchColumns ?? []).map((expr) => ({ expr, normalized: false })),
  ];
  const filters = def.filters ?? {};

  const listQuery = pageQuerySchema.extend({
    ativo: z.enum(['true', 'false', 'todos']).default('true'),
    ...Object.fromEntries(Object.entries(filters).map(([key, column]) => [key, filterSchema(column)])),
  });
  const exportQuery = listQuery.omit({ page: true, pageSize: true });
  type ListQuery = z.output<typeof listQuery>;
  const idParams = z.object({ id: z.string() });
  const itemSchema = z
    .object({ ...def.schema.shape, id: z.string(), version: z.number().int(), ativo: z.boolean() })
    .loose()
    .openapi(`${router.pluginId}_${path.slice(1)}`.replace(/[^A-Za-z0-9_]/g, '_'));
  const updateBody = (def.updateSchema ?? def.schema).safeExtend({
    version: z.number({ error: 'Informe a versão do registro.' }).int(),
  });

  const selectRows = (db: DbOrTx) => {
    let query = db.select(publicFields as never).from(table as PgTable).$dynamic();
    for (const join of def.joins ?? []) query = query.leftJoin(join.table, join.on);
    return query;
  };

  const listWhere = (query: Omit<ListQuery, 'page' | 'pageSize'>, entidadeId: string): SQL => {
    const conds: (SQL | undefined)[] = [eq(table.entidadeId, entidadeId)];
    if (query.ativo !== 'todos') conds.push(eq(table.ativo, query.ativo === 'true'));
    for (const [key, column] of Object.entries(filters)) {
      const raw = (query as Record<string, unknown>)[key];
      if (raw === undefined || raw === '') continue;
      conds.push(eq(column, column.dataType === 'boolean' ? raw === 'true' : raw));
    }
    conds.push(searchCondition(searchExprs, query.q));
    return and(...conds)!;
  };

  /**
   * ORDER BY of `sort` (+ the default sort, + id). `afterFilter` wraps the keys in ROW(): the planner
   * can no longer walk a sort index while filtering (a plan that reads most of the table when the
   * matches sit at its end), so it filters through the search index first and sorts the matches.
   */
  const orderOf = (sort: string | undefined, icu: boolean, afterFilter = false): SQL[] => {
    const keys = [sort ?? defaultSort];
    if (sort && sort.replace(/^-/, '') !== defaultSort.replace(/^-/, '')) keys.push(defaultSort);
    const out: SQL[] = [];
    for (const key of keys) {
      const name = key.replace(/^-/, '');
      if (!def.sortable.includes(name) && key !== defaultSort) {
        throw badRequest('Ordenação inválida.', { sort: `Não é possível ordenar por '${name}'.` });
      }
      const base = sortExpr(name, icu) ?? (Object.hasOwn(columns, name) ? columns[name] : undefined);
      if (!base) continue;
      const expr = afterFilter ? sql`ROW(${base})` : base;
      out.push(key.startsWith('-') ? desc(expr) : asc(expr));
    }
    out.push(asc(table.id));
    return out;
  };

  const byId = (id: string, entidadeId: string) => and(eq(table.id, id), eq(table.entidadeId, entidadeId));

  const readOne = async (db: DbOrTx, id: string, entidadeId: string): Promise<Row | undefined> => {
    if (!UUID.test(id)) return undefined;
    const [row] = await selectRows(db).where(byId(id, entidadeId)).limit(1);
    return row as Row | undefined;
  };

  /** Locks the row (FOR UPDATE) and returns its version, or throws 404. */
  const lock = async (tx: Tx, id: string, entidadeId: string): Promise<{ version: number; ativo: boolean }> => {
    if (!UUID.test(id)) throw notFound();
    const [row] = await tx
      .select({ version: table.version, ativo: table.ativo })
      .from(table as PgTable)
      .where(byId(id, entidadeId))
      .for('update');
    if (!row) throw notFound();
    return row as { version: number; ativo: boolean };
  };

  const auditable = (row: Row | undefined): Row | undefined => {
    if (!row) return row;
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) if (!auditSkip.has(k)) out[k] = v;
    return out;
  };

  const checkWrite = async (tx: Tx, data: z.output<S>, values: Row, write: CrudWriteContext) => {
    const fields: Record<string, string> = {};
    for (const [field, ref] of Object.entries(def.references ?? {})) {
      const value = (data as Row)[field];
      const ids = [...new Set((Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value]).map(String))];
      if (ids.length === 0) continue;
      if (ids.some((v) => !UUID.test(v))) {
        fields[field] = ref.message;
        continue;
      }
      const found = await tx
        .select({ id: ref.table.id })
        .from(ref.table as PgTable)
        .where(and(eq(ref.table.entidadeId, write.entidadeId), inArray(ref.table.id, ids)));
      if (found.length !== ids.length) fields[field] = ref.message;
    }
    if (Object.keys(fields).length === 0 && def.validate) Object.assign(fields, (await def.validate(tx, data, write)) ?? {});
    if (Object.keys(fields).length > 0) throw badRequest('Verifique os campos destacados.', fields);
    for (const u of def.unique ?? []) {
      const conds: SQL[] = [eq(table.entidadeId, write.entidadeId)];
      let skip = false;
      for (const field of u.fields) {
        const column = columns[field];
        if (!column) throw new Error(`${where}: unique field '${field}' is not a column.`);
        const value = values[field];
        if (value === null || value === undefined) {
          skip = true;
          break;
        }
        conds.push(u.ignoreCase && isTextColumn(column) ? sql`lower(${column}) = lower(${String(value)})` : eq(column, value));
      }
      if (skip) continue;
      if (write.id) conds.push(ne(table.id, write.id));
      const [hit] = await tx
        .select({ id: table.id })
        .from(table as PgTable)
        .where(and(...conds))
        .limit(1);
      if (hit) throw new AppError(409, 'duplicate', u.message, Object.fromEntries(u.fields.map((f) => [f, u.message])));
    }
  };

  const toValues = (data: z.output<S>, write: CrudWriteContext): Row => {
    const values = def.toRow ? def.toRow(data, write) : { ...(data as Row) };
    for (const key of ['id', 'entidadeId', 'version', 'ativo', 'createdAt', 'updatedAt']) delete values[key];
    for (const key of Object.keys(values)) if (!columns[key]) delete values[key];
    return values;
  };

  const exportRows = async (ctx: RequestContext, query: z.output<typeof exportQuery>) => {
    const order = orderOf(query.sort, await hasSortCollation(ctx.db));
    const rows = (await selectRows(ctx.db)
      .where(listWhere(query, ctx.entidadeId))
      .orderBy(...order)
      .limit(MAX_EXPORT_ROWS)) as Row[];
    const header = def.columns.map((c) => c.header);
    const cells = rows.map((row) => def.columns.map((c) => (c.value ? c.value(row) : (row[c.key] as CellValue))));
    return { header, cells };
  };

  const fileName = (ext: string) => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(new Date());
    return `${def.exportName ?? path.slice(1)}-${day}.${ext}`;
  };

  const { singular, plural } = def.label;

  router.route({
    method: 'get',
    path,
    tag,
    summary: `Listar ${plural}`,
    description: 'Busca sem acentos e sem diferenciar maiúsculas (`q`), ordenação `sort=campo` ou `-campo`, `ativo=true|false|todos` (padrão true).',
    request: { query: listQuery },
    responses: { 200: pageOf(itemSchema) },
    handler: async (c, ctx) => {
      const query = c.req.valid('query') as ListQuery;
      const whereSql = listWhere(query, ctx.entidadeId);
      const icu = await hasSortCollation(ctx.db);
      orderOf(query.sort, icu); // 400 on a bad sort before touching the table
      const [counted] = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(table as PgTable)
        .where(whereSql);
      const total = Number(counted?.n ?? 0);
      const offset = (query.page - 1) * query.pageSize;
      const page = (db: DbOrTx, afterFilter: boolean) =>
        selectRows(db)
          .where(whereSql)
          .orderBy(...orderOf(query.sort, icu, afterFilter))
          .limit(query.pageSize)
          .offset(offset);
      let items: unknown[] = [];
      if (total > 0 && offset < total) {
        if (total <= FILTER_FIRST_MAX) items = await page(ctx.db, true);
        else {
          // many matches: walk an index in sort order (when there is one) instead of gathering every
          // match through the search index and sorting them all
          items = await ctx.db.transaction(async (tx) => {
            await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
            return page(tx, false);
          });
        }
      }
      return c.json({ items, total, page: query.page, pageSize: query.pageSize }, 200);
    },
  });

  router.route({
    method: 'get',
    path: `${path}.csv`,
    tag,
    summary: `Exportar ${plural} (CSV)`,
    description: 'Os mesmos filtros e a mesma ordenação da lista, todas as páginas. CSV para Excel: UTF-8 com BOM, separador ";".',
    request: { query: exportQuery },
    responses: { 200: { description: 'Arquivo CSV' } },
    handler: async (c, ctx) => {
      const { header, cells } = await exportRows(ctx, c.req.valid('query') as z.output<typeof exportQuery>);
      return new Response(toCsv(header, cells), {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${fileName('csv')}"`,
          'cache-control': 'no-store',
        },
      });
    },
  });

  router.route({
    method: 'get',
    path: `${path}.xlsx`,
    tag,
    summary: `Exportar ${plural} (XLSX)`,
    description: 'Os mesmos filtros e a mesma ordenação da lista, todas as páginas.',
    request: { query: exportQuery },
    responses: { 200: { description: 'Planilha XLSX' } },
    handler: async (c, ctx) => {
      const { header, cells } = await exportRows(ctx, c.req.valid('query') as z.output<typeof exportQuery>);
      const sheet = plural.charAt(0).toUpperCase() + plural.slice(1);
      return new Response(toXlsx(sheet, header, cells) as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename="${fileName('xlsx')}"`,
          'cache-control': 'no-store',
        },
      });
    },
  });

  router.route({
    method: 'get',
    path: `${path}/:id`,
    tag,
    summary: `Obter ${singular}`,
    request: { params: idParams },
    responses: { 200: itemSchema, 404: { description: 'Não encontrado (ou de outra entidade)' } },
    handler: async (c, ctx) => {
      const row = await readOne(ctx.db, c.req.valid('param').id, ctx.entidadeId);
      if (!row) throw notFound();
      return c.json(row, 200);
    },
  });

  router.route({
    method: 'post',
    path,
    tag,
    summary: `Criar ${singular}`,
    request: { body: def.schema },
    responses: { 201: itemSchema, 409: { description: 'Já existe (code duplicate)' } },
    handler: async (c, ctx) => {
      const data = c.req.valid('json') as z.output<S>;
      const write: CrudWriteContext = { entidadeId: ctx.entidadeId, ctx };
      const row = await ctx.mutate(async (tx, audit) => {
        const values = toValues(data, write);
        await checkWrite(tx, data, values, write);
        const [inserted] = await tx
          .insert(table as PgTable)
          .values({ ...values, entidadeId: ctx.entidadeId } as never)
          .returning({ id: table.id });
        const id = String(inserted!.id);
        await def.afterSave?.(tx, id, data, { ...write, id });
        const after = (await readOne(tx, id, ctx.entidadeId))!;
        audit({ registro: id, acao: 'criar', depois: auditable(after) });
        return after;
      });
      return c.json(row, 201);
    },
  });

  router.route({
    method: 'put',
    path: `${path}/:id`,
    tag,
    summary: `Alterar ${singular}`,
    description: `Envie a \`version\` lida; se outra pessoa alterou o registro depois, a resposta é 409 \`stale\`: "${STALE_MESSAGE}"`,
    request: { params: idParams, body: updateBody },
    responses: { 200: itemSchema, 404: { description: 'Não encontrado' }, 409: { description: 'Versão desatualizada (stale) ou duplicado' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const { version, ...data } = c.req.valid('json') as z.output<S> & { version: number };
      const write: CrudWriteContext = { entidadeId: ctx.entidadeId, id, ctx };
      const row = await ctx.mutate(async (tx, audit) => {
        const current = await lock(tx, id, ctx.entidadeId);
        if (current.version !== version) throw new AppError(409, 'stale', STALE_MESSAGE);
        const before = await readOne(tx, id, ctx.entidadeId);
        const values = toValues(data as z.output<S>, write);
        await checkWrite(tx, data as z.output<S>, values, write);
        const set: Row = { ...values, version: sql`${table.version} + 1` };
        if (columns.updatedAt) set.updatedAt = sql`now()`;
        await tx
          .update(table as PgTable)
          .set(set as never)
          .where(byId(id, ctx.entidadeId));
        await def.afterSave?.(tx, id, data as z.output<S>, write);
        const after = (await readOne(tx, id, ctx.entidadeId))!;
        audit({ registro: id, acao: 'alterar', antes: auditable(before), depois: auditable(after) });
        return after;
      });
      return c.json(row, 200);
    },
  });

  router.route({
    method: 'delete',
    path: `${path}/:id`,
    tag,
    summary: `Excluir ${singular}`,
    description: 'Recusado (409 `in_use`) enquanto o registro é usado; desative-o em vez de excluir.',
    request: { params: idParams },
    responses: { 204: { description: 'Excluído' }, 404: { description: 'Não encontrado' }, 409: { description: 'Em uso (in_use)' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      await ctx.mutate(async (tx, audit) => {
        await lock(tx, id, ctx.entidadeId);
        const before = (await readOne(tx, id, ctx.entidadeId))!;
        const usedBy = (await def.usedBy?.(tx, id, before)) ?? (await describeReferences(tx, table, id));
        if (usedBy) {
          const text = usedBy.replace(/[.\s]+$/, '');
          throw new AppError(409, 'in_use', `${text}. Para tirá-lo das listas de escolha, desative-o.`);
        }
        await tx.delete(table as PgTable).where(byId(id, ctx.entidadeId));
        audit({ registro: id, acao: 'excluir', antes: auditable(before) });
      });
      return c.body(null, 204);
    },
  });

  for (const [action, ativo] of [
    ['desativar', false],
    ['ativar', true],
  ] as const) {
    router.route({
      method: 'post',
      path: `${path}/:id/${action}`,
      tag,
      summary: `${action === 'ativar' ? 'Ativar' : 'Desativar'} ${singular}`,
      description: ativo ? 'Volta a aparecer nas listas de escolha.' : 'Sai das listas de escolha; continua nos documentos que já o usam.',
      request: { params: idParams },
      responses: { 200: itemSchema, 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        const row = await ctx.mutate(async (tx, audit) => {
          const current = await lock(tx, id, ctx.entidadeId);
          if (current.ativo === ativo) return (await readOne(tx, id, ctx.entidadeId))!;
          const set: Row = { ativo, version: sql`${table.version} + 1` };
          if (columns.updatedAt) set.updatedAt = sql`now()`;
          await tx
            .update(table as PgTable)
            .set(set as never)
            .where(byId(id, ctx.entidadeId));
          audit({ registro: id, acao: action, antes: { ativo: current.ativo }, depois: { ativo } });
          return (await readOne(tx, id, ctx.entidadeId))!;
        });
        return c.json(row, 200);
      },
    });
  }
}
