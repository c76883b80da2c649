import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_CORE_VERSION, composePlugins, createServer, defineServerPlugin, type ServerPluginDefinition } from '../src/index.js';
import { createTestServer } from '../src/testing.js';
import { testPlugin } from './fixtures/test-plugin.js';

const coreMigrations = readdirSync(new URL('../migrations/', import.meta.url))
  .filter((f) => f.endsWith('.sql'))
  .sort();

const plugin = (id: string, extra: Partial<ServerPluginDefinition> = {}) =>
  defineServerPlugin({ id, version: '1.0.0', core: '^1.0.0', tags: [], routes: () => undefined, ...extra });

describe('plugin composition', () => {
  it('refuses a duplicate id', () => {
    expect(() => composePlugins([plugin('a'), plugin('a')])).toThrow("Duplicate server plugin id 'a'");
  });

  it('refuses a missing dependency, naming both plugins', () => {
    expect(() => composePlugins([plugin('memorandos', { dependsOn: ['registros'] })])).toThrow(
      "Server plugin 'memorandos' depends on 'registros', which is not enabled.",
    );
  });

  it('refuses an incompatible core range', () => {
    expect(() => composePlugins([plugin('velho', { core: '^2.0.0' })])).toThrow(
      "Server plugin 'velho' (1.0.0) requires @app/server-core ^2.0.0, but 1.0.0 is running.",
    );
    expect(() => composePlugins([plugin('torto', { core: 'qualquer' })])).toThrow("Server plugin 'torto' (1.0.0) declares an invalid core range 'qualquer'.");
    expect(composePlugins([plugin('ok', { core: '>=1.0.0 <2.0.0' })])).toHaveLength(1);
  });

  it('refuses circular dependencies', () => {
    expect(() => composePlugins([plugin('a', { dependsOn: ['b'] }), plugin('b', { dependsOn: ['a'] })])).toThrow(/circular dependency: a → b → a/);
  });

  it('orders plugins after their dependencies', () => {
    const order = composePlugins([plugin('c', { dependsOn: ['b'] }), plugin('b', { dependsOn: ['a'] }), plugin('a'), plugin('d')]).map((p) => p.id);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses bad or reserved ids and objects not made by defineServerPlugin', () => {
    expect(() => plugin('Memorandos')).toThrow(/id must match/);
    expect(() => plugin('auth')).toThrow(/reserved/);
    expect(() => composePlugins([{ id: 'x' } as never])).toThrow(/defineServerPlugin/);
  });

  it('refuses a route that declares neither a tag nor public: true', async () => {
    const bad = plugin('semtag', {
      routes(router) {
        router.route({ method: 'get', path: '/x', summary: 'x', handler: (c: { json(v: unknown): Response }) => c.json({}) } as never);
      },
    });
    await expect(createTestServer([bad], { seed: false })).rejects.toThrow("Server plugin 'semtag': route GET /x must declare a numeric tag or public: true.");
  });

  it('fails createServer before opening anything when composition is wrong', async () => {
    await expect(createServer({ plugins: [plugin('x', { dependsOn: ['y'] })], dataDir: 'memory://' })).rejects.toThrow(
      "Server plugin 'x' depends on 'y', which is not enabled.",
    );
  });

  it('refuses at start a plugin whose core range the running @app/server-core does not satisfy', async () => {
    const velho = plugin('velho', { version: '3.1.4', core: '^0.9.0' });
    await expect(createServer({ plugins: [velho], dataDir: 'memory://' })).rejects.toThrow(
      `Server plugin 'velho' (3.1.4) requires @app/server-core ^0.9.0, but ${SERVER_CORE_VERSION} is running.`,
    );
    await expect(createTestServer([plugin('novo', { core: `>${SERVER_CORE_VERSION}` })], { seed: false })).rejects.toThrow(
      /Server plugin 'novo' \(1\.0\.0\) requires @app\/server-core >/,
    );
  });

  it('runs plugin migrations after core, in name order, recorded once per plugin', async () => {
    const server = await createTestServer([testPlugin], { seed: false });
    try {
      const rows = await server.sql<{ plugin: string; name: string }>('SELECT plugin, name FROM _migrations ORDER BY applied_at, plugin, name');
      expect(rows.map((r) => `${r.plugin}/${r.name}`)).toEqual([
        // every core migration on disk, in name order (0001_core.sql … the newest), then the plugin's
        ...coreMigrations.map((name) => `core/${name}`),
        'teste/0001_itens.sql',
        'teste/0002_itens_obs.sql',
      ]);
      const cols = await server.sql<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'teste_itens' AND column_name = 'observacao'",
      );
      expect(cols).toHaveLength(1);
      // no demo data when seed: false
      expect(await server.sql('SELECT id FROM usuarios')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses a migrations folder that does not exist', async () => {
    const p = plugin('semmigracoes', { migrations: new URL('./nao-existe/', import.meta.url) });
    await expect(createTestServer([p], { seed: false })).rejects.toThrow(/Migrations of 'semmigracoes': folder .* does not exist/);
  });
});
