import { DEMO, describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import dashboard from '../../src/server/index.js';
import { resumoSchema } from '../../src/shared/index.js';

describeEachDatabase('GET /api/dashboard/resumo', { plugins: [dashboard] }, (t) => {
  it('summarises the day of the current entidade for any signed-in user', async () => {
    await t.server.request('/api/auth/signin', { json: { login: 'consulta', senha: 'errada' } });
    const first = await t.server.signIn('consulta', 'demo1234');
    const { token } = await t.server.signIn('consulta', 'demo1234');

    const res = await t.server.request('/api/dashboard/resumo', { token });
    expect(res.status).toBe(200);
    const resumo = resumoSchema.parse(await res.json());
    expect(resumo.usuario.nome).toBe(DEMO.consulta.nome);
    expect(resumo.entidade).toMatchObject({ nome: DEMO.prefeitura.nome, municipio: 'Jundiaí', uf: 'SP' });
    expect(resumo.dia).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // two sign-ins of consulta in the Prefeitura today (the failed one has no entidade)
    expect(resumo.eventosHoje.porAcao).toEqual([{ acao: 'entrar', total: 2 }]);
    expect(resumo.eventosHoje).toMatchObject({ total: 2, meus: 2 });
    expect(resumo.usuariosDaEntidade).toBe(2); // admin and consulta
    expect(resumo.ultimoAcesso).not.toBeNull();
    expect(resumo.tentativasFalhas).toBe(0); // the failure came before the previous access
    expect(resumo.cards.map((c) => c.id)).toEqual(['eventos-hoje', 'minhas-acoes-hoje', 'usuarios', 'ultimo-acesso']);
    expect(resumo.cards[0]).toMatchObject({ value: 2, hint: 'Na entidade: 2 entradas no sistema.' });
    expect(first.token).not.toBe(token);
  });

  it('counts failed sign-ins since the previous access', async () => {
    await t.server.signIn('admin', 'demo1234', (await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj]))[0]!.id);
    await t.server.request('/api/auth/signin', { json: { login: 'admin', senha: 'errada' } });
    await t.server.request('/api/auth/signin', { json: { login: 'admin', senha: 'outra' } });
    const { token } = await t.server.signIn();
    const resumo = resumoSchema.parse(await (await t.server.request('/api/dashboard/resumo', { token })).json());
    expect(resumo.tentativasFalhas).toBe(2);
    expect(resumo.cards[3]!.hint).toBe('2 tentativa(s) de entrada sem sucesso com seu login desde então.');
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
