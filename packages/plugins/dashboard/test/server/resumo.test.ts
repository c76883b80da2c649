import { DEMO, describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import dashboard from '../../src/server/index.js';
import { resumoSchema } from '../../src/shared/index.js';

describeEachDatabase('GET /api/dashboard/resumo', { plugins: [dashboard] }, (t) => {
  it('a user without tags sees only their own figures: no audit counters of the entidade, no user count', async () => {
    await t.server.request('/api/auth/signin', { json: { login: 'consulta', senha: 'errada' } });
    const first = await t.server.signIn('consulta', 'demo1234');
    const { token } = await t.server.signIn('consulta', 'demo1234');

    const res = await t.server.request('/api/dashboard/resumo', { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    const resumo = resumoSchema.parse(body);
    expect(resumo.usuario.nome).toBe(DEMO.consulta.nome);
    expect(resumo.entidade).toMatchObject({ nome: DEMO.prefeitura.nome, municipio: 'Jundiaí', uf: 'SP' });
    expect(resumo.dia).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // the entidade's audit activity (tag 90) and user count (tag 3 or 90) are absent, not zero
    expect(resumo.eventosHoje).toEqual({ meus: 2 });
    expect(body).not.toHaveProperty('usuariosDaEntidade');
    expect(JSON.stringify(body)).not.toMatch(/porAcao|entradas no sistema|Na entidade/);
    // the user's own previous access and failed attempts stay
    expect(resumo.ultimoAcesso).not.toBeNull();
    expect(resumo.tentativasFalhas).toBe(0); // the failure came before the previous access
    expect(resumo.cards.map((c) => c.id)).toEqual(['minhas-acoes-hoje', 'ultimo-acesso']);
    expect(first.token).not.toBe(token);
  });

  const setTags = async (login: string, tags: number[]) => {
    await t.server.sql(
      `UPDATE perfis SET tags = $2 WHERE id IN (SELECT ue.perfil_id FROM usuario_entidades ue JOIN usuarios u ON u.id = ue.usuario_id
        WHERE lower(u.login) = $1)`,
      [login, tags],
    );
  };

  it('holders of the audit tag (90) see the audit counters of the entidade and its user count', async () => {
    await setTags('consulta', [90]);
    try {
      const { token } = await t.server.signIn('consulta', 'demo1234');
      const resumo = resumoSchema.parse(await (await t.server.request('/api/dashboard/resumo', { token })).json());
      // three sign-ins of consulta in the Prefeitura today (the failed one has no entidade)
      expect(resumo.eventosHoje.porAcao).toEqual([{ acao: 'entrar', total: 3 }]);
      expect(resumo.eventosHoje).toMatchObject({ total: 3, meus: 3 });
      expect(resumo.usuariosDaEntidade).toBe(2); // admin and consulta
      expect(resumo.cards.map((c) => c.id)).toEqual(['eventos-hoje', 'minhas-acoes-hoje', 'usuarios', 'ultimo-acesso']);
      expect(resumo.cards[0]).toMatchObject({ value: 3, hint: 'Na entidade: 3 entradas no sistema.', tag: 90 });
    } finally {
      await setTags('consulta', []);
    }
  });

  it('holders of the users tag (3) see the user count but not the audit counters', async () => {
    await setTags('consulta', [3]);
    try {
      const { token } = await t.server.signIn('consulta', 'demo1234');
      const body = (await (await t.server.request('/api/dashboard/resumo', { token })).json()) as Record<string, unknown>;
      const resumo = resumoSchema.parse(body);
      expect(resumo.usuariosDaEntidade).toBe(2);
      expect(resumo.eventosHoje).toEqual({ meus: 4 });
      expect(resumo.cards.map((c) => c.id)).toEqual(['minhas-acoes-hoje', 'usuarios', 'ultimo-acesso']);
    } finally {
      await setTags('consulta', []);
    }
  });

  it('counts failed sign-ins since the previous access', async () => {
    await t.server.signIn('admin', 'demo1234', (await t.server.demoEntidades()).camara);
    await t.server.request('/api/auth/signin', { json: { login: 'admin', senha: 'errada' } });
    await t.server.request('/api/auth/signin', { json: { login: 'admin', senha: 'outra' } });
    const { token } = await t.server.signIn();
    const resumo = resumoSchema.parse(await (await t.server.request('/api/dashboard/resumo', { token })).json());
    expect(resumo.tentativasFalhas).toBe(2);
    expect(resumo.cards.find((c) => c.id === 'ultimo-acesso')?.hint).toBe('2 tentativas de entrada sem sucesso com seu login desde então.');
  });

  it('requires a session', async () => {
    expect((await t.server.request('/api/dashboard/resumo')).status).toBe(401);
  });

  it('is listed in the OpenAPI document with tag 0', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths['/api/dashboard/resumo']?.get?.['x-permission-tag']).toBe(0);
  });
});
