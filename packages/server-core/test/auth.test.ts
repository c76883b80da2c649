import { expect, it } from 'vitest';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { testPlugin } from './fixtures/test-plugin.js';

describeEachDatabase('auth and session', { plugins: [testPlugin] }, (t) => {
  it('signs in with the demo admin and lists both entidades', async () => {
    const res = await t.server.request('/api/auth/signin', { json: { login: 'admin', senha: 'demo1234' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; entidades: { id: string; nome: string }[] };
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.entidades.map((e) => e.nome).sort()).toEqual([DEMO.camara.nome, DEMO.prefeitura.nome].sort());
    const payload = JSON.parse(Buffer.from(body.token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(['ent', 'exp', 'iat', 'sid', 'sub']);
    expect(payload.exp).toBe((payload.iat as number) + 900); // 15 minutes by default
    expect(typeof payload.sub).toBe('string');
  });

  it('accepts the login in any case', async () => {
    const res = await t.server.request('/api/auth/signin', { json: { login: 'ADMIN', senha: 'demo1234' } });
    expect(res.status).toBe(200);
  });

  it('answers 401 invalid_credentials for a wrong password or an unknown login, and audits it', async () => {
    for (const json of [
      { login: 'admin', senha: 'errada' },
      { login: 'ninguem', senha: 'demo1234' },
    ]) {
      const res = await t.server.request('/api/auth/signin', { json });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'invalid_credentials', message: 'Login ou senha inválidos.' } });
    }
    const rows = await t.server.sql<{ depois: { login: string; motivo: string } }>("SELECT depois FROM audit_log WHERE acao = 'entrar_falhou' ORDER BY id");
    expect(rows.map((r) => r.depois)).toEqual([
      { login: 'admin', motivo: 'senha_incorreta' },
      { login: 'ninguem', motivo: 'login_inexistente' },
    ]);
  });

  it('answers 400 with pt-BR field messages for a bad body', async () => {
    const res = await t.server.request('/api/auth/signin', { json: { login: '', entidadeId: 'x' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; fields: Record<string, string> } };
    expect(body.error.code).toBe('validation_error');
    expect(body.error.fields).toEqual({
      login: 'Informe o login.',
      senha: 'Campo obrigatório.',
      entidadeId: 'Entidade inválida.',
    });
    const notJson = await t.server.request('/api/auth/signin', {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  it('returns the session: user, entidade, entidades, tags and config', async () => {
    const { token, entidades } = await t.server.signIn();
    const prefeitura = entidades.find((e) => e.nome === DEMO.prefeitura.nome)!;
    const switched = await t.server.request('/api/auth/entidade', { token, json: { entidadeId: prefeitura.id } });
    expect(switched.status).toBe(200);
    const { token: token2 } = (await switched.json()) as { token: string };
    const res = await t.server.request('/api/session', { token: token2 });
    expect(res.status).toBe(200);
    const session = (await res.json()) as {
      user: Record<string, unknown>;
      entidade: Record<string, unknown>;
      entidades: unknown[];
      tags: number[];
      config: Record<string, unknown>;
    };
    expect(session.user).toMatchObject({ nome: DEMO.admin.nome, login: 'admin', email: DEMO.admin.email });
    expect(Object.keys(session.user).sort()).toEqual(['email', 'id', 'login', 'nome']);
    expect(session.entidade).toEqual({
      id: prefeitura.id,
      nome: DEMO.prefeitura.nome,
      cnpj: DEMO.prefeitura.cnpj,
      municipio: 'Jundiaí',
      uf: 'SP',
      telefoneSuporte: '(11) 4002-8922',
    });
    expect(session.entidades).toHaveLength(2);
    expect(session.tags).toEqual(expect.arrayContaining([3, 24, 29, 39, 73]));
    expect(session.config).toEqual({
      appName: 'Compras',
      supportPhone: '(11) 4002-8922',
      buildId: t.server.buildId,
      devtools: { policy: 'report' },
    });
    // the old token's session was closed by the switch
    expect((await t.server.request('/api/session', { token })).status).toBe(401);
    // the next sign-in starts in the entidade worked in last, and says which one it is
    const again = await t.server.request('/api/auth/signin', { json: { login: DEMO.admin.login, senha: DEMO.senha } });
    const body = (await again.json()) as { token: string; entidadeId: string };
    expect(body.entidadeId).toBe(prefeitura.id);
    const payload = JSON.parse(Buffer.from(body.token.split('.')[1]!, 'base64url').toString()) as { ent: string };
    expect(payload.ent).toBe(prefeitura.id);
  });

  it('gives the consulta user no tags (only exempt ones apply)', async () => {
    const { token } = await t.server.signIn('consulta', 'demo1234');
    const session = (await (await t.server.request('/api/session', { token })).json()) as { tags: number[] };
    expect(session.tags).toEqual([]);
  });

  it('refuses a missing, malformed, badly signed or expired token with 401', async () => {
    expect((await t.server.request('/api/session')).status).toBe(401);
    expect((await t.server.request('/api/session', { token: 'abc' })).status).toBe(401);
    const { token } = await t.server.signIn();
    const [h, p, s] = token.split('.');
    const forged = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await t.server.request('/api/session', { token: forged })).status).toBe(401);

    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { sub: string; ent: string; sid: string };
    const past = Math.floor(Date.now() / 1000) - 10_000;
    const expired = await t.server.signToken(claims, 60, past);
    const res = await t.server.request('/api/session', { token: expired });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'Sua sessão expirou. Entre novamente.' } });
    // the same claims, not expired, are accepted: only the expiry made the difference
    expect((await t.server.request('/api/session', { token: await t.server.signToken(claims, 60) })).status).toBe(200);
  });

  it('revokes the session on signout (the token stops working) and audits both', async () => {
    const { token } = await t.server.signIn();
    expect((await t.server.request('/api/session', { token })).status).toBe(200);
    const out = await t.server.request('/api/auth/signout', { method: 'POST', token });
    expect(out.status).toBe(204);
    const after = await t.server.request('/api/session', { token });
    expect(after.status).toBe(401);
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    const rows = await t.server.sql<{ acao: string }>('SELECT acao FROM audit_log WHERE registro = $1 ORDER BY id', [sid]);
    expect(rows.map((r) => r.acao)).toEqual(['entrar', 'sair']);
  });

  it('refuses switching to an entidade the user does not belong to', async () => {
    const { token } = await t.server.signIn('consulta', 'demo1234');
    const ents = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj]);
    const res = await t.server.request('/api/auth/entidade', { token, json: { entidadeId: ents[0]!.id } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({
      entidadeId: 'Você não tem acesso a esta entidade.',
    });
  });

  it('records devtools reports (204, audited)', async () => {
    const { token } = await t.server.signIn();
    const res = await t.server.request('/api/devtools', { token, json: { open: true, route: '/memorando', pagina: 'Memorandos' } });
    expect(res.status).toBe(204);
    // without a title (another client), the address with its ids left out: the Logs never show a raw id
    const id = '0b6a74d5-d4db-4789-a6cb-a4685b126da3';
    expect((await t.server.request('/api/devtools', { token, json: { open: true, route: `/produtos/edit/${id}` } })).status).toBe(204);
    const rows = await t.server.sql<{ depois: unknown }>("SELECT depois FROM audit_log WHERE acao = 'devtools_aberto' ORDER BY id");
    expect(rows.map((r) => r.depois)).toEqual([{ pagina: 'Memorandos' }, { pagina: '/produtos/edit/…' }]);
  });

  it('answers health and version publicly', async () => {
    expect(await (await t.server.request('/api/health')).json()).toEqual({ status: 'ok' });
    expect(await (await t.server.request('/api/version')).json()).toEqual({ buildId: t.server.buildId, version: '1.0.0' });
    expect(t.server.buildId).toMatch(/^[0-9a-f]{12}$/);
  });
});
