// @app/analise/server: the figures of /analise-consumo-precos under /api/analise (tag 106):
//   GET /consumo (by month, per centro de custo, núcleo or grupo, and per grupo; totals, consumo médio mensal),
//   GET /consumo/documentos (the requisições behind a figure), GET /consumo/opcoes and /consumo/produtos (the filters' choices);
//   GET /precos (one product's unit prices over time from cotações and requisições, median, variation, atypical
//   prices, suppliers compared) and GET /produtos (the catalogue picker).
// The same figures at /reports (./relatorios.ts); demo: the perfis that analyse get tag 106 (./seed.ts).
// Read-only over @app/requisicoes' and @app/cotacoes' documents (./consumo.ts, ./precos.ts); every figure in the person's centros.
import { produtosLookup } from '@app/produtos/server';
import { RELATORIOS, contribute, defineLookup, defineServerPlugin } from '@app/server-core';
import { z } from 'zod';
import {
  ANALISE_TAG,
  ANALISE_TAG_NOME,
  consumoSchema,
  documentosConsumoSchema,
  filtrosConsumoSchema,
  filtrosPrecosSchema,
  opcoesConsumoSchema,
  precosSchema,
  produtosConsumoSchema,
} from '../shared/index.js';
import { consumo, documentos } from './consumo.js';
import { opcoes, produtos } from './opcoes.js';
import { precos } from './precos.js';
import { consumoRelatorio, historicoPrecos } from './relatorios.js';
import { seedAnalise } from './seed.js';

export default defineServerPlugin({
  id: 'analise',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros', 'produtos', 'fornecedores', 'requisicoes', 'cotacoes'],
  tags: [{ tag: ANALISE_TAG, nome: ANALISE_TAG_NOME }],
  contributes: [contribute(RELATORIOS, consumoRelatorio), contribute(RELATORIOS, historicoPrecos)],
  seed: seedAnalise,
  routes(router) {
    const tag = ANALISE_TAG;
    router.route({
      method: 'get',
      path: '/consumo',
      tag,
      summary: 'Consumo por mês',
      description:
        'Quantidades e valores dos itens das requisições aprovadas, mês a mês (mês da aprovação em America/Sao_Paulo), por centro de custo, núcleo de consumo ou grupo, e por grupo; ' +
        'meses sem consumo com zero; totais e consumo médio mensal (total ÷ meses do período). Só os centros de custo da pessoa. Período de até 36 meses.',
      request: { query: filtrosConsumoSchema },
      responses: { 200: consumoSchema },
      handler: async (c, ctx) => c.json(await consumo(ctx, c.req.valid('query')), 200),
    });
    router.route({
      method: 'get',
      path: '/consumo/documentos',
      tag,
      summary: 'Requisições de um número do consumo',
      description: 'As requisições aprovadas por trás de um número: os mesmos filtros (o centro, núcleo ou grupo da série como filtro) e o mês (ou o período).',
      request: { query: filtrosConsumoSchema },
      responses: { 200: documentosConsumoSchema },
      handler: async (c, ctx) => c.json(await documentos(ctx, c.req.valid('query')), 200),
    });
    router.route({
      method: 'get',
      path: '/consumo/opcoes',
      tag,
      summary: 'Opções dos filtros do consumo',
      responses: { 200: opcoesConsumoSchema },
      handler: async (c, ctx) => c.json(await opcoes(ctx), 200),
    });
    router.route({
      method: 'get',
      path: '/consumo/produtos',
      tag,
      summary: 'Produtos e serviços para o filtro do consumo',
      request: { query: z.object({ q: z.string().max(100, 'Digite no máximo 100 caracteres.').default('') }) },
      responses: { 200: produtosConsumoSchema },
      handler: async (c, ctx) => c.json(await produtos(ctx, c.req.valid('query').q), 200),
    });
    router.route({
      method: 'get',
      path: '/precos',
      tag,
      summary: 'Histórico de preços de um produto',
      description:
        'Os preços unitários do produto, do mais antigo ao mais recente (dia em America/Sao_Paulo): os coletados nas cotações, por fonte ' +
        '(os excluídos do cálculo e os de cotações canceladas ficam de fora), o preço estimado das cotações concluídas e o valor unitário ' +
        'estimado das requisições enviadas (rascunhos e canceladas ficam de fora). Só documentos dos centros de custo da pessoa. ' +
        'Resumo exato: mediana, menor, maior, primeiro, último, variação do primeiro ao último (%), preços atípicos — fora de 75% a 125% ' +
        'da mediana, a regra do intervalo da mediana das cotações — e comparação dos fornecedores. 404 para um produto que não existe.',
      request: { query: filtrosPrecosSchema },
      responses: { 200: precosSchema },
      handler: async (c, ctx) => c.json(await precos(ctx, c.req.valid('query')), 200),
    });
    // the catalogue picker of the price page (GET /produtos?q=&ativo=todos, GET /produtos/:id)
    defineLookup(router, produtosLookup(tag));
  },
});
