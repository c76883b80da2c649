import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import { serverPlugins } from '../src/app.js';

describeEachDatabase('the composed Compras server', { plugins: serverPlugins }, (t) => {
  it('enables every listed plugin, with their routes in the OpenAPI document', async () => {
    expect([...t.server.plugins.map((p) => p.id)].sort()).toEqual(serverPlugins.map((p) => p.id).sort());
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths['/api/dashboard/resumo']?.get?.['x-permission-tag']).toBe(0);
    expect(doc.paths['/api/about/versions']?.get?.['x-permission-tag']).toBe(0);
  });

  it('gives the demo Administrador every plugin tag plus 3, 24, 29, 39 and 73', async () => {
    const declared = serverPlugins.flatMap((p) => p.tags.map((x) => x.tag));
    const { token } = await t.server.signIn();
    const session = (await (await t.server.request('/api/session', { token })).json()) as { tags: number[] };
    expect(session.tags).toEqual(expect.arrayContaining([0, 3, 24, 29, 39, 73, ...declared]));
  });

  it('answers the plugin routes for a signed-in user', async () => {
    const { token } = await t.server.signIn('consulta', 'demo1234');
    const resumo = await t.server.request('/api/dashboard/resumo', { token });
    expect(resumo.status).toBe(200);
    const versions = (await (await t.server.request('/api/about/versions', { token })).json()) as {
      core: string;
      plugins: { id: string }[];
    };
    expect(versions.plugins.map((p) => p.id).sort()).toEqual(serverPlugins.map((p) => p.id).sort());
  });

  it('gives the demo people of the Prefeitura the reports and the analysis by their role, never to the requisitante', async () => {
    const { prefeitura } = await t.server.demoEntidades();
    const perfis = await t.server.sql<{ nome: string; tags: number[] }>('SELECT nome, tags FROM perfis WHERE entidade_id = $1 ORDER BY nome', [prefeitura]);
    const com = (tag: number) => perfis.filter((p) => p.tags.includes(tag)).map((p) => p.nome);
    // 105 Relatórios, 106 Análise de consumo e preços
    expect(com(105)).toEqual(['Administrador', 'Aprovador', 'Auditor', 'Autoridade competente', 'Chefia', 'Comprador', 'Ordenador de despesa']);
    expect(com(106)).toEqual(['Administrador', 'Autoridade competente', 'Comprador']);
    // 101 PCA and 102 its approval: the autoridade approves the plan it did not consolidate
    expect(com(102)).toEqual(['Administrador', 'Autoridade competente']);
    for (const [login, status] of [
      ['comprador', 200],
      ['auditor', 200],
      ['requisitante', 403],
    ] as const) {
      const { token } = await t.server.signIn(login, 'demo1234');
      expect((await t.server.request('/api/relatorios', { token })).status, login).toBe(status);
    }
  });
});
