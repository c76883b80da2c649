// Deadlocks and serialization failures (issue 18: mixing two create routes in parallel gave 37 × 500
// `40P01` and a log saying only "Failed query"). ctx.mutate runs a transaction the database aborted
// with 40P01/40001 again (jittered pause), then answers 409 in pt-BR, never 500; every retry, the 409
// and every 5xx are logged with the database's cause (code, message, detail, constraint).
// The deadlock is real: a second connection takes the rows in the opposite order, and the route's
// transaction (deadlock_timeout 50 ms against 10 s) is the one PostgreSQL aborts.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONCURRENT_CHANGE_MESSAGE, type Logger, defineServerPlugin } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

const TAG = 26;
const state = { url: '', attempts: 0, cleanups: [] as Promise<unknown>[] };

const travaPlugin = defineServerPlugin({
  id: 'trava',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [{ tag: TAG, nome: 'Trava' }],
  routes(router) {
    router.route({
      method: 'post',
      path: '/trava/:modo/:vezes',
      tag: TAG,
      summary: 'Atualiza as linhas 1 e 2; nas primeiras `vezes` tentativas, outra conexão as trava na ordem inversa',
      handler: async (c, ctx) => {
        const vezes = Number(c.req.param('vezes'));
        let tentativa = 0;
        const body = async (tx: Parameters<Parameters<typeof ctx.mutate>[0]>[0]) => {
          tentativa++;
          state.attempts++;
          await tx.execute(sql`UPDATE teste_trava SET n = n + 1 WHERE id = 1`);
          if (tentativa <= vezes) {
            await tx.execute(sql`SET LOCAL deadlock_timeout = '50ms'`);
            const other = new pg.Client({ connectionString: state.url });
            await other.connect();
            await other.query("SET deadlock_timeout = '10s'");
            await other.query('BEGIN');
            await other.query('UPDATE teste_trava SET n = n + 1 WHERE id = 2');
            const blocked = other.query('UPDATE teste_trava SET n = n + 1 WHERE id = 1'); // waits for the route's transaction
            state.cleanups.push(blocked.then(() => other.query('ROLLBACK')).finally(() => other.end()));
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await tx.execute(sql`UPDATE teste_trava SET n = n + 1 WHERE id = 2`); // the cycle: PostgreSQL aborts this transaction
          return tentativa;
        };
        const tentativas = c.req.param('modo') === 'mutate' ? await ctx.mutate((tx) => body(tx)) : await ctx.db.transaction((tx) => body(tx as never));
        return c.json({ tentativas }, 200);
      },
    });
    router.route({
      method: 'post',
      path: '/duplicado',
      tag: TAG,
      summary: 'Insere duas vezes a mesma chave numa mutação',
      handler: async (c, ctx) => {
        await ctx.mutate(async (tx) => {
          await tx.execute(sql`INSERT INTO teste_trava (id, n) VALUES (9, 0)`);
          await tx.execute(sql`INSERT INTO teste_trava (id, n) VALUES (9, 0)`);
        });
        return c.json({}, 200);
      },
    });
    router.route({
      method: 'get',
      path: '/quebra',
      tag: TAG,
      summary: 'Consulta uma tabela que não existe',
      handler: async (c, ctx) => c.json(await ctx.db.execute(sql`SELECT * FROM tabela_que_nao_existe`), 200),
    });
  },
});

const lines: string[] = [];
const logger: Logger = {
  info: () => undefined,
  warn: (message) => lines.push(`warn ${message}`),
  error: (message) => lines.push(`error ${message}`),
};

describeEachDatabase('ctx.mutate: deadlocks and serialization failures, the cause in the log', { plugins: [travaPlugin], logger }, (t) => {
  let token: string;
  beforeAll(async () => {
    token = (await t.server.signIn()).token;
    await t.server.sql('CREATE TABLE teste_trava (id integer PRIMARY KEY, n integer NOT NULL)');
    if (t.engine === 'postgres') {
      const [{ db }] = (await t.server.sql<{ db: string }>('SELECT current_database() AS db')) as [{ db: string }];
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${db}`;
      state.url = url.toString();
    }
  });
  afterAll(async () => {
    await Promise.allSettled(state.cleanups);
  });
  const reset = async () => {
    // The other connection of an earlier test may still hold row 2 while it waits for row 1: the DELETE would
    // take row 1 and wait for row 2, a deadlock of the test's own making (seen in CI). Let it finish first.
    await Promise.allSettled(state.cleanups);
    state.cleanups.length = 0;
    await t.server.sql('DELETE FROM teste_trava');
    await t.server.sql('INSERT INTO teste_trava (id, n) VALUES (1, 0), (2, 0)');
    state.attempts = 0;
    lines.length = 0;
  };
  const rows = async () => (await t.server.sql<{ id: number; n: number }>('SELECT id, n FROM teste_trava ORDER BY id')).map((r) => [r.id, r.n]);

  if (t.engine === 'postgres') {
    it('a deadlock aborts the first attempt: the transaction runs again and succeeds, the retry is logged with its cause', async () => {
      await reset();
      const res = await t.server.request('/api/trava/trava/mutate/1', { token, method: 'POST' });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toEqual({ tentativas: 2 });
      await Promise.allSettled(state.cleanups);
      expect(await rows()).toEqual([
        [1, 1],
        [2, 1],
      ]);
      expect(lines).toEqual([
        expect.stringMatching(
          /^warn ctx\.mutate \(trava\): attempt 1 of 4 aborted by the database, retrying \(SQLSTATE 40P01: deadlock detected \(detail: Process \d+ waits/,
        ),
      ]);
    });

    it('a deadlock on every attempt: 409 in pt-BR after 4 attempts (never 500), nothing written, the cause logged', async () => {
      await reset();
      const res = await t.server.request('/api/trava/trava/mutate/99', { token, method: 'POST' });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: { code: 'conflict', message: CONCURRENT_CHANGE_MESSAGE } });
      expect(CONCURRENT_CHANGE_MESSAGE).toBe('Outra operação alterou este registro ao mesmo tempo; tente de novo.');
      expect(state.attempts).toBe(4);
      await Promise.allSettled(state.cleanups);
      expect(await rows()).toEqual([
        [1, 0],
        [2, 0],
      ]);
      expect(lines).toHaveLength(4);
      expect(lines[3]).toMatch(/^warn ctx\.mutate \(trava\): gave up after 4 attempts, answered 409 \(SQLSTATE 40P01: deadlock detected/);
    });

    it('a deadlock outside ctx.mutate (a bare transaction) is a 409 too, logged with its cause', async () => {
      await reset();
      const res = await t.server.request('/api/trava/trava/direto/1', { token, method: 'POST' });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(CONCURRENT_CHANGE_MESSAGE);
      await Promise.allSettled(state.cleanups);
      expect(lines).toEqual([
        expect.stringMatching(
          /^warn POST \/api\/trava\/trava\/direto\/1: aborted by a concurrent transaction, answered 409 \(SQLSTATE 40P01: deadlock detected/,
        ),
      ]);
    });
  }

  it('a unique violation inside a mutation is a 409, not a 500', async () => {
    await reset();
    const res = await t.server.request('/api/trava/duplicado', { token, method: 'POST' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('conflict');
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
  });

  it('a 500 logs the database cause, not only "Failed query"', async () => {
    await reset();
    const res = await t.server.request('/api/trava/quebra', { token });
    expect(res.status).toBe(500);
    expect(lines).toEqual([expect.stringContaining('error GET /api/trava/quebra failed (SQLSTATE 42P01: relation "tabela_que_nao_existe" does not exist)')]);
  });
});
