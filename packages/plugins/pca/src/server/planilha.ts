// The plan's items in a workbook with the PNCP's item columns (§1.4 of the PCA insert), in the order the
// PNCP lists them: a person checks or completes the plan in a spreadsheet, or keys it into the portal.
// A file of the document kit (GET /planos/:id/itens.xlsx): route, scope, file name and headers are the kit's.
import { formatDate, formatDateTime } from '@app/br';
import { documentFile } from '@app/server-core';
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
    xlsx: (itens, f) => ({
      name: 'Itens do PCA',
      preamble: [
        [`Plano de Contratações Anual ${f.numero}`, `${f.entidade.nome} – ano do plano ${String(f.row.anoPca)}, unidade ${String(f.row.codigoUnidade)}`],
        [`Emitido em ${formatDateTime(f.emissao.em)} por ${f.emissao.por}`],
      ],
      header: [
        'Número do item',
        'Categoria do item',
        'Catálogo',
        'Classificação',
        'Código da classe/grupo',
        'Nome da classe/grupo',
        'Código do PDM',
        'Descrição do PDM',
        'Código do item',
        'Descrição',
        'Unidade de fornecimento',
        'Quantidade',
        'Valor unitário (R$)',
        'Valor total (R$)',
        'Data desejada',
        'Unidade requisitante',
      ],
      rows: itens.map((i) => [
        i.numeroItem,
        CATEGORIA_ITEM_PCA[i.categoriaItemPca] ?? String(i.categoriaItemPca),
        CATALOGO[i.catalogo] ?? String(i.catalogo),
        CLASSIFICACAO[i.classificacaoCatalogo] ?? String(i.classificacaoCatalogo),
        i.classificacaoSuperiorCodigo,
        i.classificacaoSuperiorNome,
        i.pdmCodigo,
        i.pdmDescricao,
        i.codigoItem,
        i.descricao,
        i.unidadeFornecimento,
        decimal(i.quantidade),
        decimal(i.valorUnitario),
        decimal(i.valorTotal),
        i.dataDesejada ? formatDate(i.dataDesejada) : null,
        i.unidadeRequisitante,
      ]),
    }),
  },
});
