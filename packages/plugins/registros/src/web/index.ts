import { definePlugin, type PluginMount, type ResourcePages, resourceRoutes } from '@app/core';
import { TITLES } from './titles';

type Key = keyof typeof TITLES;

/** One registry: a section at its historical URL, a 'Cadastros' menu entry, tag 24. */
const registry = (key: Key, basePath: string, icon: string, order: number, load: () => Promise<{ default: ResourcePages }>): PluginMount => ({
  basePath,
  title: TITLES[key].title,
  tag: 24,
  menu: { label: TITLES[key].title, icon, group: 'Cadastros', order },
  routes: resourceRoutes(TITLES[key], load),
});

/**
 * @app/registros, web half: one plugin, id 'registros' (= the server half, /api/registros/*), with
 * one mount per registry so each keeps its historical URL (/ggrupo, /subgrupo, …).
 */
export default definePlugin({
  id: 'registros',
  title: 'Cadastros',
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  mounts: [
    registry('grupos', '/ggrupo', 'box', 10, () => import('./pages/grupos')),
    registry('subgrupos', '/subgrupo', 'box', 11, () => import('./pages/subgrupos')),
    registry('unidades', '/unidadeprodutos', 'box', 12, () => import('./pages/unidades')),
    registry('tiposMaterial', '/tipomaterial', 'box', 13, () => import('./pages/tiposMaterial')),
    registry('centrosCusto', '/siscentrocusto', 'settings', 20, () => import('./pages/centrosCusto')),
    registry('nucleosConsumo', '/gcentro', 'settings', 21, () => import('./pages/nucleosConsumo')),
    registry('ramosAtividade', '/ramoatividade', 'file', 30, () => import('./pages/ramosAtividade')),
    registry('tiposSolicitacao', '/protiposolicitacao', 'file', 31, () => import('./pages/tiposSolicitacao')),
    registry('cargos', '/liccargo', 'users', 40, () => import('./pages/cargos')),
  ],
});
