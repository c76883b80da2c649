import { definePlugin, type PluginManifest, type ResourcePages, resourceRoutes } from '@app/core';
import { TITLES } from './titles';

type Key = keyof typeof TITLES;

/**
 * @app/registros, web half: one manifest per registry, so each keeps its historical URL
 * (/ggrupo, /subgrupo, …) as its basePath (core mounts a plugin under one basePath, and '/' belongs
 * to the home plugin). All are menu entries of the 'Cadastros' group with tag 24. The default export
 * is the list of manifests: `[...].flat()` in apps/web/src/plugins.ts.
 */
const registry = (key: Key, basePath: string, icon: string, order: number, load: () => Promise<{ default: ResourcePages }>) =>
  definePlugin({
    id: `registros-${basePath.slice(1)}`,
    title: TITLES[key].title,
    basePath,
    tag: 24,
    core: '^1.0.0',
    version: __PKG_VERSION__,
    packageName: __PKG_NAME__,
    menu: { label: TITLES[key].title, icon, group: 'Cadastros', order },
    routes: resourceRoutes(TITLES[key], load),
  });

const registros: PluginManifest[] = [
  registry('grupos', '/ggrupo', 'box', 10, () => import('./pages/grupos')),
  registry('subgrupos', '/subgrupo', 'box', 11, () => import('./pages/subgrupos')),
  registry('unidades', '/unidadeprodutos', 'box', 12, () => import('./pages/unidades')),
  registry('tiposMaterial', '/tipomaterial', 'box', 13, () => import('./pages/tiposMaterial')),
  registry('centrosCusto', '/siscentrocusto', 'settings', 20, () => import('./pages/centrosCusto')),
  registry('nucleosConsumo', '/gcentro', 'settings', 21, () => import('./pages/nucleosConsumo')),
  registry('ramosAtividade', '/ramoatividade', 'file', 30, () => import('./pages/ramosAtividade')),
  registry('tiposSolicitacao', '/protiposolicitacao', 'file', 31, () => import('./pages/tiposSolicitacao')),
  registry('cargos', '/liccargo', 'users', 40, () => import('./pages/cargos')),
];

export default registros;
