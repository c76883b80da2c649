// @vitest-environment jsdom
import { type ResourcePages, buildMenu, composePlugins } from '@app/core';
import { describe, expect, it } from 'vitest';
import registros from '../src/web/index';

const URLS = ['/ggrupo', '/subgrupo', '/unidadeprodutos', '/tipomaterial', '/siscentrocusto', '/gcentro', '/ramoatividade', '/protiposolicitacao', '/liccargo'];

describe('@app/registros web manifests', () => {
  it('mount each registry at its URL with list, new and edit routes, tag 24', () => {
    expect(registros.map((m) => m.basePath)).toEqual(URLS);
    const app = composePlugins(registros);
    expect(app.routes.map((r) => r.fullPath)).toEqual(URLS.flatMap((u) => [u, `${u}/new`, `${u}/edit/:id`]));
    expect(new Set(app.routes.map((r) => r.tag))).toEqual(new Set([24]));
  });

  it("are menu entries of the 'Cadastros' group, shown only with tag 24", () => {
    const menu = buildMenu(registros, [24]);
    expect(menu.map((m) => [m.href, m.label, m.group])).toEqual([
      ['/ggrupo', 'Grupos de Produto ou Serviço', 'Cadastros'],
      ['/subgrupo', 'Sub-Grupos', 'Cadastros'],
      ['/unidadeprodutos', 'Unidade de Produtos', 'Cadastros'],
      ['/tipomaterial', 'Tipo de Material', 'Cadastros'],
      ['/siscentrocusto', 'Centro de Custos', 'Cadastros'],
      ['/gcentro', 'Núcleo de Consumo', 'Cadastros'],
      ['/ramoatividade', 'Ramos de Atividade', 'Cadastros'],
      ['/protiposolicitacao', 'Tipo de Solicitação', 'Cadastros'],
      ['/liccargo', 'Cargo', 'Cadastros'],
    ]);
    expect(buildMenu(registros, [])).toEqual([]);
  });

  it('page modules declare fields the shared schema knows, and the schema gives pt-BR messages', async () => {
    for (const manifest of registros) {
      const pages = (await (manifest.routes[0]!.load as unknown as () => Promise<{ default: unknown }>)()).default;
      expect(typeof pages, manifest.basePath).toBe('function');
      // the module behind the three routes is the same defineResourcePages(...) result
      const mod = (await import(`../src/web/pages/${pageFile(manifest.basePath)}.ts`)) as { default: ResourcePages };
      const { config } = mod.default;
      expect(config.title).toBe(manifest.title);
      const shape = (config.schema as unknown as { shape: Record<string, unknown> }).shape;
      for (const field of config.fields) expect(Object.keys(shape), `${manifest.basePath} ${field.name}`).toContain(field.name);
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
