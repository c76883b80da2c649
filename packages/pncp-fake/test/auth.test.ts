import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakePncp, startFakePncp } from '../src';
import { CNPJ, call, createPlan, items, LOGIN, login } from './helpers';

let fake: FakePncp;
beforeEach(async () => {
  fake = await startFakePncp();
});
afterEach(async () => {
  await fake.close();
});

describe('login', () => {
  it('answers 200 with an empty body, the token in the authorization header and expires in ms', async () => {
    const res = await call(fake, 'POST', '/v1/usuarios/login', undefined, LOGIN);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('authorization')).toMatch(/^Bearer [A-Za-z0-9_-]{40,}$/);
    expect(res.headers.get('expires')).toBe('3600000');
    const again = await login(fake);
    expect(again).not.toBe(res.headers.get('authorization'));
  });

  it('refuses wrong credentials with 401 plain text, and a missing field with 400 erros[]', async () => {
    const wrong = await call(fake, 'POST', '/v1/usuarios/login', undefined, { login: LOGIN.login, senha: 'outra-senha-qualquer' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await wrong.text()).toBe('Usuário ou senha inválidos.');
    expect(wrong.headers.get('authorization')).toBeNull();

    const missing = await call(fake, 'POST', '/v1/usuarios/login', undefined, { login: LOGIN.login });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ erros: [{ nomeCampo: 'senha', mensagem: 'Senha é obrigatória (até 255 caracteres).' }] });
  });

  it('accepts the configured users only', async () => {
    const other = await startFakePncp({ users: [{ login: 'outra', senha: 'Outra-Senha-Longa-2026' }] });
    try {
      await expect(login(other)).rejects.toThrow('login: 401');
      expect(await login(other, { login: 'outra', senha: 'Outra-Senha-Longa-2026' })).toMatch(/^Bearer /);
    } finally {
      await other.close();
    }
  });
});

describe('token', () => {
  it('expires by the fake clock: writes answer 401 plain text after tokenTtlMs', async () => {
    const token = await login(fake);
    const ok = await createPlan(fake, token, items(1, 1));
    expect(ok.status).toBe(201);

    fake.clock.advance(3_600_000 - 1);
    expect((await call(fake, 'POST', `/v1/orgaos/${CNPJ}/pca/2027/1/itens`, token, items(2, 2))).status).toBe(201);

    fake.clock.advance(1);
    const expired = await call(fake, 'POST', `/v1/orgaos/${CNPJ}/pca/2027/1/itens`, token, items(3, 3));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await expired.text()).toBe('Token de acesso ausente, inválido ou expirado.');
    expect(fake.plans()[0]?.itens.map((i) => i.numeroItem)).toEqual([1, 2]);
  });

  it('honours tokenTtlMs and an injected clock', async () => {
    let now = 1_000_000;
    const short = await startFakePncp({ tokenTtlMs: 1000, now: () => now });
    try {
      const res = await call(short, 'POST', '/v1/usuarios/login', undefined, LOGIN);
      expect(res.headers.get('expires')).toBe('1000');
      const token = res.headers.get('authorization') as string;
      now += 999;
      expect((await createPlan(short, token, items(1, 1))).status).toBe(201);
      now += 1;
      expect((await call(short, 'DELETE', `/v1/orgaos/${CNPJ}/pca/2027/1`, token, { justificativa: 'Teste' })).status).toBe(401);
      expect(short.clock.now()).toBe(1_001_000);
      short.clock.advance(5);
      expect(short.clock.now()).toBe(1_001_005);
    } finally {
      await short.close();
    }
  });

  it('answers 401 plain text to a write without a token or with an unknown one; reads need none', async () => {
    const none = await createPlan(fake, '', items(1, 1));
    expect(none.status).toBe(401);
    expect(await none.text()).toBe('Token de acesso ausente, inválido ou expirado.');
    const unknown = await createPlan(fake, 'Bearer inventado', items(1, 1));
    expect(unknown.status).toBe(401);
    for (const [method, path] of [
      ['PATCH', '/pca/2027/1/itens/1'],
      ['PATCH', '/pca/2027/1/itens'],
      ['DELETE', '/pca/2027/1/itens/1'],
      ['DELETE', '/pca/2027/1/itens'],
      ['DELETE', '/pca/2027/1'],
    ] as const) {
      expect((await call(fake, method, `/v1/orgaos/${CNPJ}${path}`, undefined, { justificativa: 'x' })).status).toBe(401);
    }
    expect(fake.plans()).toEqual([]);
    const read = await call(fake, 'GET', `/v1/orgaos/${CNPJ}/pca/1/2027/sequenciaisplano`);
    expect(read.status).toBe(404);
  });
});

describe('calls', () => {
  it('records every request without the token or the password', async () => {
    const token = await login(fake);
    await createPlan(fake, token, items(1, 2));
    await call(fake, 'GET', `/v1/orgaos/${CNPJ}/pca/2027/1/itens?pagina=1&tamanhoPagina=10`);
    await createPlan(fake, 'Bearer inventado', items(1, 1));
    expect(fake.calls.map(({ method, path, status, authenticated }) => ({ method, path, status, authenticated }))).toEqual([
      { method: 'POST', path: '/api/pncp/v1/usuarios/login', status: 200, authenticated: false },
      { method: 'POST', path: `/api/pncp/v1/orgaos/${CNPJ}/pca`, status: 201, authenticated: true },
      { method: 'GET', path: `/api/pncp/v1/orgaos/${CNPJ}/pca/2027/1/itens?pagina=1&tamanhoPagina=10`, status: 200, authenticated: false },
      { method: 'POST', path: `/api/pncp/v1/orgaos/${CNPJ}/pca`, status: 401, authenticated: false },
    ]);
    expect(fake.calls.every((c) => c.at === fake.clock.now())).toBe(true);
    const dump = JSON.stringify(fake.calls);
    expect(dump).not.toContain(token.slice('Bearer '.length));
    expect(dump).not.toContain(LOGIN.senha);
    expect(dump).not.toContain('Bearer');
  });
});
