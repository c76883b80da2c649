// Test helpers for server-core and plugins: a fresh real database per server (PGlite in memory, or a
// newly created PostgreSQL database when TEST_DATABASE_URL is set), demo data, and request helpers.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { signAccessToken } from './platform/auth.js';
import { type Clock, systemClock } from './platform/clock.js';
import type { RawClient } from './platform/db/types.js';
import { openDatabase, redactUrl } from './platform/db/open.js';
import type { Logger } from './platform/logger.js';
import { setHashCostForTests } from './platform/passwords.js';
import { type ServerPlugin, defineServerPlugin } from './platform/plugin.js';
import { DEMO } from './platform/seed.js';
import { type ComposedServer, type CreateServerOptions, createServer } from './platform/server.js';

export type TestEngine = 'pglite' | 'postgres';

/**
 * Under the test harness, passwords are hashed with scrypt N=2^10 instead of 2^17: the same algorithm
 * and code path, ~3 ms instead of ~0.6 s of CPU per hash, so the hundreds of sign-ins and seeded users
 * of the suites do not dominate CI. Verification reads N from each hash as always; the tests of the
 * hashing itself (server-core's password-policy, signin-hash-queue) set the production cost back.
 */
const TEST_SCRYPT_N = 2 ** 10;
setHashCostForTests(TEST_SCRYPT_N);

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

/** Whether the tests run in CI (`CI` set to anything but '', '0' or 'false'). */
function inCi(): boolean {
  const ci = process.env.CI?.trim().toLowerCase();
  return Boolean(ci) && ci !== '0' && ci !== 'false';
}

/**
 * 'pglite' always; 'postgres' too when TEST_DATABASE_URL is set — and in CI even without it, so the
 * `[postgres]` suites never vanish silently there: they fail, saying TEST_DATABASE_URL is missing.
 */
export function testEngines(): TestEngine[] {
  return process.env.TEST_DATABASE_URL || inCi() ? ['pglite', 'postgres'] : ['pglite'];
}

/** TEST_DATABASE_URL, or a clear error (in CI the PostgreSQL suites must run: set it). */
export function requireTestDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return url;
  throw new Error(
    inCi()
      ? 'CI is set but TEST_DATABASE_URL is missing: the [postgres] suites must run in CI. Set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).'
      : 'This PostgreSQL test needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).',
  );
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

/** A file for {@link TestServer.upload}. */
export interface TestUpload {
  content: string | Uint8Array;
  /** Default 'planilha.csv'. */
  filename?: string;
  /** Default: 'text/csv' for a .csv name, none otherwise. */
  type?: string;
  /** Form field, default 'arquivo' (what the import pages send). */
  field?: string;
}

/** A person created by {@link TestServer.createUser}. */
export interface TestUserOptions {
  login: string;
  nome?: string;
  /** Default: the demo Prefeitura. */
  entidadeId?: string;
  /** Tags of the user's own perfil in that entidade. */
  tags?: readonly number[];
  /** Centros de custo the user works in (ignored with `todosCentros`). */
  centros?: readonly string[];
  /** The perfil reaches every centro de custo. */
  todosCentros?: boolean;
}

export interface TestServer extends ComposedServer {
  engine: TestEngine;
  /** Calls the app in-process: `await server.request('/api/session', { token })`. */
  request(path: string, init?: TestRequestInit): Promise<Response>;
  /** Signs in (default: the demo admin) and returns the token and entidades. */
  signIn(login?: string, senha?: string, entidadeId?: string): Promise<{ token: string; entidades: { id: string; nome: string }[] }>;
  /** Signs a token with the server's secret (e.g. an expired one); `now` in seconds, default the server's clock. */
  signToken(claims: { sub: string; ent: string; sid: string }, ttlSeconds: number, now?: number): Promise<string>;
  /** Raw SQL on one connection (bypasses drizzle). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  withRawClient<T>(fn: (raw: RawClient) => Promise<T>): Promise<T>;
  /** INSERTs one row with raw SQL (no audit, no validation: fixtures only) and returns its id. */
  insert(table: string, values: Record<string, unknown>): Promise<string>;
  /** Ids of the two demo entidades. */
  demoEntidades(): Promise<{ prefeitura: string; camara: string }>;
  /**
   * A user with password {@link DEMO}.senha and a perfil of their own (named 'Perfil de <login>') in one
   * entidade, signed in there. Copies the demo admin's password hash: no hashing cost.
   */
  createUser(options: TestUserOptions): Promise<{ id: string; perfilId: string; token: string }>;
  /** POSTs a file as multipart/form-data, as the import pages do. */
  upload(path: string, token: string, file: TestUpload): Promise<Response>;
  /**
   * Another server instance on the same PostgreSQL database, with the same secret (a token of one works on
   * the other), no seed, its own job workers: the scale-out path, for tests of what two instances share.
   * Pass plugin objects of its own when a plugin keeps per-server state. Close it yourself (before this one).
   */
  instance(plugins: readonly ServerPlugin[], options?: Pick<TestServerOptions, 'logger' | 'jobs'>): Promise<TestServerInstance>;
}

