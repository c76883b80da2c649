// The items table of a document's PDF, for lines of the catalogue: every document plugin prints
// the same seven columns (memorandos, requisições, …), so the kit writes them once.
import { formatDecimal, formatMoney } from '@app/documents';
import type { PdfDocument } from '../../formats/pdf.js';

/**
 * Item, Código, Descrição, Unid., Quantidade, Valor unitário (4 places), Valor total, and the document
 * total, from item rows holding the kit's item columns (ordem, quantidade, valorUnitario, valorTotal)
 * and the product's produtoCodigo, produtoDescricao, unidadeSigla.
 */
export function catalogueItemsPdf(
  itens: readonly Record<string, unknown>[],
  valorTotal: unknown,
  totalLabel = 'Valor total estimado',
): NonNullable<PdfDocument['items']> {
  return {
    columns: [
      { header: 'Item', align: 'right' },
      { header: 'Código' },
      { header: 'Descrição', width: '*' },
      { header: 'Unid.' },
      { header: 'Quantidade', align: 'right' },
      { header: 'Valor unitário', align: 'right' },
      { header: 'Valor total', align: 'right' },
    ],
    rows: itens.map((item) => [
      String(item.ordem),
      String(item.produtoCodigo ?? ''),
      String(item.produtoDescricao ?? ''),
      String(item.unidadeSigla ?? ''),
      formatDecimal(item.quantidade as string),
      formatMoney(item.valorUnitario as string, 4),
      formatMoney(item.valorTotal as string),
    ]),
    total: { label: totalLabel, value: formatMoney(valorTotal as string) },
  };
}
