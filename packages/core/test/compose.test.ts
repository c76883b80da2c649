import { describe, expect, it } from 'vitest';
import { PluginCompositionError, buildMenu, composePlugins, hasTag } from '../src/compose';
import { type PluginDefinition, definePlugin } from '../src/contract';

const page = () => Promise.resolve({ default: () => null });

function plugin(def: Partial<PluginDefinition> & { id: string }) {
  return definePlugin({
    title: def.id,
    basePath: `/${def.id}`,
    tag: 0,
    core: '^1.0.0',
    routes: [{ path: '/', title: def.id, load: page }],
    version: '1.2.3',
    packageName: `@app/${def.id}`,
    ...def,
  });
}

function refusal(fn: () => unknown): PluginCompositionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginCompositionError);
    return error as PluginCompositionError;
  }
  throw new Error('composePlugins did not throw');
}

describe('composePlugins', () => {
  it('composes valid plugins: home at "/", others longest basePath first, tags resolved', () => {
    const home = plugin({ id: 'dashboard', basePath: '/' });
    const memorandos = plugin({
      id: 'memorandos',
      basePath: '/memorando',
      tag: 29,
      routes: [
        { path: '/', title: 'Memorandos', load: page },
        { path: '/edit/:id', title: 'Editar', load: page, tag: 3 },
      ],
    });
    const about = plugin({ id: 'about' });
    const app = composePlugins([home, about, memorandos], '1.0.0');
    expect(app.home).toBe(home);
    expect(app.mounted.map((p) => p.id)).toEqual(['memorandos', 'about']);
    expect(app.routes.map((r) => [r.fullPath, r.tag])).toEqual([
      ['/', 0],
      ['/about', 0],
      ['/memorando', 29],
      ['/memorando/edit/:id', 3],
    ]);
  });

  it('refuses duplicate ids, naming both plugins', () => {
    const error = refusal(() =>
      composePlugins([plugin({ id: 'memorandos' }), plugin({ id: 'memorandos', basePath: '/outro', packageName: '@acme/memo' })]),
    );
    expect(error.message).toMatch(/"memorandos" \(@app\/memorandos@1\.2\.3\).*"memorandos" \(@acme\/memo@1\.2\.3\).*mesmo id/);
  });

  it('refuses two plugins at the same basePath', () => {
    const error = refusal(() =>
      composePlugins([plugin({ id: 'a', basePath: '/compras' }), plugin({ id: 'b', basePath: '/compras/' })]),
    );
    expect(error.message).toContain('os plugins "a" (@app/a@1.2.3) e "b" (@app/b@1.2.3) usam o mesmo basePath "/compras"');
  });

  it('refuses a basePath nested inside another plugin', () => {
    const error = refusal(() =>
      composePlugins([plugin({ id: 'requisicoes', basePath: '/requisicao' }), plugin({ id: 'aprovar', basePath: '/requisicao/aprovar' })]),
    );
    expect(error.message).toContain('"/requisicao/aprovar" do plugin "aprovar"');
    expect(error.message).toContain('"/requisicao" do plugin "requisicoes"');
  });

  it('refuses a route path registered twice (also with different parameter names)', () => {
    const error = refusal(() =>
      composePlugins([
        plugin({
          id: 'fornecedores',
          routes: [
            { path: '/edit/:id', title: 'a', load: page },
            { path: '/edit/:codigo', title: 'b', load: page },
          ],
        }),
      ]),
    );
    expect(error.message).toMatch(/rota "\/fornecedores\/edit\/:codigo" do plugin "fornecedores".*já foi registrada por o plugin "fornecedores"/);
  });

  it('refuses a home-plugin route that another plugin owns', () => {
    const error = refusal(() =>
      composePlugins([
        plugin({ id: 'dashboard', basePath: '/', routes: [{ path: '/', title: 'x', load: page }, { path: '/about', title: 'y', load: page }] }),
        plugin({ id: 'about' }),
      ]),
    );
    expect(error.message).toContain('"dashboard"');
    expect(error.message).toContain('"about"');
  });

  it("refuses core's reserved paths", () => {
    const error = refusal(() =>
      composePlugins([plugin({ id: 'home', basePath: '/', routes: [{ path: '/signin', title: 'x', load: page }] })]),
    );
    expect(error.message).toContain('já foi registrada por o núcleo (@app/core)');
  });

  it('refuses an incompatible core range, with the running version', () => {
    const error = refusal(() => composePlugins([plugin({ id: 'antigo', core: '^0.9.0' }), plugin({ id: 'novo', core: '>=2' })], '1.4.0'));
    expect(error.problems).toEqual([
      'o plugin "antigo" (@app/antigo@1.2.3) requer @app/core "^0.9.0", mas a versão em execução é 1.4.0.',
      'o plugin "novo" (@app/novo@1.2.3) requer @app/core ">=2", mas a versão em execução é 1.4.0.',
    ]);
    expect(() => composePlugins([plugin({ id: 'ok', core: '^1.0.0' })], '1.4.0')).not.toThrow();
  });

  it('refuses an invalid range and lists every problem at once', () => {
    const error = refusal(() =>
      composePlugins([plugin({ id: 'x', core: 'qualquer' }), plugin({ id: 'x', basePath: 'sem-barra' })], '1.0.0'),
    );
    expect(error.problems.length).toBeGreaterThanOrEqual(3);
    expect(error.message).toContain('faixa de @app/core inválida');
    expect(error.message).toContain('basePath inválido');
  });
});

describe('permissions and menu', () => {
  it('exempts tags 0 and -1..-4; others need the tag', () => {
    for (const tag of [0, -1, -2, -3, -4]) expect(hasTag([], tag)).toBe(true);
    expect(hasTag([24], 24)).toBe(true);
    expect(hasTag([24], 29)).toBe(false);
    expect(hasTag(null, 3)).toBe(false);
  });

  it('builds the menu from the entries the user may see', () => {
    const plugins = [
      plugin({ id: 'dashboard', basePath: '/', menu: { label: 'Início', group: 'Geral', order: 0 } }),
      plugin({ id: 'memorandos', basePath: '/memorando', tag: 29, menu: { label: 'Memorandos', group: 'Documentos' } }),
      plugin({ id: 'registros', basePath: '/ggrupo', tag: 24, menu: { label: 'Grupos', icon: 'box' } }),
      plugin({ id: 'sem-menu' }),
    ];
    expect(buildMenu(plugins, [24])).toEqual([
      { href: '/', label: 'Início', group: 'Geral', order: 0 },
      { href: '/ggrupo', label: 'Grupos', icon: 'box' },
    ]);
  });
});
