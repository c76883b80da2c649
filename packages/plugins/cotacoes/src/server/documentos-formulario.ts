// The blank quote form sent to one invited supplier (IN 65, art. 5 IV), as PDF (to print, fill by
// hand, sign) and as XLSX (to fill and send back: the import reads it, documentos-importar.ts). Both
// carry the entidade, the cotação, the object, the supplier, the deadline, the instructions and, per
// item, nº, código, descrição, unidade and quantidade with blank columns for the unit price and the
// brand, and the fields for the proposal's validity and date.
//
// The XLSX is one protected sheet 'Proposta' (no password: it guards against slips): a title block,
// then the table whose header starts with 'Nº'. Only the yellow cells can be edited (validade, data,
// preço unitário, marca); the hidden column 'Chave' keeps each row's item id and, on the first row,
// the form's key (cotação and supplier), so the import knows what the file answers.
import { formatCpfCnpj, formatDate, formatDateTime } from '@app/br';
import { decimalPlaces, formatDecimal } from '@app/documents';
import { type CellValue, type PdfDocument, type XlsxSheet, xlsxTable } from '@app/server-core';
import type { Convite, MapaCotacao } from '../shared/index.js';

/** Headers of the form's table (the import reads them back) and the labels of its title block. */
export const FORMULARIO = {
  /** First cell of the header row: where the table starts. */
  numero: 'Nº',
  codigo: 'Código',
  descricao: 'Descrição',
  unidade: 'Unidade',
  quantidade: 'Quantidade',
  preco: 'Preço unitário (R$)',
  marca: 'Marca',
  chave: 'Chave',
  validade: 'Validade da proposta',
  data: 'Data da proposta',
} as const;

/** The form's key (hidden in the XLSX): which cotação and which supplier it answers. */
export const chaveFormulario = (cotacaoId: string, fornecedorId: string) => `cotacao=${cotacaoId};fornecedor=${fornecedorId}`;
/** Reads a form's key back; null when `text` is not one. */
export function lerChaveFormulario(text: string): { cotacaoId: string; fornecedorId: string } | null {
  const m = /^cotacao=([0-9a-f-]{36});fornecedor=([0-9a-f-]{36})$/i.exec(text.trim());
  return m ? { cotacaoId: m[1]!.toLowerCase(), fornecedorId: m[2]!.toLowerCase() } : null;
}

export interface EntidadeImpressa {
  nome: string;
  /** 14 characters, unformatted. */
  cnpj: string;
}

export const numeroCotacao = (mapa: MapaCotacao) => `${mapa.cotacao.numero}/${mapa.cotacao.ano}`;
const prazoTexto = (mapa: MapaCotacao) => (mapa.cotacao.prazo ? formatDateTime(mapa.cotacao.prazo) : 'Não definido');

/** The instructions printed on both forms (pt-BR). */
function instrucoes(mapa: MapaCotacao, planilha: boolean): string[] {
  const prazo = mapa.cotacao.prazo ? `até ${formatDateTime(mapa.cotacao.prazo)} (horário de Brasília)` : 'no prazo informado pelo órgão';
  return [
    'Informe o preço unitário de cada item em reais (até 4 casas decimais) e a marca ofertada. Deixe em branco o item que não for cotado.',
    'Os preços devem incluir todos os custos da entrega (tributos, frete, encargos e demais despesas) para as quantidades indicadas.',
    `Informe a validade da proposta e a data, e devolva este formulário ${prazo}.`,
    planilha
      ? 'Preencha somente as células em amarelo; não inclua, exclua nem reordene linhas ou colunas. Devolva o arquivo .xlsx: a coluna oculta identifica cada item.'
      : 'Assine e carimbe (com o CNPJ) ao final. Pesquisa de preços conforme a Instrução Normativa SEGES/ME nº 65/2021, art. 5º, IV.',
  ];
}

