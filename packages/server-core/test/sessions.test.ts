import { expect, it } from 'vitest';
import { SENHA_MESSAGES, SESSION_EXPIRED_MESSAGE } from '../src/index.js';
import { type TestServer, createManualClock, describeEachDatabase } from '../src/testing.js';
import { addUser, errorOf, tokenPayload } from './fixtures/users.js';

const clock = createManualClock();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function refresh(server: TestServer, token: string): Promise<string> {
  const res = await server.request('/api/auth/refresh', { method: 'POST', token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const session = (server: TestServer, token: string) => server.request('/api/session', { token });

describeEachDatabase('sessions: token lifetime, refresh, idle and absolute expiry', { clock }, (t) => {
  it('an access token lasts 15 minutes; /api/auth/refresh gives a new one for the same session', async () => {
    const { token } = await t.server.signIn();
    const first = tokenPayload(token);
    expect(first.exp - first.iat).toBe(15 * 60);
    expect(first.iat).toBe(Math.floor(clock.now() / 1000));

    clock.advance(10 * MINUTE);
    const renewed = await refresh(t.server, token);
    const second = tokenPayload(renewed);
    expect(second.sid).toBe(first.sid);
    expect(second.sub).toBe(first.sub);
    expect(second.ent).toBe(first.ent);
    expect(second.iat).toBe(first.iat + 10 * 60);
    expect(second.exp).toBe(second.iat + 15 * 60);

    clock.advance(5 * MINUTE);
    const old = await session(t.server, token);
    expect(old.status).toBe(401);
    expect((await errorOf(old)).message).toBe('Sua sessão expirou. Entre novamente.');
    expect((await session(t.server, renewed)).status).toBe(200);
    // an expired token cannot be refreshed
    expect((await t.server.request('/api/auth/refresh', { method: 'POST', token })).status).toBe(401);
  });

  it('a session unused for 30 minutes is over, even if its token was refreshed (refreshing is not activity)', async () => {
    const { token } = await t.server.signIn();
    clock.advance(14 * MINUTE);
    const t2 = await refresh(t.server, token);
    clock.advance(14 * MINUTE);
    const t3 = await refresh(t.server, t2);
    clock.advance(2 * MINUTE + 1000);
    const res = await session(t.server, t3);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toEqual({ code: 'unauthorized', message: SESSION_EXPIRED_MESSAGE });
    const again = await t.server.request('/api/auth/refresh', { method: 'POST', token: t3 });
    expect(again.status).toBe(401);
    expect((await errorOf(again)).message).toBe(SESSION_EXPIRED_MESSAGE);
  });

  it('any other request is activity and keeps the session alive', async () => {
    const { token } = await t.server.signIn();
    clock.advance(14 * MINUTE);
    expect((await session(t.server, token)).status).toBe(200);
    const t2 = await refresh(t.server, token);
    clock.advance(14 * MINUTE);
    const t3 = await refresh(t.server, t2);
    clock.advance(12 * MINUTE); // 40 minutes after sign-in, 26 after the last request
    expect((await session(t.server, t3)).status).toBe(200);
  });

  it('writes last_seen_at at most once a minute', async () => {
    const { token } = await t.server.signIn();
    const { sid } = tokenPayload(token);
    const lastSeen = async () =>
      new Date((await t.server.sql<{ last_seen_at: string | Date }>('SELECT last_seen_at FROM sessoes WHERE id = $1', [sid]))[0]!.last_seen_at).getTime();
    const signedInAt = clock.now();
    expect(await lastSeen()).toBe(signedInAt);
    clock.advance(30_000);
    await session(t.server, token);
    expect(await lastSeen()).toBe(signedInAt);
    clock.advance(31_000);
    await session(t.server, token);
    expect(await lastSeen()).toBe(clock.now());
  });

  it('a session ends 12 hours after the password sign-in however active it is; switching entidade and refreshing never extend it', async () => {
    const { token, entidades } = await t.server.signIn();
    const signedInAt = Math.floor(clock.now() / 1000);
    let current = token;
    for (let elapsed = 0; elapsed < 6 * HOUR; elapsed += 14 * MINUTE) {
      clock.advance(14 * MINUTE);
      expect((await session(t.server, current)).status).toBe(200);
      current = await refresh(t.server, current);
    }
    // switching entidade opens a new session that keeps the original sign-in time
    const other = entidades.find((e) => e.id !== tokenPayload(current).ent)!;
    const switched = await t.server.request('/api/auth/entidade', { token: current, json: { entidadeId: other.id } });
    expect(switched.status).toBe(200);
    current = ((await switched.json()) as { token: string }).token;
    while (clock.now() / 1000 < signedInAt + 12 * 3600 - 14 * 60) {
      clock.advance(14 * MINUTE);
      expect((await session(t.server, current)).status).toBe(200);
      current = await refresh(t.server, current);
    }
    // the last tokens end exactly at the session's absolute end
    expect(tokenPayload(current).exp).toBe(signedInAt + 12 * 3600);
    clock.set((signedInAt + 12 * 3600 + 1) * 1000);
    // even a token signed to outlive it is refused by the server-side session
    const claims = tokenPayload(current);
    const long = await t.server.signToken({ sub: claims.sub, ent: claims.ent, sid: claims.sid }, 3600);
    const res = await session(t.server, long);
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toBe(SESSION_EXPIRED_MESSAGE);
    expect((await t.server.request('/api/auth/refresh', { method: 'POST', token: long })).status).toBe(401);
  });
});

describeEachDatabase("changing one's own password", { clock }, (t) => {
  it('ends the other sessions of the user and keeps the current one', async () => {
    await addUser(t.server, 'joana');
    const current = await t.server.signIn('joana', 'demo1234');
    const other = await t.server.signIn('joana', 'demo1234');
    const admin = await t.server.signIn();
    const res = await t.server.request('/api/auth/password', {
      token: current.token,
      json: { senhaAtual: 'demo1234', novaSenha: 'uma frase nova e comprida' },
    });
    expect(res.status).toBe(204);
    expect((await session(t.server, current.token)).status).toBe(200);
    const ended = await session(t.server, other.token);
    expect(ended.status).toBe(401);
    expect((await errorOf(ended)).message).toBe('Sessão encerrada. Entre novamente.');
    expect((await session(t.server, admin.token)).status).toBe(200);
    expect((await t.server.request('/api/auth/signin', { json: { login: 'joana', senha: 'demo1234' } })).status).toBe(401);
    await t.server.signIn('joana', 'uma frase nova e comprida');
    const [audit] = await t.server.sql<{ depois: unknown }>("SELECT depois FROM audit_log WHERE acao = 'senha_alterada'");
    expect(audit!.depois).toEqual({ sessoesEncerradas: 1 });
  });

  it('applies the password policy to the new password', async () => {
    await addUser(t.server, 'kleber');
    const { token } = await t.server.signIn('kleber', 'demo1234');
    const change = (novaSenha: string) => t.server.request('/api/auth/password', { token, json: { senhaAtual: 'demo1234', novaSenha } });
    const cases: [string, string][] = [
      ['1234567', SENHA_MESSAGES.curta],
      ['12345678', SENHA_MESSAGES.comum],
      ['brasil123', SENHA_MESSAGES.comum],
      ['PASSWORD', SENHA_MESSAGES.comum],
      ['kleber', SENHA_MESSAGES.curta],
      ['KLEBER  ', SENHA_MESSAGES.igualLogin],
      ['demo1234', 'A nova senha deve ser diferente da atual.'],
      ['y'.repeat(129), SENHA_MESSAGES.longa],
    ];
    for (const [novaSenha, message] of cases) {
      const res = await change(novaSenha);
      expect(res.status, novaSenha).toBe(400);
      expect((await errorOf(res)).fields, novaSenha).toEqual({ novaSenha: message });
    }
    const long = 'z'.repeat(64);
    expect((await change(long)).status).toBe(204);
    await t.server.signIn('kleber', long);
  });

  it('a wrong current password is a 400 on senhaAtual (a 401 would sign the user out) and counts toward the account limit', async () => {
    await addUser(t.server, 'lara');
    const { token } = await t.server.signIn('lara', 'demo1234');
    for (let i = 0; i < 5; i++) {
      const res = await t.server.request('/api/auth/password', { token, json: { senhaAtual: 'errada', novaSenha: 'cavalo correto bateria grampo' } });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).fields).toEqual({ senhaAtual: 'Senha atual incorreta.' });
    }
    const blocked = await t.server.request('/api/auth/password', { token, json: { senhaAtual: 'demo1234', novaSenha: 'cavalo correto bateria grampo' } });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('900');
    expect((await session(t.server, token)).status).toBe(200);
  });
});
