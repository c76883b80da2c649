// Cross-plugin contributions (`contributes` + `ctx.contributions(point)`): a plugin reads what the
// enabled plugins of ITS server contribute, in dependency order; nothing is shared between servers of
// one process and nothing is registered at import time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerPluginDefinition, contribute, defineServerPlugin, extensionPoint } from '../src/index.js';
import { type TestServer, createTestServer, migrationsOnly, testEngines, withoutSeed } from '../src/testing.js';

/** The point: a plugin contributes a function naming what it has about a product ('Memorando 12/2026'). */
type Descreve = (produto: string) => string[];
const DESCREVE = extensionPoint<Descreve>('painel.descreve');

/** The reading plugin: answers what the contributions say, and remembers what its seed and routes saw. */
function painelPlugin() {
  const seen = { routes: [] as string[], seed: [] as string[] };
  const plugin = defineServerPlugin({
    id: 'painel',
    version: '1.0.0',
    core: '^1.0.0',
    tags: [],
    routes(router, ctx) {
      seen.routes = ctx.contributions(DESCREVE).map((c) => c.plugin);
      router.route({
        method: 'get',
        path: '/descricoes',
        tag: 0,
        summary: 'O que os plugins dizem do produto',
        responses: {},
        handler: (c, reqCtx) =>
          c.json(
            reqCtx.contributions(DESCREVE).map((x) => ({ plugin: x.plugin, textos: x.value('P1') })),
            200,
          ),
      });
    },
    async seed(seedCtx) {
      seen.seed = seedCtx.contributions(DESCREVE).map((c) => c.plugin);
    },
  });
  return { plugin, seen };
}

const contributor = (id: string, textos: string[], extra: Partial<ServerPluginDefinition> = {}) =>
  defineServerPlugin({
    id,
    version: '1.0.0',
    core: '^1.0.0',
    tags: [],
    contributes: [contribute(DESCREVE, (produto) => textos.map((t) => `${t} (${produto})`))],
    routes: () => undefined,
    ...extra,
  });

// extra-b depends on extra-a: listed first, contributed second (dependency order)
const extraA = contributor('extra-a', ['Memorando 12/2026']);
const extraB = contributor('extra-b', ['Requisição 3/2026', 'Requisição 4/2026'], { dependsOn: ['extra-a'] });

async function descricoes(server: TestServer) {
  const { token } = await server.signIn();
  const res = await server.request('/api/painel/descricoes', { token });
  expect(res.status).toBe(200);
  return res.json();
}

describe.each(testEngines())('contributions: two servers in one process [%s]', (engine) => {
  const withExtras = painelPlugin();
  const alone = painelPlugin();
  let servers: TestServer[] = [];

  beforeAll(async () => {
    // both servers live at once, in this process, built from the same contributor objects
    servers = [
      await createTestServer([extraB, withExtras.plugin, extraA], { engine, seed: true }),
      await createTestServer([alone.plugin], { engine, seed: true }),
    ];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('a plugin reads the contributions of the enabled plugins, in dependency order, in routes, requests and seed', async () => {
    expect(withExtras.seen).toEqual({ routes: ['extra-a', 'extra-b'], seed: ['extra-a', 'extra-b'] });
    expect(await descricoes(servers[0]!)).toEqual([
      { plugin: 'extra-a', textos: ['Memorando 12/2026 (P1)'] },
      { plugin: 'extra-b', textos: ['Requisição 3/2026 (P1)', 'Requisição 4/2026 (P1)'] },
    ]);
  });

  it('a server without the contributors sees none, while the other server keeps its own', async () => {
    expect(alone.seen).toEqual({ routes: [], seed: [] });
    expect(await descricoes(servers[1]!)).toEqual([]);
    expect(await descricoes(servers[0]!)).toHaveLength(2);
  });
});

describe('contributions: declaring', () => {
  it('migrationsOnly stands in without the contributions; withoutSeed keeps them', async () => {
    const painel = painelPlugin();
    const server = await createTestServer([painel.plugin, withoutSeed(extraA), migrationsOnly(extraB)]);
    try {
      expect(painel.seen.routes).toEqual(['extra-a']);
      expect(await descricoes(server)).toEqual([{ plugin: 'extra-a', textos: ['Memorando 12/2026 (P1)'] }]);
    } finally {
      await server.close();
    }
  });

  it('refuses a point id without its owner plugin, and contributions not made by contribute()', () => {
    expect(() => extensionPoint('usos')).toThrow("Extension point 'usos': the id must be '<plugin id>.<name>'");
    expect(() => extensionPoint('Produtos.Usos')).toThrow(/lowercase/);
    expect(() => contributor('torto', [], { contributes: [{ point: 'painel.descreve', value: () => [] } as never] })).toThrow(
      "Server plugin 'torto': every entry of contributes must be made by contribute(point, value).",
    );
  });

  it('types the value by the point', () => {
    // @ts-expect-error a Descreve takes a string and answers string[]
    const wrong = contribute(DESCREVE, (n: number) => n);
    expect(wrong.point).toBe('painel.descreve');
    const none = extensionPoint<number>('painel.nada');
    expect(defineServerPlugin({ id: 'vazio', version: '1', core: '^1.0.0', tags: [], routes: () => undefined }).contributes).toEqual([]);
    expect(contribute(none, 3)).toMatchObject({ point: 'painel.nada', value: 3 });
  });
});
