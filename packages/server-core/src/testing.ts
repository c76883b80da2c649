// Test helpers for server-core and plugins: a fresh real database per server (PGlite in memory, or a
// newly created PostgreSQL database when TEST_DATABASE_URL is set), demo data, and request helpers.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { signAccessToken } from './auth.js';
import { type Clock, systemClock } from './clock.js';
import type { RawClient } from './db/types.js';
import { openDatabase, redactUrl } from './db/open.js';
import type { Logger } from './logger.js';
import type { ServerPlugin } from './plugin.js';
import { DEMO } from './seed.js';
import { type ComposedServer, type CreateServerOptions, createServer } from './server.js';

export type TestEngine = 'pglite' | 'postgres';

/** A clock tests move by hand: `createServer({ clock })`, then `clock.advance(31 * 60_000)`. */
export interface ManualClock extends Clock {
  /** Moves time forward (or back, with a negative value) by `ms`. */
  advance(ms: number): void;
  set(time: number | Date): void;
}

export function createManualClock(start: number | Date = Date.now()): ManualClock {
  let current = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (time) => {
      current = typeof time === 'number' ? time : time.getTime();
    },
  };
}

/** 'pglite' always; 'postgres' too when TEST_DATABASE_URL is set. */
export function testEngines(): TestEngine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestRequestInit {
  method?: string;
  /** Bearer token. */
  token?: string;
  /** JSON body (sets Content-Type). */
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

export interface TestServer extends ComposedServer {
  engine: TestEngine;
  /** Calls the app in-process: `await server.request('/api/session', { token })`. */
  request(path: string, init?: TestRequestInit): Promise<Response>;
  /** Signs in (default: the demo admin) and returns the token and entidades. */
  signIn(
    login?: string,
    senha?: string,
    entidadeId?: string,
  ): Promise<{ token: string; entidades: { id: string; nome: string }[] }>;
  /** Signs a token with the server's secret (e.g. an expired one); `now` in seconds, default the server's clock. */
  signToken(claims: { sub: string; ent: string; sid: string }, ttlSeconds: number, now?: number): Promise<string>;
  /** Raw SQL on one connection (bypasses drizzle). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  withRawClient<T>(fn: (raw: RawClient) => Promise<T>): Promise<T>;
}

export interface TestServerOptions extends Partial<Omit<CreateServerOptions, 'plugins' | 'database' | 'databaseUrl' | 'dataDir'>> {
  engine?: TestEngine;
}

/** Prints errors only (warnings and info are noise in tests). */
const quietLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: (message, ...details) => console.error(`[compras:test] ${message}`, ...details),
};

async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `compras_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect().catch((err: Error) => {
    throw new Error(`TEST_DATABASE_URL ${redactUrl(baseUrl)} is not reachable: ${err.message}`, { cause: err });
  });
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A server on a fresh database: PGlite in memory by default; with `engine: 'postgres'` a database
 * CREATEd on TEST_DATABASE_URL (unique name) and DROPped by close(). Demo data is seeded unless
 * `seed: false`.
 */
export async function createTestServer(plugins: readonly ServerPlugin[] = [], options: TestServerOptions = {}): Promise<TestServer> {
  const engine = options.engine ?? 'pglite';
  const logger = options.logger ?? quietLogger;
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (engine === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('createTestServer: engine postgres needs TEST_DATABASE_URL.');
    const created = await createPostgresDatabase(base);
    databaseUrl = created.url;
    drop = created.drop;
  }
  const jwtSecret = options.jwtSecret ?? randomBytes(32).toString('hex');
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl, dataDir: 'memory://', poolMax: 5, logger });
  } catch (err) {
    await drop?.();
    throw err;
  }
  let server: ComposedServer;
  try {
    server = await createServer({ ...options, plugins, database, jwtSecret, logger, seed: options.seed ?? true });
  } catch (err) {
    await drop?.();
    throw err;
  }

  const request = (path: string, init: TestRequestInit = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(init.json);
    }
    return Promise.resolve(
      server.app.request(path, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body }),
    );
  };

  return {
    ...server,
    engine,
    request,
    signIn: async (login = DEMO.admin.login, senha = DEMO.senha, entidadeId?: string) => {
      const res = await request('/api/auth/signin', { json: { login, senha, ...(entidadeId ? { entidadeId } : {}) } });
      if (res.status !== 200) throw new Error(`signIn(${login}) answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { token: string; entidades: { id: string; nome: string }[] };
    },
    signToken: (claims, ttlSeconds, now) =>
      signAccessToken(jwtSecret, claims, ttlSeconds, now ?? Math.floor((options.clock ?? systemClock).now() / 1000)),
    sql: (text, params) => server.database.withRawClient((raw) => raw.query(text, params)),
    withRawClient: (fn) => server.database.withRawClient(fn),
    close: async () => {
      try {
        await server.close();
      } finally {
        await drop?.();
      }
    },
  };
}

export interface DatabaseSuite {
  readonly engine: TestEngine;
  /** The suite's server (created in beforeAll, closed in afterAll). */
  readonly server: TestServer;
}

/**
 * Declares the same tests once per engine: `[pglite]` always, `[postgres]` when TEST_DATABASE_URL is set.
 *
 *   describeEachDatabase('memorandos API', { plugins: [memorandos] }, (t) => {
 *     it('lists', async () => { const res = await t.server.request('/api/memorandos/itens', { token }) })
 *   })
 */
export function describeEachDatabase(
  title: string,
  options: TestServerOptions & { plugins?: readonly ServerPlugin[] },
  fn: (suite: DatabaseSuite) => void,
): void {
  for (const engine of testEngines()) {
    describe(`${title} [${engine}]`, () => {
      let server: TestServer | undefined;
      beforeAll(async () => {
        server = await createTestServer(options.plugins ?? [], { ...options, engine });
      });
      afterAll(async () => {
        await server?.close();
      });
      fn({
        engine,
        get server(): TestServer {
          if (!server) throw new Error('The test server is created in beforeAll: use t.server inside tests or hooks.');
          return server;
        },
      });
    });
  }
}

export { DEMO };
