// What the API benchmarks (scripts/bench-lists.mjs, bench-audit.mjs) share: the built server on each
// engine (PGlite in a temporary folder; PostgreSQL on a fresh database when TEST_DATABASE_URL or
// BENCH_DATABASE_URL is set), seeded, with the demo admin signed in to the Prefeitura.
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const RUNS = Number(process.env.BENCH_RUNS) || 150;
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const fmt = (ms) => `${ms.toFixed(2)} ms`;

/** Times `runs` (default `RUNS`) sequential calls of `run`: sorted durations (ms) and requests per second. */
export async function measure(run, runs = RUNS) {
  const times = [];
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await run();
    times.push(performance.now() - s);
  }
  const rps = runs / ((performance.now() - t0) / 1000);
  return { times: times.sort((a, b) => a - b), rps };
}

/** A TCP port free on 127.0.0.1 right now (for a server process of a bench). */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/**
 * Yields `{ engine, database, server, token, prefeitura }` for each engine, one after the other;
 * the server is closed (and the PostgreSQL database dropped) before the next one opens. Also
 * `dataDir` (PGlite: the folder, left in `tmp` after the loop) or `databaseUrl` (PostgreSQL: the
 * fresh database), for a bench that starts the built server on the same data. `extraPlugins(serverCore)`
 * adds plugins of the bench's own (e.g. a report contributed to RELATORIOS) after the product's.
 */
export async function* benchServers({ root, tmp, name, extraPlugins = () => [] }) {
  const serverCoreDir = join(root, 'packages', 'server-core');
  const serverCore = await import(pathToFileURL(join(serverCoreDir, 'dist', 'index.js')).href);
  const pg = createRequire(join(serverCoreDir, 'package.json'))('pg');
  const { serverPlugins } = await import(pathToFileURL(join(root, 'apps', 'server', 'dist', 'app.js')).href);
  const logger = { info() {}, warn() {}, error: (...a) => console.error(...a) };
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const adminQuery = async (text) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  const engines = [
    {
      engine: 'PGlite (embedded)',
      open: async () => {
        const dataDir = join(tmp, `bench-${name}`);
        return { database: await serverCore.openDatabase({ dataDir, logger }), dataDir };
      },
    },
  ];
  if (pgUrl) {
    engines.push({
      engine: 'PostgreSQL',
      open: async () => {
        const db = `compras_bench_${name}_${Date.now().toString(36)}`;
        await adminQuery(`CREATE DATABASE "${db}"`);
        const url = new URL(pgUrl);
        url.pathname = `/${db}`;
        return {
          database: await serverCore.openDatabase({ databaseUrl: url.toString(), logger }),
          databaseUrl: url.toString(),
          drop: () => adminQuery(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`),
        };
      },
    });
  }

  for (const { engine, open } of engines) {
    const { database, drop, dataDir, databaseUrl } = await open();
    const server = await serverCore.createServer({ plugins: [...serverPlugins, ...extraPlugins(serverCore)], database, seed: true, logger });
    try {
      const signin = async (entidadeId) =>
        (await server.app.request('/api/auth/signin', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'admin', senha: 'demo1234', entidadeId }),
        })).json();
      const prefeitura = (await signin()).entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
      const { token } = await signin(prefeitura);
      // renew(): a fresh token, for a bench whose data generation outlasts the session
      yield { engine, database, server, token, prefeitura, dataDir, databaseUrl, renew: async () => (await signin(prefeitura)).token };
    } finally {
      await server.close();
      await drop?.();
    }
  }
}

export const sqlText = (args) => (typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? ''));

/**
 * Wraps the database's driver so the statements of a request can be recorded and replayed.
 * PGlite: drizzle calls our serialising client (query, transaction). PostgreSQL: every statement
 * goes through a pooled connection (pool.query connects too), so connections are instrumented.
 */
export function record(database) {
  let units = null;
  const client = database.db.$client;
  if (database.engine === 'pglite') {
    const query = client.query;
    const transaction = client.transaction;
    client.query = (...args) => {
      units?.push({ kind: 'query', statements: [args] });
      return query(...args);
    };
    client.transaction = (fn) =>
      transaction(async (tx) => {
        const unit = { kind: 'tx', statements: [] };
        units?.push(unit);
        const proxy = new Proxy(tx, {
          get(target, key) {
            if (key === 'query') return (...args) => (unit.statements.push(args), target.query(...args));
            const value = target[key];
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
        return fn(proxy);
      });
    return {
      start: () => (units = []),
      stop: () => {
        const done = units ?? [];
        units = null;
        return done;
      },
      replay: (unit) =>
        unit.kind === 'query'
          ? query(...unit.statements[0])
          : transaction(async (tx) => {
              for (const args of unit.statements) await tx.query(...args);
            }),
      restore: () => Object.assign(client, { query, transaction }),
    };
  }
  const connect = client.connect.bind(client);
  const instrument = (conn) => {
    if (!units) return;
    const unit = { statements: [] };
    units.push(unit);
    const query = conn.query;
    const release = conn.release;
    // pool.query hands the connection a callback: record the statement without it, replay with promises
    conn.query = (...args) => (unit.statements.push(args.filter((a) => typeof a !== 'function')), query.apply(conn, args));
    conn.release = (...args) => {
      conn.query = query;
      conn.release = release;
      return release.apply(conn, args);
    };
  };
  client.connect = (cb) =>
    cb
      ? connect((err, conn, done) => {
          if (!err) instrument(conn);
          cb(err, conn, done);
        })
      : connect().then((conn) => (instrument(conn), conn));
  return {
    start: () => (units = []),
    stop: () => {
        const done = units ?? [];
        units = null;
        return done;
      },
    replay: async (unit) => {
      const conn = await connect();
      try {
        for (const args of unit.statements) await conn.query(...args);
      } finally {
        conn.release();
      }
    },
    restore: () => {
      client.connect = connect;
    },
  };
}

/**
 * Bulk load the way PostgreSQL's documentation advises ("Populating a Database"): drop the tables'
 * foreign keys and secondary indexes, run `load`, then create them again, so the database checks
 * every generated row once, in bulk, instead of one trigger and one index insertion per row (a
 * foreign-key check per item row made 1 000 000 items take hours on PGlite). Primary keys and UNIQUE
 * constraints stay in place.
 */
export async function bulkLoad(raw, tables, load) {
  const fks = await raw.query(
    `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1)`,
    [tables],
  );
  const indexes = await raw.query(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [tables],
  );
  for (const fk of fks) await raw.exec(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT "${fk.conname}"`);
  for (const ix of indexes) await raw.exec(`DROP INDEX "${ix.indexname}"`);
  await load();
  for (const ix of indexes) await raw.exec(ix.indexdef);
  for (const fk of fks) await raw.exec(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT "${fk.conname}" ${fk.def}`);
}

/**
 * Signs the demo admin in through the real sign-in form of the built app at `origin` (choosing the
 * Prefeitura when asked for an entidade); answers the main menu's locator, visible.
 */
export async function signInInBrowser(page, origin) {
  await page.goto(`${origin}/signin`);
  await page.getByLabel('Login').fill('admin');
  await page.getByLabel('Senha', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'Entrar' }).click();
  const picker = page.getByTestId('entidade-form');
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await picker.or(menu).first().waitFor();
  if (await picker.isVisible()) {
    await picker.getByRole('radio', { name: /^Prefeitura/ }).check();
    await picker.getByRole('button', { name: 'Continuar' }).click();
  }
  await menu.waitFor();
  return menu;
}
