// Drift check between drizzle table declarations and the database the SQL migrations built. The SQL
// migrations are the source of truth; the drizzle tables mirror them for typed queries, and this check
// (run by a test in every package that declares tables) keeps the mirrors honest.
import { type Column, type SQL, is, isSQLWrapper } from 'drizzle-orm';
import { PgDialect, PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { GENERATED_BY_MIGRATION } from './db/generated.js';
import type { RawClient } from './db/types.js';

/** Anything holding a database connection: a `Database`, a test server. */
export interface SchemaDriftTarget {
  withRawClient<T>(fn: (raw: RawClient) => Promise<T>): Promise<T>;
}

interface DbColumn {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
  /** pg_attribute.attgenerated: 's' stored, '' none. */
  generated: string;
  expression: string | null;
  /** pg_attribute.attidentity: 'a' always, 'd' by default, '' none. */
  identity: string;
  primary: boolean;
}

const dialect = new PgDialect();
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** drizzle's getSQLType() spelled as PostgreSQL's format_type() spells it. */
function normalizeSqlType(type: string): string {
  let t = type.trim().toLowerCase().replace(/\s+\(/g, '(').replace(/,\s+/g, ',');
  let array = '';
  const arrayMatch = /(\[\d*\])+$/.exec(t);
  if (arrayMatch) {
    array = arrayMatch[0].replace(/\d+/g, '');
    t = t.slice(0, arrayMatch.index);
  }
  const sized = /^([a-z ]+?)(?:\((\d+(?:,\d+)?)\))?((?: with(?:out)? time zone)?)$/.exec(t);
  if (sized) {
    const [, base = '', size, zone] = sized;
    const args = size === undefined ? '' : `(${size})`;
    switch (base) {
      case 'char':
      case 'character':
        t = `character${args || '(1)'}`;
        break;
      case 'varchar':
      case 'character varying':
        t = `character varying${args}`;
        break;
      case 'decimal':
      case 'numeric':
        t = `numeric${size !== undefined && !size.includes(',') ? `(${size},0)` : args}`;
        break;
      case 'timestamp':
      case 'time':
        t = `${base}${args}${zone || ' without time zone'}`;
        break;
      case 'int':
      case 'int4':
      case 'serial':
        t = 'integer';
        break;
      case 'int8':
      case 'bigserial':
        t = 'bigint';
        break;
      case 'int2':
      case 'smallserial':
        t = 'smallint';
        break;
      case 'bool':
        t = 'boolean';
        break;
      case 'float8':
        t = 'double precision';
        break;
      case 'float4':
        t = 'real';
        break;
    }
  }
  return `${t}${array}`;
}

function tablesOf(tables: Record<string, unknown> | readonly unknown[]): PgTable[] {
  const values = Array.isArray(tables) ? tables : Object.values(tables);
  return [...new Set(values.filter((value): value is PgTable => is(value, PgTable)))];
}

/** The column's DB default as SQL text, or undefined when drizzle declares none (or only a JS one). */
function declaredDefault(column: Column): string | undefined {
  const value = column.default as unknown;
  if (value === undefined) return undefined;
  if (isSQLWrapper(value)) return dialect.sqlToQuery((value.getSQL() as SQL).inlineParams()).sql;
  if (value === null) return 'NULL';
  if (typeof value === 'string') return literal(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return literal(value.toISOString());
  return literal(JSON.stringify(value));
}

function declaredGenerated(column: Column): string | undefined {
  const generated = column.generated as { as?: unknown } | undefined;
  if (!generated) return undefined;
  const as = typeof generated.as === 'function' ? (generated.as as () => unknown)() : generated.as;
  if (isSQLWrapper(as)) return dialect.sqlToQuery((as.getSQL() as SQL).inlineParams()).sql;
  return String(as);
}

async function dbColumns(raw: RawClient, schema: string, table: string): Promise<DbColumn[]> {
  return raw.query<DbColumn>(
    `SELECT a.attname AS name,
            format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS "notNull",
            CASE WHEN a.attgenerated = '' THEN pg_get_expr(d.adbin, d.adrelid) END AS default,
            a.attgenerated::text AS generated,
            CASE WHEN a.attgenerated <> '' THEN pg_get_expr(d.adbin, d.adrelid) END AS expression,
            a.attidentity::text AS identity,
            EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary AND a.attnum = ANY(i.indkey)) AS primary
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')
      ORDER BY a.attnum`,
    [schema, table],
  );
}

/**
 * Deparses `expression` as PostgreSQL would store it for a column of `type` on a copy of `table`
 * (a default, or a generation expression), so it compares with pg_get_expr() of the real column.
 * A default spelled differently from `compareWith` that evaluates to the same value deparses as it.
 * Runs in a transaction that is rolled back.
 */
async function deparse(
  raw: RawClient,
  qualified: string,
  type: string,
  expression: string,
  kind: 'default' | 'generated',
  compareWith?: string,
): Promise<{ text: string } | { error: string }> {
  await raw.exec('BEGIN');
  try {
    await raw.exec(`CREATE TEMP TABLE compras_drift_probe (LIKE ${qualified}) ON COMMIT DROP`);
    const clause = kind === 'default' ? `DEFAULT (${expression})` : `GENERATED ALWAYS AS (${expression}) STORED`;
    await raw.exec(`ALTER TABLE compras_drift_probe ADD COLUMN compras_drift_probe_column ${type} ${clause}`);
    const [row] = await raw.query<{ text: string }>(
      `SELECT pg_get_expr(d.adbin, d.adrelid) AS text
         FROM pg_attrdef d
         JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
        WHERE d.adrelid = 'compras_drift_probe'::regclass AND a.attname = 'compras_drift_probe_column'`,
    );
    const text = row?.text ?? '';
    if (kind === 'default' && compareWith !== undefined && text !== compareWith) {
      // Spelled differently ('0'::numeric vs 0): the same default when both give the same value now.
      const [same] = await raw.query<{ same: boolean }>(`SELECT ((${text})::${type})::text IS NOT DISTINCT FROM ((${compareWith})::${type})::text AS same`);
      if (same?.same) return { text: compareWith };
    }
    return { text };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await raw.exec('ROLLBACK');
  }
}

/**
 * Compares drizzle tables with the database (after the migrations ran) and returns one readable line
 * per difference, empty when they agree: missing tables and columns (both ways), SQL types
 * (`getSQLType()` vs `format_type()`), NOT NULL, primary keys, declared defaults and generation
 * expressions (both deparsed by PostgreSQL, so spelling does not matter; a column declared with
 * `generatedByMigration()` must only be generated in the database) and identity columns.
 *
 *   expect(await checkSchemaDrift(t.server, await import('../src/server/tables.js'))).toEqual([]);
 *
 * `tables` is a module namespace or an array; values that are not drizzle tables are ignored.
 */
export async function checkSchemaDrift(target: SchemaDriftTarget, tables: Record<string, unknown> | readonly unknown[]): Promise<string[]> {
  const problems: string[] = [];
  await target.withRawClient(async (raw) => {
    for (const table of tablesOf(tables)) {
      const config = getTableConfig(table);
      const schema = config.schema ?? 'public';
      const where = `${config.schema ? `${config.schema}.` : ''}${config.name}`;
      const qualified = `${ident(schema)}.${ident(config.name)}`;
      const columns = await dbColumns(raw, schema, config.name);
      if (columns.length === 0) {
        problems.push(`${where}: declared in drizzle, no such table in the database`);
        continue;
      }
      const byName = new Map(columns.map((c) => [c.name, c]));
      const declared = new Set(config.columns.map((c) => c.name));
      const primary = new Set([
        ...config.columns.filter((c) => c.primary).map((c) => c.name),
        ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)),
      ]);
      for (const db of columns) {
        if (!declared.has(db.name)) problems.push(`${where}.${db.name}: in the database (${db.type}), not declared in drizzle`);
      }
      for (const column of config.columns) {
        const at = `${where}.${column.name}`;
        const db = byName.get(column.name);
        if (!db) {
          problems.push(`${at}: declared in drizzle (${column.getSQLType()}), no such column in the database`);
          continue;
        }
        const type = normalizeSqlType(column.getSQLType());
        if (type !== db.type) problems.push(`${at}: type ${type} in drizzle, ${db.type} in the database`);
        if (column.notNull !== db.notNull) {
          problems.push(`${at}: ${column.notNull ? 'NOT NULL' : 'nullable'} in drizzle, ${db.notNull ? 'NOT NULL' : 'nullable'} in the database`);
        }
        if (primary.has(column.name) !== db.primary) {
          problems.push(
            `${at}: ${primary.has(column.name) ? 'part of' : 'not part of'} the primary key in drizzle, ${db.primary ? 'part of' : 'not part of'} it in the database`,
          );
        }
        const identity = (column.generatedIdentity as { type?: string } | undefined)?.type;
        const wantIdentity = identity === 'always' ? 'a' : identity === 'byDefault' ? 'd' : '';
        if (wantIdentity !== db.identity) {
          const name = (code: string) => (code === 'a' ? 'GENERATED ALWAYS AS IDENTITY' : code === 'd' ? 'GENERATED BY DEFAULT AS IDENTITY' : 'no identity');
          problems.push(`${at}: ${name(wantIdentity)} in drizzle, ${name(db.identity)} in the database`);
        }
        const generated = declaredGenerated(column);
        if (generated === undefined && db.generated) {
          problems.push(`${at}: generated in the database (${db.expression}), a plain column in drizzle (it would be written)`);
        } else if (generated !== undefined && !db.generated) {
          problems.push(`${at}: generated in drizzle (${generated}), a plain column in the database`);
        } else if (generated !== undefined && generated !== GENERATED_BY_MIGRATION) {
          const probe = await deparse(raw, qualified, db.type, generated, 'generated');
          if ('error' in probe) problems.push(`${at}: the generation expression of drizzle (${generated}) does not compile: ${probe.error}`);
          else if (probe.text !== db.expression) {
            problems.push(`${at}: generated as ${probe.text} in drizzle, as ${db.expression} in the database`);
          }
        }
        const fallback = declaredDefault(column);
        if (fallback !== undefined) {
          if (db.default === null) {
            problems.push(`${at}: default ${fallback} in drizzle, no default in the database`);
          } else {
            const probe = await deparse(raw, qualified, db.type, fallback, 'default', db.default);
            if ('error' in probe) problems.push(`${at}: the default of drizzle (${fallback}) does not compile: ${probe.error}`);
            else if (probe.text !== db.default) problems.push(`${at}: default ${probe.text} in drizzle, ${db.default} in the database`);
          }
        }
      }
    }
  });
  return problems;
}
