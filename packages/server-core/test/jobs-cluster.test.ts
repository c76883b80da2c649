// Durable jobs across server lives and instances (platform/jobs.ts):
// - restart: a job whose server died mid-job (its database connection gone, the job left 'active') is
//   run again by the next server on the same database, once its expireInSeconds has passed — on PGlite
//   (the same data folder reopened) and on PostgreSQL;
// - PostgreSQL: two server instances on one database work one queue, and each job runs exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/open.js';
import type { Logger } from '../src/platform/logger.js';
import { type ComposedServer, createServer } from '../src/platform/server.js';
import { requireTestDatabaseUrl, testEngines } from '../src/testing.js';
import { jobsPlugin, until } from './fixtures/jobs-plugin.js';

const JOBS = { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 };
const errors: string[] = [];
const logger: Logger = { info: () => undefined, warn: () => undefined, error: (message) => void errors.push(message) };
const jwtSecret = 'x'.repeat(48);

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = requireTestDatabaseUrl();
  const name = `compras_jobs_${Date.now().toString(36)}_${Math.random().toString(16).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

for (const engine of testEngines()) {
  describe(`durable jobs across restarts [${engine}]`, () => {
    it('a job whose server died mid-job runs again after the next start', async () => {
      let location: { databaseUrl?: string; dataDir?: string };
      if (engine === 'postgres') {
        const db = await createDatabase();
        cleanup.push(db.drop);
        location = { databaseUrl: db.url };
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'compras-jobs-'));
        cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
        location = { dataDir: dir };
      }
      const start = async (plugin: ReturnType<typeof jobsPlugin>['plugin']): Promise<ComposedServer> =>
        createServer({ plugins: [plugin], database: await openDatabase({ ...location, logger }), jwtSecret, logger, seed: false, jobs: JOBS });

      const first = jobsPlugin();
      first.state.holdNext();
      const a = await start(first.plugin);
      const jobId = (await first.state.ctx!.jobs.send('lento', { id: 'interrompido' }))!;
      await until(() => first.state.runs.some((r) => r.jobId === jobId), 15_000, 'first attempt started');
      expect((await first.state.ctx!.jobs.get('lento', jobId))?.state).toBe('active');
      // the process "dies": its database goes away under the running job, which never completes
      await a.database.close();
      first.state.release();
      await a.close();
      // what a dead process leaves: the job still 'active', its attempt never settled
      const look = await openDatabase({ ...location, logger });
      const [row] = await look.withRawClient((raw) => raw.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [jobId]));
      await look.close();
      expect(row?.state).toBe('active');

      const second = jobsPlugin();
      const b = await start(second.plugin);
      cleanup.push(() => b.close());
      await until(async () => (await second.state.ctx!.jobs.get('lento', jobId))?.state === 'completed', 20_000, 'job resumed');
      expect(second.state.runs.map((r) => [r.jobId, r.attempt])).toEqual([[jobId, 2]]);
      expect((await second.state.ctx!.jobs.get('lento', jobId))?.retryCount).toBe(1);
      await b.close();
    });
  });
}

// declared whenever testEngines() has 'postgres' (with TEST_DATABASE_URL, and in CI, where a missing URL fails)
for (const engine of testEngines().filter((e) => e === 'postgres'))
  describe(`durable jobs on PostgreSQL with two server instances [${engine}]`, () => {
    it('both instances work the queue and each of 50 jobs runs exactly once', async () => {
      const db = await createDatabase();
      cleanup.push(db.drop);
      const one = jobsPlugin();
      const two = jobsPlugin();
      const a = await createServer({
        plugins: [one.plugin],
        database: await openDatabase({ databaseUrl: db.url, logger }),
        jwtSecret,
        logger,
        seed: false,
        jobs: JOBS,
      });
      cleanup.push(() => a.close());
      const b = await createServer({
        plugins: [two.plugin],
        database: await openDatabase({ databaseUrl: db.url, logger }),
        jwtSecret,
        logger,
        seed: false,
        jobs: JOBS,
      });
      cleanup.push(() => b.close());
      const ids = Array.from({ length: 50 }, (_, i) => `job-${i}`);
      // sent from both instances, inside transactions and outside
      for (const [i, id] of ids.entries()) {
        const ctx = (i % 2 ? one : two).state.ctx!;
        if (i % 3) await ctx.jobs.send('processar', { id });
        else await ctx.db.transaction((tx) => ctx.jobs.send(tx, 'processar', { id }));
      }
      const runs = () => [...one.state.runs, ...two.state.runs].filter((r) => r.queue === 'processar');
      await until(() => runs().length >= 50, 30_000, '50 runs');
      await new Promise((r) => setTimeout(r, 1_500));
      const all = runs();
      expect(all).toHaveLength(50);
      expect(new Set(all.map((r) => r.id)).size).toBe(50);
      // both instances took part
      expect(one.state.runs.length).toBeGreaterThan(0);
      expect(two.state.runs.length).toBeGreaterThan(0);
      const [count] = await a.database.withRawClient((raw) => raw.query<{ n: number }>("SELECT count(*)::int AS n FROM app_config WHERE key LIKE 'job:job-%'"));
      expect(count!.n).toBe(50);
      await a.close();
      await b.close();
    });
  });

// README's "PostgreSQL: two roles": the app role may not create schemas; the owner (MIGRATION_DATABASE_URL)
// creates `pgboss` and lets the app role create pg-boss's tables in it.
for (const engine of testEngines().filter((e) => e === 'postgres'))
  describe(`durable jobs on PostgreSQL with an owner role and an app role [${engine}]`, () => {
    it('the app role runs the queue in the schema the owner prepared', async () => {
      const base = requireTestDatabaseUrl();
      const suffix = `${Date.now().toString(36)}_${Math.random().toString(16).slice(2, 8)}`;
      const [owner, appRole, dbName] = [`compras_owner_${suffix}`, `compras_app_${suffix}`, `compras_jobroles_${suffix}`];
      const on = async (database: string, text: string) => {
        const url = new URL(base);
        url.pathname = `/${database}`;
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          await client.query(text);
        } finally {
          await client.end();
        }
      };
      const adminDb = new URL(base).pathname.slice(1) || 'postgres';
      await on(
        adminDb,
        `CREATE ROLE ${owner} LOGIN PASSWORD 'senha-de-teste' NOSUPERUSER NOCREATEDB NOCREATEROLE;
       CREATE ROLE ${appRole} LOGIN PASSWORD 'senha-de-teste' NOSUPERUSER NOCREATEDB NOCREATEROLE`,
      );
      await on(adminDb, `CREATE DATABASE ${dbName} OWNER ${owner}`);
      cleanup.push(async () => {
        await on(adminDb, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await on(adminDb, `DROP ROLE IF EXISTS ${appRole}; DROP ROLE IF EXISTS ${owner}`);
      });
      await on(
        dbName,
        `REVOKE ALL ON DATABASE ${dbName} FROM PUBLIC;
       GRANT CONNECT, TEMPORARY ON DATABASE ${dbName} TO ${appRole};
       REVOKE CREATE ON SCHEMA public FROM PUBLIC;
       GRANT USAGE ON SCHEMA public TO ${appRole};
       ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${appRole};
       ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${appRole};`,
      );
      const urlOf = (role: string) => {
        const url = new URL(base);
        url.username = role;
        url.password = 'senha-de-teste';
        url.pathname = `/${dbName}`;
        return url.toString();
      };
      const { plugin, state } = jobsPlugin();
      const server = await createServer({
        plugins: [plugin],
        databaseUrl: urlOf(appRole),
        migrationDatabaseUrl: urlOf(owner),
        auditAnchor: null,
        jwtSecret,
        logger,
        seed: false,
        jobs: JOBS,
      });
      cleanup.push(() => server.close());
      const jobId = (await state.ctx!.jobs.send('processar', { id: 'papel-app' }))!;
      await until(async () => (await state.ctx!.jobs.get('processar', jobId))?.state === 'completed', 15_000, 'job as the app role');
      const [schema] = await server.database.withRawClient((raw) =>
        raw.query<{ owner: string; job: string }>(
          "SELECT pg_get_userbyid(nspowner)::text AS owner, (SELECT pg_get_userbyid(relowner)::text FROM pg_class WHERE oid = 'pgboss.job'::regclass) AS job FROM pg_namespace WHERE nspname = 'pgboss'",
        ),
      );
      expect(schema).toEqual({ owner, job: appRole });
      await server.close();
      // a second start finds everything in place
      const again = await createServer({
        plugins: [plugin],
        databaseUrl: urlOf(appRole),
        migrationDatabaseUrl: urlOf(owner),
        auditAnchor: null,
        jwtSecret,
        logger,
        seed: false,
        jobs: JOBS,
      });
      await again.close();
    });
  });
