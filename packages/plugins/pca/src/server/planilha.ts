// The plan's items in a workbook with the PNCP's item columns (§1.4 of the PCA insert), in the order the
// PNCP lists them: a person checks or completes the plan in a spreadsheet, or keys it into the portal.
// A file of the document kit (GET /planos/:id/itens.xlsx): route, scope, file name and headers are the kit's.
import { formatDate, formatDateTime } from '@app/br';
import { documentFile, xlsxTable } from '@app/server-core';
import { CATEGORIA_ITEM_PCA } from '../shared/index.js';
import { type ItemPublicavel, itensPublicaveis } from './publicacao.js';

const CATALOGO: Record<number, string> = { 1: 'CNBS', 2: 'Outros' };
const CLASSIFICACAO: Record<number, string> = { 1: 'Material', 2: 'Serviço' };
const decimal = (valor: string) => ({ decimal: valor, places: 4 });

export const planilhaItens = documentFile<ItemPublicavel[]>({
  title: 'Itens do plano com as colunas do PNCP',
  fileName: 'pca-itens',
  load: (f) => itensPublicaveis(f.ctx.db, String(f.row.id)),
  formats: {
    xlsx: (itens, f) =>
      xlsxTable({
        name: 'Itens do PCA',
        preamble: [
          [`Plano de Contratações Anual ${f.numero}`, `${f.entidade.nome} – ano do plano ${String(f.row.anoPca)}, unidade ${String(f.row.codigoUnidade)}`],
          [`Emitido em ${formatDateTime(f.emissao.em)} por ${f.emissao.por}`],
        ],
        rows: itens,
        columns: [
          { header: 'Número do item', cell: (i) => i.numeroItem },
          { header: 'Categoria do item', cell: (i) => CATEGORIA_ITEM_PCA[i.categoriaItemPca] ?? String(i.categoriaItemPca) },
          { header: 'Catálogo', cell: (i) => CATALOGO[i.catalogo] ?? String(i.catalogo) },
          { header: 'Classificação', cell: (i) => CLASSIFICACAO[i.classificacaoCatalogo] ?? String(i.classificacaoCatalogo) },
          { header: 'Código da classe/grupo', cell: (i) => i.classificacaoSuperiorCodigo },
          { header: 'Nome da classe/grupo', cell: (i) => i.classificacaoSuperiorNome },
          { header: 'Código do PDM', cell: (i) => i.pdmCodigo },
          { header: 'Descrição do PDM', cell: (i) => i.pdmDescricao },
          { header: 'Código do item', cell: (i) => i.codigoItem },
          { header: 'Descrição', cell: (i) => i.descricao },
          { header: 'Unidade de fornecimento', cell: (i) => i.unidadeFornecimento },
          { header: 'Quantidade', cell: (i) => decimal(i.quantidade) },
          { header: 'Valor unitário (R$)', cell: (i) => decimal(i.valorUnitario) },
          { header: 'Valor total (R$)', cell: (i) => decimal(i.valorTotal) },
          { header: 'Data desejada', cell: (i) => (i.dataDesejada ? formatDate(i.dataDesejada) : null) },
          { header: 'Unidade requisitante', cell: (i) => i.unidadeRequisitante },
        ],
      }),
  },
});
