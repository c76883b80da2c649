// Issue 8: the sign-in limits hold whatever the concurrency. An attempt is reserved in the database
// (under a per-key lock) before the password is hashed, so concurrent guesses cannot all pass the
// check before the first failure is recorded.
import { expect, it } from 'vitest';
import { TOO_MANY_ATTEMPTS_MESSAGE } from '../src/index.js';
import { HashQueue } from '../src/platform/passwords.js';
import { type TestServer, createManualClock, describeEachDatabase } from '../src/testing.js';
import { addUser, errorOf } from './fixtures/users.js';

const clock = createManualClock();
const CONCURRENT = 30;

function signin(server: TestServer, login: string, senha: string, ip: string) {
  return server.request('/api/auth/signin', { json: { login, senha }, headers: { 'x-forwarded-for': ip } });
}

async function tally(responses: Response[]): Promise<{ ok: number; refused: number; blocked: number; other: number[] }> {
  const out = { ok: 0, refused: 0, blocked: 0, other: [] as number[] };
  for (const res of responses) {
    if (res.status === 200) out.ok++;
    else if (res.status === 401) out.refused++;
    else if (res.status === 429) {
      out.blocked++;
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await errorOf(res)).toEqual({ code: 'too_many_attempts', message: TOO_MANY_ATTEMPTS_MESSAGE });
    } else out.other.push(res.status);
  }
  return out;
}

// A hash queue long enough for every request of these tests: what is tested here is the throttle, not
// the queue (signin-hash-queue.test.ts). The per-address limit is lowered to 8 (each evaluated
// attempt costs a real 128 MiB scrypt on a shared machine); the account limit is the default 5.
describeEachDatabase(
  'sign-in throttling under concurrency',
  { clock, trustProxy: true, throttle: { ipMaxFailures: 8 }, hashQueue: new HashQueue({ concurrency: 2, maxWaiting: 100 }) },
  (t) => {
    it(`${CONCURRENT} concurrent wrong passwords at one login from one address: at most 5 are evaluated, the rest get 429; then the right one gets 429 too`, async () => {
      await addUser(t.server, 'concorrido');
      const wrong = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => signin(t.server, 'concorrido', `errada-${i}`, '10.8.0.1')));
      const right = await signin(t.server, 'concorrido', 'demo1234', '10.8.0.1');
      const counts = await tally(wrong);
      expect(counts.other).toEqual([]);
      expect(counts.ok).toBe(0);
      expect(counts.refused).toBeGreaterThanOrEqual(1);
      expect(counts.refused).toBeLessThanOrEqual(5);
      expect(counts.refused + counts.blocked).toBe(CONCURRENT);
      expect(right.status).toBe(429);
      const [counted] = await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM login_attempts WHERE key = 'conta:concorrido'");
      expect(counted!.n).toBeLessThanOrEqual(5);
      clock.advance(16 * 60_000);
    });

    it(`${CONCURRENT} concurrent unknown logins from one address: at most the per-address limit (8) are evaluated`, async () => {
      const results = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => signin(t.server, `ninguem-${i}`, 'x', '10.8.1.1')));
      const counts = await tally(results);
      expect(counts.other).toEqual([]);
      expect(counts.refused).toBeGreaterThanOrEqual(1);
      expect(counts.refused).toBeLessThanOrEqual(8);
      expect(counts.refused + counts.blocked).toBe(CONCURRENT);
      expect((await signin(t.server, 'admin', 'demo1234', '10.8.1.1')).status).toBe(429);
      expect((await signin(t.server, 'admin', 'demo1234', '10.8.1.2')).status).toBe(200);
      clock.advance(16 * 60_000);
    });

    it('a right password releases its reservation: sign-ins that succeed never use up the limits', async () => {
      await addUser(t.server, 'frequente');
      // 12 successful sign-ins from one address, 4 at a time (more than the 8 per address, the 5 per account)
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all([0, 1, 2, 3].map(() => signin(t.server, 'frequente', 'demo1234', '10.8.2.1')));
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      }
      const left = await t.server.sql<{ key: string }>("SELECT key FROM login_attempts WHERE key IN ('conta:frequente', 'ip:10.8.2.1')");
      expect(left).toEqual([]);
      // a failure after them is still only the first one
      expect((await signin(t.server, 'frequente', 'errada', '10.8.2.1')).status).toBe(401);
      expect((await signin(t.server, 'frequente', 'demo1234', '10.8.2.1')).status).toBe(200);
    });
  },
);
