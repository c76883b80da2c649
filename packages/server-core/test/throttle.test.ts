import { expect, it } from 'vitest';
import { DEFAULT_THROTTLE, TOO_MANY_ATTEMPTS_MESSAGE } from '../src/index.js';
import { type TestServer, createManualClock, describeEachDatabase } from '../src/testing.js';
import { addUser, adminInPrefeitura, errorOf } from './fixtures/users.js';

const clock = createManualClock();
const MINUTE = 60_000;

function signin(server: TestServer, login: string, senha: string, ip: string) {
  return server.request('/api/auth/signin', { json: { login, senha }, headers: { 'x-forwarded-for': ip } });
}

async function expectThrottled(res: Response, retryAfter: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  expect(await errorOf(res)).toEqual({ code: 'too_many_attempts', message: TOO_MANY_ATTEMPTS_MESSAGE });
}

it('defaults: 5 failures per account, 20 per address, 20 recovery requests per address, in 15 minutes', () => {
  expect(DEFAULT_THROTTLE).toEqual({ accountMaxFailures: 5, ipMaxFailures: 20, recoverMaxPerIp: 20, windowMs: 15 * MINUTE });
});

// The per-address sign-in limit is lowered to 8 here: every failure costs a real scrypt verification.
// The account limit, the window and the /recover limit are the defaults.
describeEachDatabase('sign-in throttling', { clock, trustProxy: true, recoverMinDurationMs: 0, throttle: { ipMaxFailures: 8 } }, (t) => {
  it('after 5 failures of one account even the right password, from any address, gets 429 until the window frees up', async () => {
    await addUser(t.server, 'alvo');
    for (let i = 1; i <= 5; i++) {
      const res = await signin(t.server, 'alvo', `errada-${i}`, `10.0.0.${i}`);
      expect(res.status, `failure ${i}`).toBe(401);
    }
    await expectThrottled(await signin(t.server, 'ALVO', 'demo1234', '10.0.0.99'), 15 * 60);
    clock.advance(10 * MINUTE);
    // refused attempts are not counted: the block still ends 15 minutes after the failures
    await expectThrottled(await signin(t.server, 'alvo', 'demo1234', '10.0.0.98'), 5 * 60);
    clock.advance(5 * MINUTE);
    expect((await signin(t.server, 'alvo', 'demo1234', '10.0.0.97')).status).toBe(200);

    const audit = await t.server.sql<{ acao: string; depois: { login: string; limite?: string } }>(
      "SELECT acao, depois FROM audit_log WHERE depois->>'login' IN ('alvo', 'ALVO') AND acao LIKE 'entrar%' ORDER BY id",
    );
    expect(audit.map((r) => r.acao)).toEqual([...Array(5).fill('entrar_falhou'), 'entrar_bloqueado', 'entrar_bloqueado']);
    expect(audit[5]!.depois.limite).toBe('conta');
  });

  it('counts unknown logins the same way (a 429 says nothing about the account)', async () => {
    for (let i = 0; i < 5; i++) expect((await signin(t.server, 'fantasma', 'x', '10.0.1.1')).status).toBe(401);
    await expectThrottled(await signin(t.server, 'fantasma', 'x', '10.0.1.2'), 15 * 60);
  });

  it('a successful sign-in clears the account counter', async () => {
    await addUser(t.server, 'alvo2');
    for (let i = 0; i < 4; i++) expect((await signin(t.server, 'alvo2', 'errada', '10.0.2.1')).status).toBe(401);
    expect((await signin(t.server, 'alvo2', 'demo1234', '10.0.2.2')).status).toBe(200);
    // without the reset this would be the 5th failure, and the next attempt a 429
    expect((await signin(t.server, 'alvo2', 'errada', '10.0.2.3')).status).toBe(401);
    expect((await signin(t.server, 'alvo2', 'demo1234', '10.0.2.3')).status).toBe(200);
  });

  it('after the per-address limit of failures that address gets 429 for every account; other addresses do not', async () => {
    const ip = '10.0.3.1';
    for (let batch = 0; batch < 2; batch++) {
      const results = await Promise.all([0, 1, 2, 3].map((i) => signin(t.server, `desconhecido-${batch}-${i}`, 'x', ip)));
      expect(results.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    }
    const blocked = await signin(t.server, 'admin', 'demo1234', ip);
    await expectThrottled(blocked, 15 * 60);
    const [row] = await t.server.sql<{ depois: { limite: string } }>("SELECT depois FROM audit_log WHERE acao = 'entrar_bloqueado' ORDER BY id DESC LIMIT 1");
    expect(row!.depois.limite).toBe('ip');
    expect((await signin(t.server, 'admin', 'demo1234', '10.0.3.2')).status).toBe(200);
    clock.advance(15 * MINUTE);
    expect((await signin(t.server, 'admin', 'demo1234', ip)).status).toBe(200);
  });

  it('limits /recover to 20 requests per address in 15 minutes, with Retry-After', async () => {
    const ip = '10.0.4.1';
    const recover = (from: string) => t.server.request('/api/auth/recover', { json: { login: 'ninguem' }, headers: { 'x-forwarded-for': from } });
    for (let i = 0; i < 20; i++) expect((await recover(ip)).status).toBe(202);
    await expectThrottled(await recover(ip), 15 * 60);
    expect((await recover('10.0.4.2')).status).toBe(202);
    clock.advance(15 * MINUTE);
    expect((await recover(ip)).status).toBe(202);
    const rows = await t.server.sql("SELECT 1 FROM audit_log WHERE acao = 'recuperar_senha_bloqueado'");
    expect(rows).toHaveLength(1);
  });

  it('counts the address the trusted proxy added (the last X-Forwarded-For entry), so forged entries do not help', async () => {
    const recover = (forwardedFor: string) =>
      t.server.request('/api/auth/recover', { json: { login: 'ninguem' }, headers: { 'x-forwarded-for': forwardedFor } });
    for (let i = 0; i < 20; i++) expect((await recover(`203.0.113.${i}, 10.0.7.1`)).status).toBe(202);
    expect((await recover('198.51.100.1, 10.0.7.1')).status).toBe(429);
    expect((await recover('10.0.7.1, 10.0.7.2')).status).toBe(202);
  });

  it('a password reset clears the account counter', async () => {
    await addUser(t.server, 'alvo3');
    for (let i = 0; i < 5; i++) await signin(t.server, 'alvo3', 'errada', '10.0.5.1');
    expect((await signin(t.server, 'alvo3', 'demo1234', '10.0.5.2')).status).toBe(429);
    await t.server.request('/api/auth/recover', { json: { login: 'alvo3' }, headers: { 'x-forwarded-for': '10.0.5.2' } });
    const token = await adminInPrefeitura(t.server);
    const { items } = (await (await t.server.request('/api/auth/outbox?q=alvo3', { token })).json()) as { items: { body: string }[] };
    const link = /token=([A-Za-z0-9_-]+)/.exec(items[0]!.body)![1]!;
    expect((await t.server.request('/api/auth/reset', { json: { token: link, senha: 'cavalo correto bateria grampo' } })).status).toBe(204);
    expect((await signin(t.server, 'alvo3', 'cavalo correto bateria grampo', '10.0.5.2')).status).toBe(200);
  });

  it('forgets attempts older than the window', async () => {
    clock.advance(16 * MINUTE);
    await signin(t.server, 'limpeza', 'x', '10.0.6.1');
    const [old] = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM login_attempts WHERE at < $1', [new Date(clock.now() - 15 * MINUTE)]);
    expect(old!.n).toBe(0);
  });
});
