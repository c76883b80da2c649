// The session check served from memory (session-cache.ts, migrations/0016): a session's lookup is kept
// while the database notifies every change of sessions, users, memberships and perfis; a change made
// on this instance is seen by its next request, one made on another instance within ms; without the
// notification connection nothing is served from memory.
// "Served from memory" is shown by changing the database with the notifying trigger switched off: a
// request that still passes read nothing; the same change with the trigger on is refused at once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCache } from '../src/platform/session-cache.js';
import { type TestServer, createTestServer, describeEachDatabase, testEngines } from '../src/testing.js';
import { addUser, tokenPayload } from './fixtures/users.js';

const session = (server: Pick<TestServer, 'request'>, token: string) => server.request('/api/session', { token });

/** Revokes the session of `token` with the trigger that notifies it switched off (a silent change). */
async function revokeSilently(server: TestServer, token: string) {
  await server.sql('ALTER TABLE sessoes DISABLE TRIGGER sessoes_mudaram');
  try {
    await server.sql('UPDATE sessoes SET revoked_at = now() WHERE id = $1', [tokenPayload(token).sid]);
  } finally {
    await server.sql('ALTER TABLE sessoes ENABLE TRIGGER sessoes_mudaram');
  }
}

describe('SessionCache', () => {
  it('keeps an entry for its TTL, drops everything on clear(), and never keeps a read older than the last clear()', () => {
    let now = 0;
    const cache = new SessionCache<string>(1000, () => now);
    cache.set('a', 'x', cache.generation);
    expect(cache.get('a')).toBeUndefined(); // inactive until the notifications are received
    cache.setActive(true);
    cache.set('a', 'x', cache.generation);
    expect(cache.get('a')).toBe('x');
    now = 1001;
    expect(cache.get('a')).toBeUndefined();
    const before = cache.generation;
    cache.clear(); // a change notified while the read ran
    cache.set('a', 'old', before);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'y', cache.generation);
    cache.setActive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.setActive(true);
    expect(cache.get('a')).toBeUndefined(); // dropped while inactive
    expect(new SessionCache<string>(0).active).toBe(false);
    const off = new SessionCache<string>(0);
    off.setActive(true);
    expect(off.active).toBe(false); // TTL 0: off
  });
});

describeEachDatabase('session check from memory', {}, (t) => {
  it('a request whose session is in memory reads nothing: a silent revocation still passes, a notified one is refused at once', async () => {
    const { token } = await t.server.signIn();
    expect((await session(t.server, token)).status).toBe(200);
    await revokeSilently(t.server, token);
    expect((await session(t.server, token)).status).toBe(200); // served from memory
    // any notified change (here: nothing of this user) drops the memory: the revocation is read
    await t.server.sql(`UPDATE perfis SET nome = nome WHERE nome = 'Consulta'`);
    expect((await session(t.server, token)).status).toBe(401);
  });

  it('a sign-out, a deactivated user, a perfil without the tag, a membership ended: the next request of this instance sees it', async () => {
    const { token } = await t.server.signIn();
    expect((await session(t.server, token)).status).toBe(200);
    expect((await t.server.request('/api/auth/signout', { method: 'POST', token })).status).toBe(204);
    expect((await session(t.server, token)).status).toBe(401);

    const id = await addUser(t.server, 'memoria1');
    const user = await t.server.signIn('memoria1', 'demo1234');
    expect((await session(t.server, user.token)).status).toBe(200);
    await t.server.sql('UPDATE usuarios SET ativo = false WHERE id = $1', [id]);
    expect((await session(t.server, user.token)).status).toBe(401);
    await t.server.sql('UPDATE usuarios SET ativo = true WHERE id = $1', [id]);

    const other = await t.server.createUser({ login: 'memoria2', tags: [3] });
    expect((await t.server.request('/api/auth/outbox', { token: other.token })).status).toBe(200);
    await t.server.sql(`UPDATE perfis SET tags = '{}' WHERE id = $1`, [other.perfilId]);
    expect((await t.server.request('/api/auth/outbox', { token: other.token })).status).toBe(403);
    await t.server.sql('DELETE FROM usuario_entidades WHERE usuario_id = $1', [other.id]);
    expect((await session(t.server, other.token)).status).toBe(401);
  });

  it("a session's activity (last_seen_at moving forward) does not empty the memory; moving it back does", async () => {
    const { token } = await t.server.signIn();
    const { sid } = tokenPayload(token);
    expect((await session(t.server, token)).status).toBe(200);
    await t.server.sql("UPDATE sessoes SET last_seen_at = now() + interval '1 second' WHERE id = $1", [sid]);
    await revokeSilently(t.server, token);
    expect((await session(t.server, token)).status).toBe(200); // still from memory
    await t.server.sql('UPDATE sessoes SET revoked_at = NULL WHERE id = $1', [sid]);
    await t.server.sql("UPDATE sessoes SET last_seen_at = now() - interval '2 hours' WHERE id = $1", [sid]);
    expect((await session(t.server, token)).status).toBe(401); // idle, read again
  });
});

describeEachDatabase('session check from memory turned off (SESSION_CACHE_SECONDS=0)', { sessionCacheSeconds: 0 }, (t) => {
  it('every request reads its session', async () => {
    const { token } = await t.server.signIn();
    expect((await session(t.server, token)).status).toBe(200);
    await revokeSilently(t.server, token);
    expect((await session(t.server, token)).status).toBe(401);
  });
});

describe.runIf(testEngines().includes('postgres'))('session check from memory, two instances on one PostgreSQL', () => {
  let server: TestServer;
  let second: Awaited<ReturnType<TestServer['instance']>>;
  beforeAll(async () => {
    server = await createTestServer([], { engine: 'postgres' });
    second = await server.instance([]);
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  it('a sign-out on one instance is refused by the other within a few ms', async () => {
    const { token } = await server.signIn();
    expect((await session(second, token)).status).toBe(200); // now in the second instance's memory
    expect((await server.request('/api/auth/signout', { method: 'POST', token })).status).toBe(204);
    const start = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - start < 2000) {
      status = (await session(second, token)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(status).toBe(401);
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('while the notification connection is down nothing is served from memory; once back, it is again', async () => {
    const { token } = await server.signIn();
    expect((await session(server, token)).status).toBe(200);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const [{ db }] = (await server.sql<{ db: string }>('SELECT current_database() AS db')) as [{ db: string }];
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'compras listen compras_sessoes'",
        [db],
      );
      expect(rowCount).toBe(2); // one per instance
      // the connection's end is seen, then every request reads: a silent revocation is refused
      let status = 200;
      for (let i = 0; i < 200 && status === 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await revokeSilently(server, token);
        status = (await session(server, token)).status;
        await server.sql('ALTER TABLE sessoes DISABLE TRIGGER sessoes_mudaram');
        await server.sql('UPDATE sessoes SET revoked_at = NULL WHERE id = $1', [tokenPayload(token).sid]);
        await server.sql('ALTER TABLE sessoes ENABLE TRIGGER sessoes_mudaram');
      }
      expect(status).toBe(401);
      // back within a few seconds (a retry every second), then served from memory again
      const fresh = (await server.signIn()).token;
      let fromMemory = false;
      for (let i = 0; i < 100 && !fromMemory; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const waiting = await admin.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'compras listen compras_sessoes'",
          [db],
        );
        if (waiting.rows[0].n < 2) continue;
        expect((await session(server, fresh)).status).toBe(200);
        await revokeSilently(server, fresh);
        fromMemory = (await session(server, fresh)).status === 200;
      }
      expect(fromMemory).toBe(true);
    } finally {
      await admin.end();
    }
  });
});
