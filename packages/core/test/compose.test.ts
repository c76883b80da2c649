import { describe, expect, it } from 'vitest';
import { PluginCompositionError, buildMenu, composePlugins, hasTag } from '../src/compose';
import { coreRangeProblems } from '../src/ranges';
import { type PluginIdentity, type PluginMount, type SingleMount, definePlugin, pluginMounts } from '../src/contract';

const page = () => Promise.resolve({ default: () => null });

function plugin(def: Partial<PluginIdentity> & Partial<SingleMount> & { id: string }) {
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
    const app = composePlugins([home, about, memorandos]);
    expect(app.home?.plugin).toBe(home);
    expect(app.mounted.map((m) => [m.plugin.id, m.basePath])).toEqual([
      ['memorandos', '/memorando'],
      ['about', '/about'],
    ]);
    expect(app.routes.map((r) => [r.fullPath, r.tag])).toEqual([
      ['/', 0],
      ['/about', 0],
      ['/memorando', 29],
      ['/memorando/edit/:id', 3],
    ]);
  });

  it('refuses duplicate ids, naming both plugins', () => {
    const error = refusal(() => composePlugins([plugin({ id: 'memorandos' }), plugin({ id: 'memorandos', basePath: '/outro', packageName: '@acme/memo' })]));
    expect(error.message).toMatch(/"memorandos" \(@app\/memorandos@1\.2\.3\).*"memorandos" \(@acme\/memo@1\.2\.3\).*mesmo id/);
  });

  it('refuses two plugins at the same basePath', () => {
    const error = refusal(() => composePlugins([plugin({ id: 'a', basePath: '/compras' }), plugin({ id: 'b', basePath: '/compras/' })]));
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
        plugin({
          id: 'dashboard',
          basePath: '/',
          routes: [
            { path: '/', title: 'x', load: page },
            { path: '/about', title: 'y', load: page },
          ],
        }),
        plugin({ id: 'about' }),
      ]),
    );
    expect(error.message).toContain('"dashboard"');
    expect(error.message).toContain('"about"');
  });

  it("refuses core's reserved paths", () => {
    const error = refusal(() => composePlugins([plugin({ id: 'home', basePath: '/', routes: [{ path: '/signin', title: 'x', load: page }] })]));
    expect(error.message).toContain('já foi registrada por o núcleo (@app/core)');
  });

  it('refuses an incompatible core range, with the running version (coreRangeProblems, loaded after the first render)', () => {
    expect(coreRangeProblems([plugin({ id: 'antigo', core: '^0.9.0' }), plugin({ id: 'novo', core: '>=2' })], '1.4.0')).toEqual([
      'o plugin "antigo" (@app/antigo@1.2.3) requer @app/core "^0.9.0", mas a versão em execução é 1.4.0.',
      'o plugin "novo" (@app/novo@1.2.3) requer @app/core ">=2", mas a versão em execução é 1.4.0.',
    ]);
    expect(coreRangeProblems([plugin({ id: 'ok', core: '^1.0.0' })], '1.4.0')).toEqual([]);
    expect(coreRangeProblems([plugin({ id: 'x', core: 'qualquer' })])[0]).toContain('faixa de @app/core inválida');
  });

  it('lists every problem at once', () => {
    const error = refusal(() => composePlugins([plugin({ id: 'x' }), plugin({ id: 'x', basePath: 'sem-barra' })]));
    expect(error.problems.length).toBeGreaterThanOrEqual(2);
    expect(error.message).toContain('mesmo id');
    expect(error.message).toContain('basePath inválido');
  });
});

/** A plugin with several sections under one id (like @app/requisicoes: /pre-requisicao and /requisicao). */
function sections(id: string, mounts: PluginMount[], extra: Partial<PluginIdentity> = {}) {
  return definePlugin({ id, title: id, core: '^1.0.0', version: '1.2.3', packageName: `@app/${id}`, mounts, ...extra });
}

function section(basePath: string, tag: number, label?: string): PluginMount {
  const mount: PluginMount = {
    basePath,
    title: label ?? basePath,
    tag,
    routes: [
      { path: '/', title: `${label ?? basePath}`, load: page },
      { path: '/edit/:id', title: `Editar ${label ?? basePath}`, load: page },
    ],
  };
  if (label) mount.menu = { label, group: 'Documentos' };
  return mount;
}

