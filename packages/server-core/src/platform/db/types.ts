import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';

export interface RowsResult<TRow> {
  rows: TRow[];
}

/**
 * Result of `db.execute(sql\`...\`)`: both engines (PGlite and node-postgres) answer with `rows`.
 * Cast integers in SQL (`count(*)::int`) so both engines give numbers.
 */
export interface QueryResultHKT extends PgQueryResultHKT {
  readonly type: RowsResult<this['row']>;
}

/** The drizzle database handed to plugins (`ctx.db`), the same type on PGlite and PostgreSQL. */
export type Db = PgDatabase<QueryResultHKT, Record<string, never>>;

/** The transaction handle given by `ctx.mutate(async (tx, audit) => ...)`. */
export type Tx = PgTransaction<QueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;

/** Either a database or a transaction: for helpers that work in both. */
export type DbOrTx = Db | Tx;

export type DatabaseEngine = 'pglite' | 'postgres';

/** Exclusive raw access (one connection), used by the migration runner and test helpers. */
export interface RawClient {
  /** Runs one or more statements (simple protocol, no parameters). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  readonly engine: DatabaseEngine;
  readonly db: Db;
  /** Runs `fn` holding one connection (PGlite: the queue) for its whole duration. */
  withRawClient<T>(fn: (raw: RawClient) => Promise<T>): Promise<T>;
  /**
   * Embedded: VACUUM (ANALYZE) now (PGlite has no autovacuum; the app also runs it on a timer after
   * writes). PostgreSQL: nothing, autovacuum does it.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
}