/** The blank form as a printable document (A4 portrait). */
export function formularioPdf(mapa: MapaCotacao, convite: Convite, entidade: EntidadeImpressa, geradoEm: Date): PdfDocument {
  return {
    entidade,
    title: 'Solicitação de cotação',
    numero: numeroCotacao(mapa),
    fields: [
      { label: 'Objeto', value: mapa.cotacao.objeto },
      { label: 'Prazo para resposta', value: prazoTexto(mapa) },
      { label: 'Fornecedor', value: convite.fornecedorNome },
      { label: 'CNPJ/CPF', value: formatCpfCnpj(convite.fornecedorDocumento) },
      { label: 'Responsável pela pesquisa', value: mapa.cotacao.responsavelNome },
      { label: 'Emitida em', value: formatDate(geradoEm) },
    ],
    items: {
      columns: [
        { header: FORMULARIO.numero, align: 'right' },
        { header: FORMULARIO.codigo, width: 'auto' },
        { header: FORMULARIO.descricao, width: '*' },
        { header: 'Unid.', align: 'center' },
        { header: 'Qtde.', align: 'right' },
        // blank, to be filled by hand
        { header: FORMULARIO.preco, width: 80 },
        { header: FORMULARIO.marca, width: 90 },
      ],
      rows: mapa.itens.map((item, i) => [String(i + 1), item.codigo, item.descricao, item.unidade, formatDecimal(item.quantidade), '', '']),
    },
    blocks: [
      {
        fields: [
          { label: FORMULARIO.validade, value: '____/____/________' },
          { label: FORMULARIO.data, value: '____/____/________' },
        ],
      },
      { heading: 'Instruções', level: 2 },
      ...instrucoes(mapa, false).map((text, i) => ({ text: `${i + 1}. ${text}` })),
    ],
    signatures: [{ name: convite.fornecedorNome, role: `Representante legal — CNPJ/CPF ${formatCpfCnpj(convite.fornecedorDocumento)}` }],
    generatedAt: geradoEm,
  };
}

/** The sheet of the blank form as the XLSX the supplier fills and sends back (the route writes it in a worker thread: writeXlsxInWorker). */
export function formularioPlanilha(mapa: MapaCotacao, convite: Convite, entidade: EntidadeImpressa): XlsxSheet {
  const linha = (label: string, value: CellValue, chave?: string): CellValue[] =>
    chave ? [label, value, null, null, null, null, null, chave] : [label, value];
  const preamble: CellValue[][] = [
    linha(`Solicitação de cotação nº ${numeroCotacao(mapa)}`, null, chaveFormulario(mapa.cotacao.id, convite.fornecedorId)),
    linha('Entidade', `${entidade.nome} — CNPJ ${formatCpfCnpj(entidade.cnpj)}`),
    linha('Objeto', mapa.cotacao.objeto),
    linha('Fornecedor', convite.fornecedorNome),
    linha('CNPJ/CPF', formatCpfCnpj(convite.fornecedorDocumento)),
    linha('Prazo para resposta', prazoTexto(mapa)),
    linha('Responsável', mapa.cotacao.responsavelNome),
    [],
    linha(FORMULARIO.validade, null),
    linha(FORMULARIO.data, null),
    [],
    ['Instruções'],
    ...instrucoes(mapa, true).map((text, i) => [`${i + 1}. ${text}`]),
    [],
  ];
  // rows of the title block where the supplier types (column B): validade and data
  const validadeRow = preamble.findIndex((r) => r[0] === FORMULARIO.validade) + 1;
  const dataRow = preamble.findIndex((r) => r[0] === FORMULARIO.data) + 1;
  return xlsxTable({
    name: 'Proposta',
    preamble,
    rows: mapa.itens,
    // column A also holds the title block's labels
    columns: [
      { header: FORMULARIO.numero, width: 22, cell: (_item, i) => i + 1 },
      { header: FORMULARIO.codigo, width: 14, cell: (item) => item.codigo },
      { header: FORMULARIO.descricao, width: 60, cell: (item) => item.descricao },
      { header: FORMULARIO.unidade, width: 10, cell: (item) => item.unidade },
      { header: FORMULARIO.quantidade, width: 12, cell: (item) => ({ decimal: item.quantidade, places: decimalPlaces(item.quantidade) }) },
      { header: FORMULARIO.preco, width: 20, cell: () => null },
      { header: FORMULARIO.marca, width: 28, cell: () => null },
      { header: FORMULARIO.chave, width: 38, cell: (item) => item.produtoId },
    ],
    hiddenColumns: [7],
    freezeHeader: false,
    autoFilter: false,
    inputs: { columns: { 5: 'decimal', 6: 'text' }, cells: { [`B${validadeRow}`]: 'date', [`B${dataRow}`]: 'date' } },
  });
}
