// Issue 8: password hashing started by unauthenticated requests is bounded. At most `concurrency`
// hashes run (each scrypt takes 128 MiB and a libuv thread), at most `maxWaiting` wait; beyond that
// sign-in and reset answer 503 at once, so signed-in users keep being served. Deterministic: the
// hashes here are gates the test opens, no timing is measured.
import { describe, expect, it } from 'vitest';
import { HASH_QUEUE_FULL_MESSAGE, HashQueue, defaultHashConcurrency } from '../src/platform/passwords.js';
import { createTestServer } from '../src/testing.js';
import { addUser, adminInPrefeitura, errorOf } from './fixtures/users.js';

/** A job that runs until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let started = false;
  return {
    job: async () => {
      started = true;
      await opened;
    },
    open,
    get started() {
      return started;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HashQueue', () => {
  it('runs at most `concurrency` jobs, queues `maxWaiting` more, refuses the rest, in order', async () => {
    const queue = new HashQueue({ concurrency: 2, maxWaiting: 3 });
    const gates = Array.from({ length: 5 }, gate);
    const tickets = gates.map(() => queue.tryEnter());
    expect(tickets.every((ticket) => ticket !== null)).toBe(true);
    expect(queue.tryEnter()).toBeNull(); // 2 running + 3 waiting: full
    const done = tickets.map((ticket, i) => ticket!.run(gates[i]!.job));
    await tick();
    expect(gates.map((g) => g.started)).toEqual([true, true, false, false, false]);
    expect(queue.running).toBe(2);

    gates[1]!.open();
    await done[1];
    await tick();
    expect(gates.map((g) => g.started)).toEqual([true, true, true, false, false]);
    expect(queue.running).toBe(2);
    // one place freed: one more may enter, then it is full again
    const extra = queue.tryEnter();
    expect(extra).not.toBeNull();
    expect(queue.tryEnter()).toBeNull();
    extra!.release();
    extra!.release(); // idempotent
    expect(queue.tryEnter()).not.toBeNull();

    for (const g of gates) g.open();
    await Promise.all(done);
    expect(queue.running).toBe(0);
  });

  it('gives the place back when the job fails, and when the ticket is released unused', async () => {
    const queue = new HashQueue({ concurrency: 1, maxWaiting: 0 });
    const ticket = queue.tryEnter()!;
    expect(queue.tryEnter()).toBeNull();
    await expect(ticket.run(async () => Promise.reject(new Error('falhou')))).rejects.toThrow('falhou');
    const unused = queue.tryEnter()!;
    expect(unused).not.toBeNull();
    unused.release();
    expect(queue.tryEnter()).not.toBeNull();
  });

  it('run() (signed-in work: password change, rehash) waits its turn but is never refused', async () => {
    const queue = new HashQueue({ concurrency: 1, maxWaiting: 0 });
    const first = gate();
    const running = queue.tryEnter()!.run(first.job);
    await tick();
    let ran = false;
    const waiting = queue.run(async () => {
      ran = true;
    });
    await tick();
    expect(ran).toBe(false);
    first.open();
    await Promise.all([running, waiting]);
    expect(ran).toBe(true);
  });

  it('defaults: one core left for the event loop, one libuv thread left for fs and dns, at least 1', () => {
    expect(defaultHashConcurrency({ cores: 2, threadpool: 4 })).toBe(1);
    expect(defaultHashConcurrency({ cores: 4, threadpool: 4 })).toBe(3);
    expect(defaultHashConcurrency({ cores: 16, threadpool: 4 })).toBe(3);
    expect(defaultHashConcurrency({ cores: 16, threadpool: 8 })).toBe(7);
    expect(defaultHashConcurrency({ cores: 1, threadpool: 1 })).toBe(1);
  });
});

describe('sign-in and reset when the hash queue is full', () => {
  it('answer 503 with Retry-After and a pt-BR message, without counting an attempt; signed-in requests are served', async () => {
    const hashQueue = new HashQueue({ concurrency: 1, maxWaiting: 0 });
    const server = await createTestServer([], { hashQueue, recoverMinDurationMs: 0, trustProxy: true });
    try {
      await addUser(server, 'fila');
      const token = await adminInPrefeitura(server);
      // someone else's hash holds the only place
      const busy = gate();
      const holder = hashQueue.tryEnter()!.run(busy.job);
      await tick();

      const res = await server.request('/api/auth/signin', { json: { login: 'fila', senha: 'demo1234' }, headers: { 'x-forwarded-for': '10.7.0.1' } });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await errorOf(res)).toEqual({ code: 'busy', message: HASH_QUEUE_FULL_MESSAGE });
      expect(HASH_QUEUE_FULL_MESSAGE).toBe('Muitas tentativas de entrada em andamento. Tente novamente em instantes.');

      await server.request('/api/auth/recover', { json: { login: 'fila' } });
      const { items } = (await (await server.request('/api/auth/outbox?q=fila', { token })).json()) as { items: { body: string }[] };
      const link = /token=([A-Za-z0-9_-]+)/.exec(items[0]!.body)![1]!;
      const reset = await server.request('/api/auth/reset', { json: { token: link, senha: 'cavalo correto bateria grampo' } });
      expect(reset.status).toBe(503);
      expect(await errorOf(reset)).toEqual({ code: 'busy', message: HASH_QUEUE_FULL_MESSAGE });

      // a signed-in user is still served
      expect((await server.request('/api/session', { token })).status).toBe(200);
      // nothing was counted against the account or the address
      expect(await server.sql("SELECT key FROM login_attempts WHERE key IN ('conta:fila', 'ip:10.7.0.1')")).toEqual([]);

      busy.open();
      await holder;
      // the link was not spent by the 503
      expect((await server.request('/api/auth/reset', { json: { token: link, senha: 'cavalo correto bateria grampo' } })).status).toBe(204);
      expect((await server.request('/api/auth/signin', { json: { login: 'fila', senha: 'cavalo correto bateria grampo' } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