/** A second server instance on a test server's database (TestServer.instance). */
export interface TestServerInstance extends ComposedServer {
  request(path: string, init?: TestRequestInit): Promise<Response>;
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
    const base = requireTestDatabaseUrl();
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
    // durable jobs: an idle worker polls every 0.5 s and dead workers' jobs are found every second, so
    // retries and expiries happen within a test's patience
    const jobs = { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1, ...options.jobs };
    // no idle heap trim (a full GC pausing a test) unless the test asks for one
    server = await createServer({ ...options, plugins, database, jwtSecret, logger, seed: options.seed ?? true, jobs, heapTrim: options.heapTrim ?? false });
  } catch (err) {
    await drop?.();
    throw err;
  }

  const requestOn =
    (app: ComposedServer['app']) =>
    (path: string, init: TestRequestInit = {}) => {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body = init.body;
      if (init.json !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(init.json);
      }
      return Promise.resolve(app.request(path, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body }));
    };
  const request = requestOn(server.app);

  const sql = <T = Record<string, unknown>>(text: string, params?: unknown[]) => server.database.withRawClient((raw) => raw.query<T>(text, params));
  const insert = async (table: string, values: Record<string, unknown>) => {
    const keys = Object.keys(values);
    for (const name of [table, ...keys]) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`insert: '${name}' is not a plain SQL identifier.`);
    }
    const [row] = await sql<{ id: string }>(
      `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_k, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
      Object.values(values),
    );
    return row!.id;
  };
  const demoEntidades = async () => {
    const rows = await sql<{ id: string; cnpj: string }>('SELECT id, cnpj FROM entidades WHERE cnpj = ANY($1)', [[DEMO.prefeitura.cnpj, DEMO.camara.cnpj]]);
    const prefeitura = rows.find((r) => r.cnpj === DEMO.prefeitura.cnpj)?.id;
    const camara = rows.find((r) => r.cnpj === DEMO.camara.cnpj)?.id;
    if (!prefeitura || !camara) throw new Error('demoEntidades: the demo entidades are not seeded (seed: false?).');
    return { prefeitura, camara };
  };
  const signIn = async (login: string = DEMO.admin.login, senha: string = DEMO.senha, entidadeId?: string) => {
    const res = await request('/api/auth/signin', { json: { login, senha, ...(entidadeId ? { entidadeId } : {}) } });
    if (res.status !== 200) throw new Error(`signIn(${login}) answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { token: string; entidades: { id: string; nome: string }[] };
  };

  return {
    ...server,
    engine,
    request,
    signIn,
    signToken: (claims, ttlSeconds, now) => signAccessToken(jwtSecret, claims, ttlSeconds, now ?? Math.floor((options.clock ?? systemClock).now() / 1000)),
    sql,
    withRawClient: (fn) => server.database.withRawClient(fn),
    insert,
    demoEntidades,
    createUser: async (user) => {
      const entidadeId = user.entidadeId ?? (await demoEntidades()).prefeitura;
      const [admin] = await sql<{ senha_hash: string }>('SELECT senha_hash FROM usuarios WHERE login = $1', [DEMO.admin.login]);
      if (!admin) throw new Error('createUser: the demo admin is not seeded (seed: false?).');
      const perfilId = await insert('perfis', {
        entidade_id: entidadeId,
        nome: `Perfil de ${user.login}`,
        tags: `{${(user.tags ?? []).join(',')}}`,
        todos_centros: user.todosCentros ?? false,
      });
      const id = await insert('usuarios', {
        nome: user.nome ?? `Usuário ${user.login}`,
        login: user.login,
        email: `${user.login}@exemplo.gov.br`,
        senha_hash: admin.senha_hash,
      });
      await sql('INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo) VALUES ($1, $2, $3, $4)', [
        id,
        entidadeId,
        perfilId,
        `{${(user.centros ?? []).join(',')}}`,
      ]);
      const { token } = await signIn(user.login, DEMO.senha, entidadeId);
      return { id, perfilId, token };
    },
    upload: (path, token, file) => {
      const filename = file.filename ?? 'planilha.csv';
      const form = new FormData();
      const type = file.type ?? (filename.endsWith('.csv') ? 'text/csv' : '');
      form.set(file.field ?? 'arquivo', new File([file.content as BlobPart], filename, { type }));
      return Promise.resolve(server.app.request(path, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }));
    },
    instance: async (others, more = {}) => {
      if (!databaseUrl) throw new Error('instance(): a second server instance needs PostgreSQL (engine: postgres); PGlite lives in one process.');
      const log = more.logger ?? logger;
      const db = await openDatabase({ databaseUrl, poolMax: 5, logger: log });
      const jobs = { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1, ...options.jobs, ...more.jobs };
      const other = await createServer({ ...options, plugins: others, database: db, jwtSecret, logger: log, seed: false, jobs, heapTrim: false });
      return { ...other, request: requestOn(other.app) };
    },
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
 * Declares the same tests once per engine: `[pglite]` always, `[postgres]` when TEST_DATABASE_URL is set
 * (and in CI without it: those suites then fail in beforeAll, naming the missing variable).
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

/** The plugin without its demo seed: the tests create their own rows. */
export function withoutSeed(plugin: ServerPlugin): ServerPlugin {
  return defineServerPlugin({ ...plugin, seed: undefined });
}

/**
 * Stands in for a plugin another one depends on: the same id, version and migrations (so its tables
 * exist), without its routes, tags or seed.
 *
 *   describeEachDatabase('produtos API', { plugins: [migrationsOnly(registros), withoutSeed(produtos)] }, …)
 */
export function migrationsOnly(plugin: ServerPlugin): ServerPlugin {
  return defineServerPlugin({
    id: plugin.id,
    version: plugin.version,
    core: plugin.core,
    dependsOn: plugin.dependsOn,
    migrations: plugin.migrations,
    tags: [],
    routes: () => undefined,
  });
}

export { checkSchemaDrift, type SchemaDriftTarget } from './platform/schema-drift.js';
export type { ErrorBody } from './platform/errors.js';
export { DEMO };
