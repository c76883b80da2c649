import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createServer, silentLogger, verifyAuditChain } from '../src/index.js';
import { SerialQueue } from '../src/db/queue.js';
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
