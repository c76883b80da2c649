// @vitest-environment jsdom
import { type ResourcePages, buildMenu, composePlugins, pluginMounts } from '@app/core';
import { describe, expect, it } from 'vitest';
import server from '../src/server/index';
import registros from '../src/web/index';

const URLS = ['/ggrupo', '/subgrupo', '/unidadeprodutos', '/tipomaterial', '/siscentrocusto', '/gcentro', '/ramoatividade', '/protiposolicitacao', '/liccargo'];

describe('@app/registros web manifest', () => {
  it("is one plugin, id 'registros' like its server half (/api/registros), mounting each registry at its URL with list, new and edit routes, tag 24", () => {
    expect(registros.id).toBe('registros');
    expect(registros.id).toBe(server.id);
    expect(registros.packageName).toBe('@app/registros');
    expect(registros.mounts.map((m) => m.basePath)).toEqual(URLS);
    const app = composePlugins([registros]);
    expect(app.mounted.map((m) => m.basePath).sort()).toEqual([...URLS].sort());
    expect(app.routes.map((r) => r.fullPath)).toEqual(URLS.flatMap((u) => [u, `${u}/new`, `${u}/edit/:id`]));
    expect(new Set(app.routes.map((r) => r.tag))).toEqual(new Set([24]));
    expect(new Set(app.routes.map((r) => r.plugin.id))).toEqual(new Set(['registros']));
  });

  it("are menu entries of the 'Cadastros' group, shown only with tag 24", () => {
    const menu = buildMenu([registros], [24]);
    expect(menu.map((m) => [m.href, m.label, m.group, m.order])).toEqual([
      ['/ggrupo', 'Grupos de Produto ou Serviço', 'Cadastros', 10],
      ['/subgrupo', 'Sub-Grupos', 'Cadastros', 11],
      ['/unidadeprodutos', 'Unidade de Produtos', 'Cadastros', 12],
      ['/tipomaterial', 'Tipo de Material', 'Cadastros', 13],
      ['/siscentrocusto', 'Centro de Custos', 'Cadastros', 20],
      ['/gcentro', 'Núcleo de Consumo', 'Cadastros', 21],
      ['/ramoatividade', 'Ramos de Atividade', 'Cadastros', 30],
      ['/protiposolicitacao', 'Tipo de Solicitação', 'Cadastros', 31],
      ['/liccargo', 'Cargo', 'Cadastros', 40],
    ]);
    expect(buildMenu([registros], [])).toEqual([]);
  });

  it('page modules declare fields the shared schema knows, and the schema gives pt-BR messages', async () => {
    for (const mount of pluginMounts(registros)) {
      const pages = (await (mount.routes[0]!.load as unknown as () => Promise<{ default: unknown }>)()).default;
      expect(typeof pages, mount.basePath).toBe('function');
      // the module behind the three routes is the same defineResourcePages(...) result
      const mod = (await import(`../src/web/pages/${pageFile(mount.basePath)}.ts`)) as { default: ResourcePages };
      const { config } = mod.default;
      expect(config.title).toBe(mount.title);
      const shape = (config.schema as unknown as { shape: Record<string, unknown> }).shape;
      for (const field of config.fields) expect(Object.keys(shape), `${mount.basePath} ${field.name}`).toContain(field.name);
      const empty = config.schema.safeParse({});
      expect(empty.success).toBe(false);
      if (!empty.success) for (const issue of empty.error.issues) expect(issue.message).toMatch(/^(Informe|Selecione|Escolha)/);
    }
  });
});

function pageFile(basePath: string): string {
  return {
    '/ggrupo': 'grupos',
    '/subgrupo': 'subgrupos',
    '/unidadeprodutos': 'unidades',
    '/tipomaterial': 'tiposMaterial',
    '/siscentrocusto': 'centrosCusto',
    '/gcentro': 'nucleosConsumo',
    '/ramoatividade': 'ramosAtividade',
    '/protiposolicitacao': 'tiposSolicitacao',
    '/liccargo': 'cargos',
  }[basePath]!;
}
