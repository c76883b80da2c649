import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type Logger, consoleLogger } from '../logger.js';
import { SerialQueue } from './queue.js';
import type { Database, Db, Listener, RawClient } from './types.js';

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

/**
 * shared_buffers of the embedded database (env EMBEDDED_SHARED_BUFFERS, e.g. '64MB'). PostgreSQL's
 * default, 128MB, is all resident from the start in PGlite (its WASM memory is zeroed when the buffer
 * pool is set up, and never shrinks): 153 MiB of the idle process. At 32MB the PCA bench's
 * consolidation of 100 000 lines (a 96 MiB database) is as fast; a page that is not in the pool is
 * read from the system's file cache (README, "Memory of the embedded server").
 */
export const EMBEDDED_SHARED_BUFFERS = '32MB';

/** The embedded database's shared_buffers: env EMBEDDED_SHARED_BUFFERS, else EMBEDDED_SHARED_BUFFERS. */
export function embeddedSharedBuffers(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.EMBEDDED_SHARED_BUFFERS?.trim();
  if (!raw) return EMBEDDED_SHARED_BUFFERS;
  const match = /^(\d+)\s*(kB|MB|GB)$/.exec(raw);
  // PostgreSQL's minimum is 128kB (16 buffers); a bad value stops the start with this message
  const kb = match ? Number(match[1]) * { kB: 1, MB: 1024, GB: 1024 * 1024 }[match[2] as 'kB' | 'MB' | 'GB'] : 0;
  if (kb < 128) throw new Error(`EMBEDDED_SHARED_BUFFERS must be a size of at least 128kB, such as 32MB (got '${raw}').`);
  return `${match![1]}${match![2]}`;
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
  // PGlite's own start parameters, plus the settings chosen for memory (they win over postgresql.conf)
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${embeddedSharedBuffers()}`];
  const pglite = location ? new PGlite(location, { extensions, startParams }) : new PGlite({ extensions, startParams });
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
    // one process, one connection: a notification reaches its listeners as the statement that
    // committed it returns, before any other statement runs
    listen: async (channel, onNotify) => {
      const unlisten = await queue.run(() => pglite.listen(checkChannel(channel), () => onNotify()));
      let open = true;
      return {
        get connected() {
          return open && !closed;
        },
        close: async () => {
          if (!open || closed) return;
          open = false;
          await queue.run(() => unlisten());
        },
      };
    },
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

  // A connection that fails (PostgreSQL restarted: 57P01 admin_shutdown, connection killed, network
  // down) emits 'error' on its pg Client. The pool listens only while the client is idle; a client
  // checked out by a request (a transaction, withRawClient) had no listener, and the unhandled 'error'
  // event crashed the process. So every client gets a listener for its whole life: the error reaches
  // the query that was running (the request answers 503, errors.ts) and the client is remembered as
  // lost, so that it goes back with release(err) and the pool destroys it instead of reusing it.
  const lost = new WeakMap<pg.PoolClient, Error>();
  let lastWarning = 0;
  let unreported = 0;
  const connectionLost = (err: Error & { code?: string }) => {
    // one line per 10 s: a restart ends every connection of the pool at once
    const now = Date.now();
    if (now - lastWarning < 10_000) {
      unreported++;
      return;
    }
    lastWarning = now;
    const more = unreported ? ` (+${unreported} since the last warning)` : '';
    unreported = 0;
    logger.warn(`PostgreSQL: connection lost${more}, the pool opens new ones as needed (${err.code ?? 'no code'}: ${err.message})`);
  };
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      lost.set(client, err);
      connectionLost(err);
    });
  });
  // An idle client's error is also emitted by the pool (which drops that client); without a listener
  // it would be an unhandled 'error' event. The client's own listener above has logged it.
  pool.on('error', () => undefined);
  // Clients checked out with pool.connect() (drizzle's transactions, withRawClient) go back with the
  // error of their lost connection, if any: release(err) destroys them. pool.query uses the callback
  // form and handles its client itself.
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: unknown) => {
    if (callback) return connect(callback);
    return connect()!.then((client) => {
      const release = client.release.bind(client);
      client.release = (err?: Error | boolean) => release(err || lost.get(client));
      return client;
    });
  }) as typeof pool.connect;

  // Fail at start, with a clear message, when the server cannot be reached.
  const probe = await pool.connect().catch(async (err: unknown) => {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot connect to PostgreSQL at ${redactUrl(url)}: ${(err as Error).message}`, { cause: err });
  });
  probe.release();

  // LISTEN connections of this process (Database.listen), each with the barrier that writes wait for:
  // a round trip on it, so that a notification sent by a commit is handled before the write resolves
  // (PostgreSQL signals the listening backend before it answers the commit; that backend sends the
  // notification before it answers the next statement).
  const listeners = new Set<Listener & { sync(): Promise<void> }>();
  const afterWrite = async () => {
    for (const listener of listeners) await listener.sync();
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const result = query(...args);
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (listeners.size === 0 || typeof args.at(-1) === 'function' || READ_ONLY.test(text)) return result;
    return (result as Promise<unknown>).then(async (res) => {
      await afterWrite();
      return res;
    });
  }) as typeof pool.query;

  const db = drizzlePg({ client: pool }) as unknown as Db;
  const transaction = db.transaction.bind(db);
  db.transaction = (async (fn, config) => {
    const result = await transaction(fn, config);
    await afterWrite();
    return result;
  }) as Db['transaction'];
  let closed = false;

  const listen = async (channel: string, onNotify: () => void, onState?: (connected: boolean) => void): Promise<Listener> => {
    const name = checkChannel(channel);
    let client: pg.Client | undefined;
    let connected = false;
    let ended = false;
    let failing = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const setConnected = (value: boolean) => {
      if (connected === value) return;
      connected = value;
      onState?.(value);
    };
    const reconnectLater = () => {
      if (ended || closed) return;
      retry = setTimeout(() => void connect(), 1000);
      retry.unref();
    };
    // the connection `c` is over (ended, failed, or hanging): disconnected, a new one in 1 s
    const drop = (c: pg.Client) => {
      if (client !== c) return;
      client = undefined;
      setConnected(false);
      reconnectLater();
      void c.end().catch(() => undefined);
    };
    const connect = async () => {
      const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: `compras listen ${name}` });
      c.on('error', () => undefined); // 'end' follows
      c.on('notification', (message) => {
        if (message.channel === name) onNotify();
      });
      c.on('end', () => drop(c));
      try {
        await c.connect();
        await c.query(`LISTEN ${name}`);
      } catch (err) {
        await c.end().catch(() => undefined);
        // once per outage, not every second
        if (!failing) logger.warn(`PostgreSQL: LISTEN ${name} failed, trying again every second (${(err as Error).message})`);
        failing = true;
        reconnectLater();
        return;
      }
      if (ended || closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      failing = false;
      setConnected(true);
    };
    // A round trip on the listening connection; one that fails or takes more than 2 s ends the
    // connection ('end' marks the listener disconnected, then it reconnects): a connection that hangs
    // without an error cannot go on counting as connected.
    const roundTrip = async () => {
      const c = client;
      if (!c || !connected) return;
      let timeout: ReturnType<typeof setTimeout> | undefined;
      // a write waits at most that long (dropping the connection stops serving from memory)
      const late = new Promise<void>((resolve) => {
        timeout = setTimeout(() => {
          drop(c);
          resolve();
        }, 2000);
      });
      try {
        await Promise.race([c.query('SELECT 1').then(() => undefined), late]);
      } catch {
        drop(c);
      } finally {
        clearTimeout(timeout);
      }
    };
    // One round trip at a time on the connection (pg queues concurrent queries only with a warning):
    // a write that commits while one is in flight waits for the next, which starts after its commit;
    // every write that arrives meanwhile shares that next one.
    let inFlight: Promise<void> | undefined;
    let next: Promise<void> | undefined;
    const sync = (): Promise<void> => {
      if (!inFlight) {
        inFlight = roundTrip().finally(() => {
          inFlight = undefined;
        });
        return inFlight;
      }
      next ??= inFlight.then(() => {
        next = undefined;
        return sync();
      });
      return next;
    };
    // and one every second when nothing else asked for one
    const heartbeat = setInterval(() => void sync(), 1000);
    heartbeat.unref();
    const listener = {
      get connected() {
        return connected;
      },
      sync,
      close: async () => {
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(retry);
        listeners.delete(listener);
        const c = client;
        client = undefined;
        setConnected(false);
        await c?.end().catch(() => undefined);
      },
    };
    listeners.add(listener);
    await connect();
    return listener;
  };

  return {
    engine: 'postgres',
    db,
    // the server's autovacuum does this
    maintain: async () => undefined,
    listen,
    withRawClient: async (fn) => {
      const conn = await pool.connect();
      // any failure: the connection's state is unknown (an open transaction, a lost socket), so it is
      // released with the error and destroyed rather than handed to the next request
      let failure: Error | undefined;
      try {
        const raw: RawClient = {
          exec: async (text) => {
            await conn.query(text);
          },
          query: async <T>(text: string, params?: unknown[]) => (await conn.query(text, params as unknown[] | undefined)).rows as T[],
        };
        return await fn(raw);
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
        throw err;
      } finally {
        conn.release(failure);
        if (!failure) await afterWrite();
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((l) => l.close()));
      await pool.end();
    },
  };
}

/** A LISTEN channel's name, as written in SQL (no quoting needed). */
function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid LISTEN channel '${channel}'.`);
  return channel;
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
