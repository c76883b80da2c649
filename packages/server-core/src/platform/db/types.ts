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

/** A LISTEN on one channel (Database.listen). */
export interface Listener {
  /** Notifications are received now (PostgreSQL: its connection is up; while false some may be missed). */
  readonly connected: boolean;
  close(): Promise<void>;
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
  /**
   * LISTEN on `channel` (letters, digits, _): `onNotify` runs for each NOTIFY on it; `onState` when
   * the notification connection is lost (false: notifications may be missed until it is back) and
   * back (true). Every write this Database runs while a listener is open (a transaction, a statement
   * that is not a read, withRawClient) resolves only once the notifications it caused have reached the
   * listeners of this process (PostgreSQL: a round trip on the listening connection after the commit;
   * PGlite delivers them with the commit). Another process gets them a few ms after the commit.
   */
  listen?(channel: string, onNotify: () => void, onState?: (connected: boolean) => void): Promise<Listener>;
  close(): Promise<void>;
}
