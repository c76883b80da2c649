// @app/__ID__/server: the documents of /api/__ID____BASE_PATH__ from defineDocumentResource (tag __TAG__):
//   GET/POST __BASE_PATH__, GET/PUT/DELETE __BASE_PATH__/:id (DELETE: 409, numbered documents are cancelled),
//   GET __BASE_PATH__.csv|.xlsx, POST __BASE_PATH__/:id/enviar|aceitar|devolver|cancelar|duplicar,
//   GET __BASE_PATH__/:id/historico, GET __BASE_PATH__/{id}.pdf; the items' picker GET /produtos.
// Numbering, items and totals, the flow, authors, audit, product uses and the PDF come from the kit.
import { today } from '@app/br';
import { produtos, produtosLookup } from '@app/produtos/server';
import { unidades } from '@app/registros/server';
import {
  type DocumentPdfContent,
  RASCUNHOS_ALHEIOS_TAG_INFO,
  catalogueItemsPdf,
  defineDocumentResource,
  defineLookup,
  defineServerPlugin,
} from '@app/server-core';
import { eq } from '@app/server-core/orm';
import { __CONST___PATH, __CONST___TAG, __CONST___TAG_NOME, __CAMEL__Schema, fluxo } from '../shared/index.js';
import { __CAMEL__, __CAMEL__Itens } from './tables.js';

type Row = Record<string, unknown>;

const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');

/** The PDF's content; the kit adds the entidade, the title, the number, the status and the verification code. */
function pdf(row: Row): DocumentPdfContent {
  return {
    fields: [
      { label: 'Data', value: dataBr(row.data) },
      { label: 'Solicitante', value: String(row.solicitanteNome) },
      { label: 'Assunto', value: String(row.assunto) },
    ],
    items: catalogueItemsPdf(row.itens as Row[], row.valorTotal, 'Valor total'),
    sections: row.observacao ? [{ title: 'Observação', text: String(row.observacao) }] : [],
    signatures: [{ name: String(row.solicitanteNome), role: 'Solicitante' }],
  };
}

/**
 * @app/__ID__, server half: the documents of /api/__ID____BASE_PATH__ behind tag __TAG__, scoped to the
 * session's entidade, every change audited.
 */
export default defineServerPlugin({
  id: '__ID__',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['produtos'],
  tags: [{ tag: __CONST___TAG, nome: __CONST___TAG_NOME }, RASCUNHOS_ALHEIOS_TAG_INFO],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    // the items' picker under this plugin's tag (who writes documents may not hold Produtos)
    defineLookup(router, produtosLookup(__CONST___TAG));
    defineDocumentResource(router, {
      path: __CONST___PATH,
      tag: __CONST___TAG,
      table: __CAMEL__,
      flow: fluxo,
      schema: __CAMEL__Schema,
      label: { singular: 'documento', plural: 'documentos', documento: 'Documento' },
      // who the person is for a record (matched against the transitions' `who`): none declared yet
      roles: () => [],
      defaults: (ctx) => ({ solicitanteId: ctx.user.id, solicitanteNome: ctx.user.nome, data: today() }),
      items: {
        table: __CAMEL__Itens,
        documentColumn: __CAMEL__Itens.documentoId,
        orderColumn: __CAMEL__Itens.ordem,
        productColumn: __CAMEL__Itens.produtoId,
        quantityColumn: __CAMEL__Itens.quantidade,
        unitValueColumn: __CAMEL__Itens.valorUnitario,
        totalColumn: __CAMEL__Itens.valorTotal,
        documentTotalColumn: __CAMEL__.valorTotal,
        references: {
          produtoId: { table: produtos, active: produtos.ativo, message: 'Escolha um produto ou serviço do catálogo.' },
        },
        joins: [
          { table: produtos, on: eq(produtos.id, __CAMEL__Itens.produtoId) },
          { table: unidades, on: eq(unidades.id, produtos.unidadeId) },
        ],
        extra: { produtoCodigo: produtos.codigo, produtoDescricao: produtos.descricao, unidadeSigla: unidades.sigla },
      },
      history: { names: { produtoId: { table: 'produtos', label: "codigo || ' – ' || descricao" } }, skip: ['solicitanteNome'] },
      pdf,
      list: {
        busca: __CAMEL__.busca,
        sortable: ['numero', 'data', 'assunto', 'solicitanteNome', 'status', 'valorTotal'],
        defaultSort: '-numero',
        ranges: { data: __CAMEL__.data },
        columns: [
          { key: 'numero', header: 'Número' },
          { key: 'data', header: 'Data', value: (row) => dataBr(row.data) },
          { key: 'status', header: 'Situação' },
          { key: 'assunto', header: 'Assunto' },
          { key: 'solicitanteNome', header: 'Solicitante' },
          // a number in the XLSX, '383,78' in the CSV: the stored decimal, never through a float
          { key: 'valorTotal', header: 'Valor total', value: (row) => ({ decimal: String(row.valorTotal), places: 2 }) },
        ],
      },
    });
  },
});
