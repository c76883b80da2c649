import { definePlugin } from '@app/core';
import { ANALISE_TAG, ANALISE_TAG_NOME } from '../shared/tag.js';

/** @app/analise, web half: '/analise-consumo-precos' (consumption) and '/analise-consumo-precos/precos' (price history); the charts load only on its lazy pages. */
export default definePlugin({
  id: 'analise',
  title: ANALISE_TAG_NOME,
  basePath: '/analise-consumo-precos',
  tag: ANALISE_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: ANALISE_TAG_NOME, icon: 'chart', group: 'Geral', order: 40 },
  routes: [
    { path: '/', title: 'Consumo por centro de custo e núcleo', load: () => import('./pages/ConsumoPage') },
    { path: '/precos', title: 'Histórico de preços', load: () => import('./pages/PrecosPage') },
  ],
});
