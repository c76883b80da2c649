// @app/memorandos/server: 'Memorandos' (tag 29) under /api/memorandos, from defineDocumentResource:
//   GET/POST /memorandos, GET/PUT/DELETE /memorandos/:id, GET /memorandos.csv|.xlsx,
//   POST /memorandos/:id/enviar|aceitar|devolver|arquivar|cancelar|duplicar,
//   GET /memorandos/:id/historico, GET /memorandos/:id.pdf; the form's pickers GET /centros-custo, /produtos.
import { today } from '@app/br';
import { produtos, produtosLookup } from '@app/produtos/server';
import { centrosCusto, centrosCustoLookup, unidades } from '@app/registros/server';
import {
  PENDENCIAS,
  RASCUNHOS_ALHEIOS_TAG_INFO,
  VOCABULARIO_AUDITORIA,
  type RequestContext,
  centroCustoScope,
  contribute,
  defineDocumentResource,
  defineLookup,
  defineServerPlugin,
} from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { alias } from '@app/server-core/pg-core';
import {
  MEMORANDOS_TAG,
  MEMORANDOS_TAG_NOME,
  PRIORIDADE_LABEL,
  PRIORIDADES,
  type Prioridade,
  fluxo,
  memorandoInputSchema,
  papeisNoMemorando,
} from '../shared/index.js';
import { MEMORANDOS_A_ACEITAR } from './pendencias.js';
import { memorandoPdf } from './pdf.js';
import { seedMemorandos } from './seed.js';
import { memorandoItens, memorandos } from './tables.js';

export { memorandoItens, memorandos } from './tables.js';

type Row = Record<string, unknown>;

const origem = alias(centrosCusto, 'origem');
const destino = alias(centrosCusto, 'destino');
const unidade = alias(unidades, 'unidade');

const papeis = (row: Row, ctx: RequestContext) =>
  papeisNoMemorando(row as { origemId: string; destinoId: string; solicitanteId: string }, {
    userId: ctx.user.id,
    centrosCusto: ctx.centrosCusto,
    todosCentros: ctx.todosCentros,
  });

const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');

/** How the records a memorando refers to are named: its timeline and the Logs de Auditoria. */
const NOMES = {
  origemId: { table: 'registros_centros_custo', label: "codigo || ' – ' || nome" },
  destinoId: { table: 'registros_centros_custo', label: "codigo || ' – ' || nome" },
  produtoId: { table: 'produtos', label: "codigo || ' – ' || descricao" },
  solicitanteId: { table: 'usuarios', label: 'nome', scoped: false },
} as const;

