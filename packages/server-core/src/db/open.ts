import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type Logger, consoleLogger } from '../logger.js';
import { SerialQueue } from './queue.js';
import type { Database, Db, RawClient } from './types.js';

export interface OpenDatabaseOptions {
  /** postgres://… → PostgreSQL through a pg Pool. Unset → embedded PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database (default `.data`, relative to the current directory). `memory://` keeps it in memory. */
  dataDir?: string | undefined;
  /** Size of the PostgreSQL pool (default env PG_POOL_MAX or 10). */
  poolMax?: number | undefined;
  /**
   * Embedded only: every this many ms, when something was written since, run `database.maintain()`
   * (PGlite has no autovacuum). Unset or 0: never on a timer (`createServer` sets it for the app).
   */
  maintenanceIntervalMs?: number | undefined;
  logger?: Logger | undefined;
}

/** Opens the database: PGlite (serialised, one connection) without a URL, a pg Pool with one. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const logger = options.logger ?? consoleLogger;
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolMax, logger);
  return openPglite(options.dataDir ?? '.data', options.maintenanceIntervalMs ?? 0, logger);
}

/** Statements that never change data (anything else counts as a write for maintenance). */
const READ_ONLY = /^\s*(select|show|explain)\b/i;

async function openPglite(dataDir: string, maintenanceIntervalMs: number, logger: Logger): Promise<Database> {
  const inMemory = dataDir === 'memory://' || dataDir === ':memory:';
  let location: string | undefined;
  if (!inMemory) {
    location = resolve(dataDir);
    mkdirSync(location, { recursive: true });
  }
  // pg_trgm: trigram indexes for the accent-insensitive search of list endpoints (migrations/0003_busca.sql)
  const extensions = { pg_trgm };
  const pglite = location ? new PGlite(location, { extensions }) : new PGlite({ extensions });
  await pglite.waitReady;
  const queue = new SerialQueue();

  // What drizzle calls on its client: everything goes through the queue; a transaction holds it
  // until it ends (queries inside use the transaction object drizzle receives, not this client).
  // Writes since the last maintenance: transactions, exec and any statement that is not a read.
  let writes = 0;
  const client = {
    query: (text: string, params?: unknown[], opts?: Parameters<PGlite['query']>[2]) => {
      if (!READ_ONLY.test(text)) writes++;
      return queue.run(() => pglite.query(text, params, opts));
    },
    exec: (text: string, opts?: Parameters<PGlite['exec']>[1]) => {
      writes++;
      return queue.run(() => pglite.exec(text, opts));
    },
    transaction: <T>(fn: Parameters<PGlite['transaction']>[0]) => {
      writes++;
      return queue.run(() => pglite.transaction(fn) as Promise<T>);
    },
  };
  const db = drizzlePglite({ client: client as unknown as PGlite }) as unknown as Db;
  let closed = false;

  // What autovacuum does on a server: reclaim dead rows, mark pages all-visible (so counts can be
  // answered from an index alone) and refresh the planner's statistics. Holds the queue while it runs.
  const maintain = async () => {
    if (closed) return;
    writes = 0;
    await queue.run(() => pglite.exec('VACUUM (ANALYZE)'));
  };
  const timer =
    maintenanceIntervalMs > 0
      ? setInterval(() => {
          if (writes > 0) maintain().catch((err: unknown) => logger.warn(`embedded database maintenance failed: ${(err as Error).message}`));
        }, maintenanceIntervalMs)
      : undefined;
  timer?.unref();

  return {
    engine: 'pglite',
    db,
    maintain,
    withRawClient: (fn) =>
      queue.run(() =>
        fn({
          exec: async (text) => {
            await pglite.exec(text);
          },
          query: async <T>(text: string, params?: unknown[]) => (await pglite.query<T>(text, params)).rows,
        }),
      ),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await queue.run(() => pglite.close());
    },
  };
}

async function openPostgres(url: string, poolMax: number | undefined, logger: Logger): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax ?? (Number(process.env.PG_POOL_MAX) || 10),
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // Without this listener an idle client's error (PostgreSQL restarted, connection killed) is an
  // unhandled 'error' event and crashes the process. The pool drops the broken client and the next
  // query opens a new connection.
  pool.on('error', (err: Error & { code?: string }) => {
    logger.warn(`PostgreSQL: idle connection lost, the pool will reconnect (${err.code ?? 'no code'}: ${err.message})`);
  });
  // Fail at start, with a clear message, when the server cannot be reached.
  const probe = await pool.connect().catch(async (err: unknown) => {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot connect to PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}`, { cause: err });
  });
  probe.release();

  const db = drizzlePg({ client: pool }) as unknown as Db;
  let closed = false;
  return {
    engine: 'postgres',
    db,
    // the server's autovacuum does this
    maintain: async () => undefined,
    withRawClient: async (fn) => {
      const conn = await pool.connect();
      try {
        const raw: RawClient = {
          exec: async (text) => {
            await conn.query(text);
          },
          query: async <T>(text: string, params?: unknown[]) =>
            (await conn.query(text, params as unknown[] | undefined)).rows as T[],
        };
        return await fn(raw);
      } finally {
        conn.release();
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** postgres://user:secret@host/db → postgres://user:***@host/db (for messages and logs). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