describe('several mounts under one id', () => {
  it('routes every section under its basePath, with its tag, and keeps the one plugin id', () => {
    const requisicoes = sections('requisicoes', [section('/pre-requisicao', 39, 'Pré-requisições'), section('/requisicao', 40, 'Requisições')]);
    const app = composePlugins([plugin({ id: 'dashboard', basePath: '/' }), requisicoes, plugin({ id: 'memorandos', basePath: '/memorando', tag: 29 })]);
    expect(app.plugins).toHaveLength(3);
    expect(app.home?.plugin.id).toBe('dashboard');
    expect(app.mounted.map((m) => [m.plugin.id, m.basePath])).toEqual([
      ['requisicoes', '/pre-requisicao'],
      ['requisicoes', '/requisicao'],
      ['memorandos', '/memorando'],
    ]);
    expect(app.routes.filter((r) => r.plugin === requisicoes).map((r) => [r.fullPath, r.tag, r.mount.basePath])).toEqual([
      ['/pre-requisicao', 39, '/pre-requisicao'],
      ['/pre-requisicao/edit/:id', 39, '/pre-requisicao'],
      ['/requisicao', 40, '/requisicao'],
      ['/requisicao/edit/:id', 40, '/requisicao'],
    ]);
    expect(new Set(app.routes.filter((r) => r.fullPath.includes('requisicao')).map((r) => r.plugin.id))).toEqual(new Set(['requisicoes']));
  });

  it('a route tag overrides its section tag', () => {
    const mount = section('/requisicao', 39);
    mount.routes.push({ path: '/aprovar', title: 'Aprovar', tag: 41, load: page });
    const app = composePlugins([sections('requisicoes', [mount])]);
    expect(app.routes.map((r) => [r.fullPath, r.tag])).toEqual([
      ['/requisicao', 39],
      ['/requisicao/edit/:id', 39],
      ['/requisicao/aprovar', 41],
    ]);
  });

  it('an inline plugin is one section titled with the plugin title', () => {
    const memorandos = plugin({ id: 'memorandos', title: 'Memorandos', basePath: '/memorando', tag: 29, menu: { label: 'Memorandos' } });
    expect(pluginMounts(memorandos)).toEqual([
      { basePath: '/memorando', title: 'Memorandos', tag: 29, menu: { label: 'Memorandos' }, routes: memorandos.routes },
    ]);
  });

  it('refuses a basePath taken by a section of another plugin, naming both plugins', () => {
    const error = refusal(() =>
      composePlugins([
        sections('requisicoes', [section('/pre-requisicao', 39), section('/requisicao', 39)]),
        plugin({ id: 'outro', basePath: '/Requisicao/' }),
      ]),
    );
    expect(error.problems).toContain('os plugins "requisicoes" (@app/requisicoes@1.2.3) e "outro" (@app/outro@1.2.3) usam o mesmo basePath "/Requisicao".');
  });

  it('refuses the same basePath twice inside one plugin', () => {
    const error = refusal(() => composePlugins([sections('requisicoes', [section('/requisicao', 39), section('/requisicao/', 39)])]));
    expect(error.problems).toEqual(['o plugin "requisicoes" (@app/requisicoes@1.2.3) declara o basePath "/requisicao" mais de uma vez.']);
  });

  it('refuses a section nested inside another section', () => {
    const error = refusal(() => composePlugins([sections('requisicoes', [section('/requisicao', 39), section('/requisicao/aprovar', 39)])]));
    expect(error.message).toContain('o basePath "/requisicao/aprovar" do plugin "requisicoes"');
  });

  it('one id per manifest: two manifests of one id are refused even at different base paths', () => {
    const error = refusal(() =>
      composePlugins([sections('registros', [section('/ggrupo', 24)]), sections('registros', [section('/subgrupo', 24)], { packageName: '@acme/registros' })]),
    );
    expect(error.problems).toEqual(['os plugins "registros" (@app/registros@1.2.3) e "registros" (@acme/registros@1.2.3) usam o mesmo id "registros".']);
  });

  it('refuses a manifest that mixes inline fields and mounts, or declares no section', () => {
    const mixed = { ...sections('requisicoes', [section('/requisicao', 39)]), basePath: '/requisicao', tag: 39 } as unknown as ReturnType<typeof sections>;
    expect(refusal(() => composePlugins([mixed])).problems).toEqual([
      'o plugin "requisicoes" (@app/requisicoes@1.2.3) declara basePath, tag e mounts ao mesmo tempo: declare as seções só em mounts.',
    ]);
    expect(refusal(() => composePlugins([sections('vazio', [])])).problems).toEqual(['o plugin "vazio" (@app/vazio@1.2.3) declara mounts sem nenhuma seção.']);
  });

  it('refuses a section without routes, and an invalid section tag, naming the section', () => {
    const empty: PluginMount = { basePath: '/requisicao', title: 'Requisições', tag: -7, routes: [] };
    const error = refusal(() => composePlugins([sections('requisicoes', [section('/pre-requisicao', 39), empty])]));
    expect(error.problems).toEqual([
      'a seção "/requisicao" do plugin "requisicoes" (@app/requisicoes@1.2.3) não declara nenhuma rota.',
      'o plugin "requisicoes" (@app/requisicoes@1.2.3) usa uma tag de permissão inválida: -7.',
    ]);
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

  it('lists one entry per section, each filtered by its own tag, in declaration order', () => {
    const plugins = [
      sections('requisicoes', [
        section('/pre-requisicao', 39, 'Pré-requisições'),
        section('/requisicao', 40, 'Requisições'),
        section('/requisicao-interna', 40),
      ]),
      plugin({ id: 'about', menu: { label: 'Sobre', group: 'Sistema' } }),
    ];
    expect(buildMenu(plugins, [39]).map((m) => [m.href, m.label])).toEqual([
      ['/pre-requisicao', 'Pré-requisições'],
      ['/about', 'Sobre'],
    ]);
    expect(buildMenu(plugins, [39, 40]).map((m) => [m.href, m.label, m.group])).toEqual([
      ['/pre-requisicao', 'Pré-requisições', 'Documentos'],
      ['/requisicao', 'Requisições', 'Documentos'],
      ['/about', 'Sobre', 'Sistema'],
    ]);
    expect(buildMenu(plugins, []).map((m) => m.href)).toEqual(['/about']);
  });

  it("carries a section's menu count (endpoint and label) to its entry, only for those who see it", () => {
    const count = { endpoint: '/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem', label: 'aguardando minha aprovação' };
    const plugins = [
      plugin({ id: 'requisicoes', basePath: '/requisicao', tag: 39, menu: { label: 'Requisições', count } }),
      plugin({ id: 'about', menu: { label: 'Sobre' } }),
    ];
    expect(buildMenu(plugins, [39])).toEqual([
      { href: '/requisicao', label: 'Requisições', count },
      { href: '/about', label: 'Sobre' },
    ]);
    expect(buildMenu(plugins, [])).toEqual([{ href: '/about', label: 'Sobre' }]);
  });
});