export default defineServerPlugin({
  id: 'memorandos',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros', 'produtos'],
  tags: [{ tag: MEMORANDOS_TAG, nome: MEMORANDOS_TAG_NOME }, RASCUNHOS_ALHEIOS_TAG_INFO],
  // what the person must act on: memorandos sent to their centro, to answer (GET /api/pendencias)
  contributes: [
    contribute(PENDENCIAS, MEMORANDOS_A_ACEITAR),
    // the Logs de Auditoria show these codes by their labels, and the ids by the names the timeline gives them
    contribute(VOCABULARIO_AUDITORIA, {
      nomes: NOMES,
      campos: { status: 'Situação', origemId: 'Origem', destinoId: 'Destino' },
      valores: { status: fluxo.states, prioridade: PRIORIDADE_LABEL },
    }),
  ],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    // the form's pickers under tag 29: a requisitante holds neither Cadastros (24) nor Produtos (25)
    const tag = MEMORANDOS_TAG;
    // origem=true: the centros the person may write from
    defineLookup(router, centrosCustoLookup(tag, 'origem'));
    defineLookup(router, produtosLookup(tag));
    defineDocumentResource(router, {
      path: '/memorandos',
      tag: MEMORANDOS_TAG,
      table: memorandos,
      flow: fluxo,
      schema: memorandoInputSchema,
      label: { singular: 'memorando', plural: 'memorandos', documento: 'Memorando' },
      roles: papeis,
      scope: (ctx) => centroCustoScope(ctx, memorandos.origemId, memorandos.destinoId),
      defaults: (ctx) => ({
        solicitanteId: ctx.user.id,
        solicitanteNome: ctx.user.nome,
        data: today(),
      }),
      // only the requesting area changes its memorando (and, by the kit, only its authors); none is deleted (the kit: cancel it)
      canEdit: (row, ctx) => (papeis(row, ctx).has('origem') ? null : 'Só o centro de custo de origem pode alterar este memorando.'),
      validate: async (_tx, data, write) => {
        const fields: Record<string, string> = {};
        const { ctx } = write;
        if (data.destinoId === data.origemId) fields.destinoId = 'O destino deve ser outro centro de custo.';
        if (!ctx.todosCentros && !ctx.centrosCusto.includes(data.origemId)) {
          fields.origemId = 'Escolha um centro de custo ao qual você pertence.';
        }
        return Object.keys(fields).length ? fields : undefined;
      },
      // a line without a PCA category takes the product's: material → 1, serviço → 2
      afterSave: async (tx, id) => {
        await tx.execute(sql`UPDATE memorando_itens i SET categoria_item_pca = CASE p.tipo WHEN 'servico' THEN 2 ELSE 1 END
          FROM produtos p WHERE i.memorando_id = ${id} AND i.categoria_item_pca IS NULL AND p.id = i.produto_id`);
      },
      references: {
        origemId: { table: centrosCusto, active: centrosCusto.ativo, message: 'Escolha um centro de custo cadastrado em Registros.' },
        destinoId: { table: centrosCusto, active: centrosCusto.ativo, message: 'Escolha um centro de custo cadastrado em Registros.' },
      },
      items: {
        table: memorandoItens,
        documentColumn: memorandoItens.memorandoId,
        orderColumn: memorandoItens.ordem,
        productColumn: memorandoItens.produtoId,
        quantityColumn: memorandoItens.quantidade,
        unitValueColumn: memorandoItens.valorUnitario,
        totalColumn: memorandoItens.valorTotal,
        documentTotalColumn: memorandos.valorTotal,
        references: {
          produtoId: {
            table: produtos,
            active: produtos.ativo,
            message: 'Escolha um produto ou serviço do catálogo.',
            inactiveMessage: 'Este produto está desativado: escolha outro.',
          },
        },
        joins: [
          { table: produtos, on: eq(produtos.id, memorandoItens.produtoId) },
          { table: unidade, on: eq(unidade.id, produtos.unidadeId) },
        ],
        extra: { produtoCodigo: produtos.codigo, produtoDescricao: produtos.descricao, produtoTipo: produtos.tipo, unidadeSigla: unidade.sigla },
      },
      duplicate: { reset: ['dataDesejada'] },
      history: {
        names: NOMES,
        skip: ['solicitanteNome'],
      },
      // the DFD (Lei 14.133/2021, art. 12, VII): who accepted it and when, returns with reasons (pdf.ts)
      pdf: memorandoPdf,
      list: {
        joins: [
          { table: origem, on: eq(origem.id, memorandos.origemId) },
          { table: destino, on: eq(destino.id, memorandos.destinoId) },
        ],
        extra: {
          origemCodigo: origem.codigo,
          origemNome: origem.nome,
          origemResponsavel: origem.responsavelNome,
          destinoCodigo: destino.codigo,
          destinoNome: destino.nome,
        },
        busca: memorandos.busca,
        sortable: ['numero', 'data', 'assunto', 'origemNome', 'destinoNome', 'solicitanteNome', 'prioridade', 'status', 'valorTotal', 'dataDesejada'],
        defaultSort: '-numero',
        filters: { origemId: memorandos.origemId, destinoId: memorandos.destinoId },
        ranges: { data: memorandos.data },
        sets: { prioridade: { column: memorandos.prioridade, values: PRIORIDADES } },
        columns: [
          { key: 'numero', header: 'Número' },
          { key: 'data', header: 'Data', value: (row) => dataBr(row.data) },
          { key: 'status', header: 'Situação' },
          { key: 'assunto', header: 'Assunto' },
          { key: 'origemNome', header: 'Origem' },
          { key: 'destinoNome', header: 'Destino' },
          { key: 'solicitanteNome', header: 'Solicitante' },
          { key: 'prioridade', header: 'Prioridade', value: (row) => PRIORIDADE_LABEL[row.prioridade as Prioridade] },
          { key: 'dataDesejada', header: 'Data desejada', value: (row) => dataBr(row.dataDesejada) },
          // a number in the XLSX (#,##0.00), '383,78' in the CSV: the stored decimal, never through a float
          {
            key: 'valorTotal',
            header: 'Valor total estimado',
            value: (row) => (row.valorTotal == null ? null : { decimal: String(row.valorTotal), places: 2 }),
          },
        ],
        exportName: 'memorandos',
      },
    });
  },
  seed: seedMemorandos,
});
