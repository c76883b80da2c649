// The plugin test server (@app/server-core/testing): what every plugin's API tests build on, so no
// plugin keeps its own copy of fixtures for users, entidades, raw rows, uploads or stand-in plugins.
import { beforeAll, describe, expect, it } from 'vitest';
import { defineServerPlugin, type ErrorBody } from '../src/index.js';
import { DEMO, createTestServer, describeEachDatabase, migrationsOnly, withoutSeed } from '../src/testing.js';
import { TESTE_TAG, testPlugin, testeItens } from './fixtures/test-plugin.js';

/** The test plugin plus a seed (one item per entidade) and an upload echo route. */
const seeded = defineServerPlugin({
  ...testPlugin,
  routes(router, ctx) {
    testPlugin.routes(router, ctx);
    router.route({
      method: 'post',
      path: '/eco',
      tag: TESTE_TAG,
      summary: 'Devolve o arquivo recebido',
      responses: {},
      handler: async (c) => {
        const form = await c.req.parseBody();
        const file = form.planilha ?? form.arquivo;
        if (!(file instanceof File)) return c.json({ campo: Object.keys(form) }, 200);
        return c.json({ campo: Object.keys(form), nome: file.name, tipo: file.type, texto: await file.text() }, 200);
      },
    });
  },
  async seed(seedCtx) {
    await seedCtx.db
      .insert(testeItens)
      .values([seedCtx.entidades.prefeitura.id, seedCtx.entidades.camara.id].map((entidadeId) => ({ entidadeId, nome: 'Semente', quantidade: 1 })));
  },
});

describeEachDatabase('plugin test server', { plugins: [seeded] }, (t) => {
  let ent: { prefeitura: string; camara: string };
  beforeAll(async () => {
    ent = await t.server.demoEntidades();
  });

  it('demoEntidades: the ids of the seeded Prefeitura and Câmara', async () => {
    const rows = await t.server.sql<{ id: string; cnpj: string }>('SELECT id, cnpj FROM entidades');
    expect(rows.find((r) => r.cnpj === DEMO.prefeitura.cnpj)?.id).toBe(ent.prefeitura);
    expect(rows.find((r) => r.cnpj === DEMO.camara.cnpj)?.id).toBe(ent.camara);
  });

  it('insert: one raw row, its id back; a table or column that is not a plain identifier is refused', async () => {
    const id = await t.server.insert('teste_itens', { entidade_id: ent.camara, nome: 'Inserido', quantidade: 7 });
    const [row] = await t.server.sql<{ nome: string; quantidade: number }>('SELECT nome, quantidade FROM teste_itens WHERE id = $1', [id]);
    expect(row).toEqual({ nome: 'Inserido', quantidade: 7 });
    await expect(t.server.insert('teste_itens; DROP TABLE entidades', { nome: 'x' })).rejects.toThrow(/not a plain SQL identifier/);
    await expect(t.server.insert('teste_itens', { 'nome)--': 'x' })).rejects.toThrow(/not a plain SQL identifier/);
  });

  it('createUser: a person with their own perfil, tags and centros, signed in to that entidade', async () => {
    const centro = '6f1c2e3a-0000-4000-8000-000000000001';
    const comTag = await t.server.createUser({ login: 'pessoa.teste', nome: 'Pessoa de Teste', tags: [TESTE_TAG], centros: [centro] });
    const session = (await (await t.server.request('/api/session', { token: comTag.token })).json()) as {
      user: { id: string; nome: string };
      entidade: { id: string };
      tags: number[];
      centrosCusto: string[];
      todosCentros: boolean;
    };
    expect(session).toMatchObject({
      user: { id: comTag.id, nome: 'Pessoa de Teste' },
      entidade: { id: ent.prefeitura },
      centrosCusto: [centro],
      todosCentros: false,
    });
    expect(session.tags).toContain(TESTE_TAG);
    expect((await t.server.request('/api/teste/itens', { token: comTag.token })).status).toBe(200);

    const semTag = await t.server.createUser({ login: 'sem.tag', entidadeId: ent.camara, todosCentros: true });
    const res = await t.server.request('/api/teste/itens', { token: semTag.token });
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).error.code).toBe('forbidden');
    const [perfil] = await t.server.sql<{ entidade_id: string; todos_centros: boolean }>('SELECT entidade_id, todos_centros FROM perfis WHERE id = $1', [
      semTag.perfilId,
    ]);
    expect(perfil).toEqual({ entidade_id: ent.camara, todos_centros: true });
    // the password is the demo one
    expect((await t.server.signIn('sem.tag', DEMO.senha, ent.camara)).token).toBeTruthy();
  });

  it('upload: multipart/form-data with the file under arquivo (or the given field)', async () => {
    const { token } = await t.server.signIn(undefined, undefined, ent.prefeitura);
    const csv = await t.server.upload('/api/teste/eco', token, { content: 'codigo;nome\n1;Papel\n' });
    expect(await csv.json()).toEqual({ campo: ['arquivo'], nome: 'planilha.csv', tipo: 'text/csv', texto: 'codigo;nome\n1;Papel\n' });
    const xlsx = await t.server.upload('/api/teste/eco', token, { content: new TextEncoder().encode('PK'), filename: 'itens.xlsx', field: 'planilha' });
    expect(await xlsx.json()).toMatchObject({ campo: ['planilha'], nome: 'itens.xlsx', texto: 'PK' });
    expect((await t.server.upload('/api/teste/eco', 'token-invalido', { content: 'x' })).status).toBe(401);
  });

  it('the seed of a plugin runs by default', async () => {
    const rows = await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM teste_itens WHERE nome = 'Semente'");
    expect(rows[0]?.n).toBe(2);
  });
});

describe('stand-in plugins', () => {
  it('withoutSeed: the same plugin, routes and migrations, no demo rows', async () => {
    const server = await createTestServer([withoutSeed(seeded)]);
    try {
      expect(await server.sql("SELECT 1 FROM teste_itens WHERE nome = 'Semente'")).toEqual([]);
      const { token } = await server.signIn();
      expect((await server.request('/api/teste/itens', { token })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('migrationsOnly: the tables of a dependency, none of its routes, tags or seed', async () => {
    const stand = migrationsOnly(seeded);
    expect(stand).toMatchObject({ id: 'teste', version: seeded.version, core: seeded.core, migrations: seeded.migrations, tags: [] });
    expect(stand.seed).toBeUndefined();
    const server = await createTestServer([stand]);
    try {
      expect(await server.sql('SELECT count(*)::int AS n FROM teste_itens')).toEqual([{ n: 0 }]);
      const { token } = await server.signIn();
      expect((await server.request('/api/teste/itens', { token })).status).toBe(404);
      const migrations = await server.sql<{ plugin: string }>("SELECT plugin FROM _migrations WHERE plugin = 'teste'");
      expect(migrations.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
