import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakePncp, startFakePncp } from '../src';
import { CNPJ, call, createPlan, items, LOGIN, login } from './helpers';

let fake: FakePncp;
let token: string;
beforeEach(async () => {
  fake = await startFakePncp();
  token = await login(fake);
});
afterEach(async () => {
  await fake.close();
});

const plan = `/v1/orgaos/${CNPJ}/pca/2027/1`;
const seqs = `/v1/orgaos/${CNPJ}/pca/1/2027/sequenciaisplano`;

describe('faults', () => {
  it("'429' answers Too Many Requests without Retry-After, then the call goes through", async () => {
    fake.fault({ route: 'POST /pca', kind: '429' });
    const first = await createPlan(fake, token, items(1, 1));
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBeNull();
    expect(fake.plans()).toEqual([]);
    expect((await createPlan(fake, token, items(1, 1))).status).toBe(201);
  });

  it("'429-retry-after' sends Retry-After in seconds", async () => {
    fake.fault({ route: 'GET', kind: '429-retry-after', retryAfterSeconds: 7 });
    fake.fault({ route: 'GET', kind: '429-retry-after' });
    const first = await call(fake, 'GET', seqs);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect((await call(fake, 'GET', seqs)).headers.get('retry-after')).toBe('1');
    expect((await call(fake, 'GET', seqs)).status).toBe(404);
  });

  it("'500' and '503' answer plain text and apply nothing; times repeats", async () => {
    fake.fault({ route: 'POST /pca', kind: '500' });
    fake.fault({ route: 'POST /pca', kind: '503', times: 2 });
    const first = await createPlan(fake, token, items(1, 1));
    expect(first.status).toBe(500);
    expect(first.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await first.text()).toBe('Erro interno do servidor.');
    const second = await createPlan(fake, token, items(1, 1));
    expect(second.status).toBe(503);
    expect(await second.text()).toBe('Serviço temporariamente indisponível.');
    expect((await createPlan(fake, token, items(1, 1))).status).toBe(503);
    expect(fake.plans()).toEqual([]);
    expect((await createPlan(fake, token, items(1, 1))).status).toBe(201);
  });

  it("'401' after one matching call hits the 2nd items batch and invalidates the token", async () => {
    await createPlan(fake, token, items(1, 10));
    fake.fault({ route: 'POST /itens', kind: '401', after: 1 });
    expect((await call(fake, 'POST', `${plan}/itens`, token, items(11, 20))).status).toBe(201);
    const second = await call(fake, 'POST', `${plan}/itens`, token, items(21, 30));
    expect(second.status).toBe(401);
    expect(second.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await second.text()).toBe('Token de acesso ausente, inválido ou expirado.');
    // The token is gone for good; a new login works.
    expect((await call(fake, 'POST', `${plan}/itens`, token, items(21, 30))).status).toBe(401);
    const fresh = await login(fake);
    expect((await call(fake, 'POST', `${plan}/itens`, fresh, items(21, 30))).status).toBe(201);
    expect(fake.plans()[0]?.itens).toHaveLength(30);
  });

  it("'401' on login refuses the credentials once", async () => {
    fake.fault({ route: 'login', kind: '401' });
    const res = await call(fake, 'POST', '/v1/usuarios/login', undefined, LOGIN);
    expect(res.status).toBe(401);
    expect(res.headers.get('authorization')).toBeNull();
    expect(await login(fake)).toMatch(/^Bearer /);
  });

  it("'malformed' answers a success status with an HTML page and applies nothing", async () => {
    fake.fault({ route: 'POST /pca', kind: 'malformed' });
    fake.fault({ route: 'GET', kind: 'malformed' });
    const res = await createPlan(fake, token, items(1, 1));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('location')).toBeNull();
    await expect(res.json()).rejects.toThrow();
    expect(fake.plans()).toEqual([]);
    const read = await call(fake, 'GET', seqs);
    expect(read.status).toBe(200);
    expect(await read.text()).toMatch(/^<!DOCTYPE html>/);
  });

  it("'delay' applies the call but answers only after delayMs of real time, so the client's timeout fires first", async () => {
    fake.fault({ route: 'POST /pca', kind: 'delay', delayMs: 1500 });
    const started = Date.now();
    await expect(createPlan(fake, token, items(1, 3), {}, { signal: AbortSignal.timeout(200) })).rejects.toThrow(/aborted|timeout/i);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(fake.plans()[0]?.itens).toHaveLength(3);
    // Without a client timeout, the answer comes after the delay.
    fake.fault({ route: 'GET', kind: 'delay', delayMs: 300 });
    const t0 = Date.now();
    const res = await call(fake, 'GET', seqs);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(await res.json()).toEqual({ sequencialPlano: 1, sequencialUltimoItemInserido: 3 });
  });

  it("'commit-drop' on POST /pca applies the plan, then drops the connection: fetch rejects", async () => {
    fake.fault({ route: 'POST /pca', kind: 'commit-drop' });
    await expect(createPlan(fake, token, items(1, 1000))).rejects.toThrow(TypeError);
    expect(fake.plans()).toHaveLength(1);
    expect(fake.plans()[0]?.itens).toHaveLength(1000);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'POST', status: 0, authenticated: true });
    // The client recovers the sequencial instead of creating a second plan (which would be a 422).
    expect(await (await call(fake, 'GET', seqs)).json()).toEqual({ sequencialPlano: 1, sequencialUltimoItemInserido: 1000 });
    expect((await createPlan(fake, token, items(1, 1))).status).toBe(422);
  });

  it("'commit-drop' on POST /itens applies the batch, then drops the connection", async () => {
    await createPlan(fake, token, items(1, 5));
    fake.fault({ route: 'POST /itens', kind: 'commit-drop' });
    await expect(call(fake, 'POST', `${plan}/itens`, token, items(6, 10))).rejects.toThrow(TypeError);
    expect(fake.plans()[0]?.itens).toHaveLength(10);
    expect(await (await call(fake, 'GET', seqs)).json()).toEqual({ sequencialPlano: 1, sequencialUltimoItemInserido: 10 });
    expect((await call(fake, 'POST', `${plan}/itens`, token, items(6, 10))).status).toBe(400);
  });

  it("matches '*' and the other write routes; clearFaults empties the queue", async () => {
    await createPlan(fake, token, items(1, 5));
    fake.fault({ route: 'PATCH /itens', kind: '503' });
    fake.fault({ route: 'DELETE /itens', kind: '500' });
    fake.fault({ route: 'DELETE /pca', kind: '429' });
    expect((await call(fake, 'PATCH', `${plan}/itens/1`, token, { quantidade: '1', justificativa: 'Ajuste.' })).status).toBe(503);
    expect((await call(fake, 'DELETE', `${plan}/itens`, token, { listaNumerosItens: [1], justificativa: 'x' })).status).toBe(500);
    expect((await call(fake, 'DELETE', plan, token, { justificativa: 'x' })).status).toBe(429);
    fake.fault({ route: '*', kind: '500', times: 2 });
    expect((await call(fake, 'GET', seqs)).status).toBe(500);
    expect((await call(fake, 'POST', '/v1/usuarios/login', undefined, LOGIN)).status).toBe(500);
    expect((await call(fake, 'GET', seqs)).status).toBe(200);
    fake.fault({ route: '*', kind: '500', times: 5 });
    fake.clearFaults();
    expect((await call(fake, 'GET', seqs)).status).toBe(200);
  });

  it('close() ends a pending delay', async () => {
    const other = await startFakePncp();
    other.fault({ route: 'GET', kind: 'delay', delayMs: 60_000 });
    const pending = fetch(`${other.url}/api/pncp/v1/catalogos`).then(
      (r) => r.status,
      () => 'rejected',
    );
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await other.close();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect([200, 'rejected']).toContain(await pending);
  });
});
