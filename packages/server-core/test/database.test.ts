import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { createServer, openDatabase, silentLogger, verifyAuditChain } from '../src/index.js';
import { SerialQueue } from '../src/platform/db/queue.js';
import { describeEachDatabase } from '../src/testing.js';
import { testPlugin } from './fixtures/test-plugin.js';

describe('embedded database (PGlite in a data folder)', () => {
  it('persists data, seeds once, keeps the JWT secret, and migrates only what is new', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'compras-data-'));
    try {
      const first = await createServer({ plugins: [], dataDir, logger: silentLogger });
      const signin = await first.app.request('/api/auth/signin', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', senha: 'demo1234' }),
      });
      const { token } = (await signin.json()) as { token: string };
      await first.close();

      // second start: adds a plugin (its migrations run now), no second demo seed, same secret
      const second = await createServer({ plugins: [testPlugin], dataDir, logger: silentLogger });
      try {
        const session = await second.app.request('/api/session', { headers: { authorization: `Bearer ${token}` } });
        expect(session.status).toBe(200);
        const users = await second.database.withRawClient((raw) => raw.query<{ n: number }>('SELECT count(*)::int AS n FROM usuarios'));
        expect(users[0]!.n).toBe(2);
        const migrations = await second.database.withRawClient((raw) =>
          raw.query<{ plugin: string; n: number }>('SELECT plugin, count(*)::int AS n FROM _migrations GROUP BY plugin ORDER BY plugin'),
        );
        expect(migrations).toEqual([
          { plugin: 'core', n: readdirSync(new URL('../migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).length },
          { plugin: 'teste', n: 2 },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('maintains itself after writes (PGlite has no autovacuum): pages all-visible, statistics fresh', async () => {
    const database = await openDatabase({ dataDir: 'memory://', maintenanceIntervalMs: 50, logger: silentLogger });
    try {
      const stats = () =>
        database.withRawClient((raw) =>
          raw.query<{ visible: number; tuples: number }>(
            "SELECT relallvisible::int AS visible, reltuples::int AS tuples FROM pg_class WHERE relname = 'itens'",
          ),
        );
      await database.db.execute(sql`CREATE TABLE itens (id int PRIMARY KEY, nome text)`);
      await database.db.execute(sql`INSERT INTO itens SELECT g, 'item ' || g FROM generate_series(1, 5000) g`);
      // without maintenance these stay 0 and -1 for ever; the timer sees the writes and runs VACUUM (ANALYZE)
      await vi.waitFor(async () => expect((await stats())[0]).toEqual({ visible: expect.any(Number), tuples: 5000 }), { timeout: 15_000 });
      expect((await stats())[0]!.visible).toBeGreaterThan(0);
      // an explicit call works too, and with nothing written the timer stays quiet
      await database.maintain();
    } finally {
      await database.close();
    }
  });

  it('runs queued jobs one at a time, in order, and refuses re-entrance', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const job = (name: string, ms: number) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        setTimeout(() => {
          log.push(`end ${name}`);
          resolve(name);
        }, ms);
      });
    const results = await Promise.all([queue.run(job('a', 20)), queue.run(job('b', 1)), queue.run(job('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    await expect(queue.run(() => queue.run(async () => 1))).rejects.toThrow(/re-entrance/);
    // a failed job does not block the queue
    await expect(queue.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await queue.run(async () => 'ok')).toBe('ok');
  });
});

describeEachDatabase('sort indexes', { plugins: [testPlugin] }, (t) => {
  it('compras_indice_ordenacao builds the index a list walks in the same collation it sorts with', async () => {
    const rows = await t.server.withRawClient(async (raw) => {
      await raw.exec('CREATE TABLE ordem_teste (id uuid PRIMARY KEY, entidade_id uuid NOT NULL, nome text NOT NULL)');
      await raw.exec("SELECT compras_indice_ordenacao('ordem_teste', 'nome')");
      await raw.exec("SELECT compras_indice_ordenacao('ordem_teste', 'nome')"); // idempotent
      const icu = await raw.query<{ ok: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') AS ok");
      const indexes = await raw.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'ordem_teste' AND indexname = 'ordem_teste_nome_ordem_idx'",
      );
      await raw.exec('DROP TABLE ordem_teste');
      return { icu: icu[0]!.ok, indexes };
    });
    expect(rows.indexes).toHaveLength(1);
    const def = rows.indexes[0]!.indexdef;
    expect(def).toMatch(rows.icu ? /\(entidade_id, nome COLLATE "und-x-icu", id\)/ : /\(entidade_id, nome, id\)/);
  });
});

describeEachDatabase('concurrent writes', { plugins: [testPlugin] }, (t) => {
  it('keeps one valid audit chain under concurrent transactions', async () => {
    const { token } = await t.server.signIn();
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        t.server.request('/api/teste/itens', { token, json: { nome: `Item ${String(i).padStart(2, '0')}`, quantidade: i + 1 } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(25).fill(201));
    const result = await verifyAuditChain(t.server.db);
    expect(result).toEqual({ ok: true, checked: 27 }); // seed + sign-in + 25 creations
    const ids = await t.server.sql<{ id: number }>('SELECT id FROM audit_log ORDER BY id');
    expect(ids.map((r) => Number(r.id))).toEqual(Array.from({ length: 27 }, (_, i) => i + 1));
  });

  it.runIf(t.engine === 'postgres')('survives PostgreSQL dropping its connections', async () => {
    // warm the pool so it holds idle connections
    await Promise.all(Array.from({ length: 4 }, () => t.server.request('/api/health')));
    const [{ db }] = (await t.server.sql<{ db: string }>('SELECT current_database() AS db')) as [{ db: string }];
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db]);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    // the process is still alive and the pool reconnects
    let status = 0;
    for (let attempt = 0; attempt < 5 && status !== 200; attempt++) {
      status = (await t.server.request('/api/health')).status;
    }
    expect(status).toBe(200);
  });
});
