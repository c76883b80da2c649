// The kit's line totals, without a database: a line whose quantity × unit value rounds to R$ 0,00 is
// refused at itens.N.quantidade (issue 18: a quantity of 0,001 made a document of R$ 0,00), whatever
// the plugin's schema let through.
import { ZERO_LINE_TOTAL_MESSAGE } from '@app/documents';
import { describe, expect, it } from 'vitest';
import { createDocumentItems } from '../src/kit/documents/items.js';
import { AppError } from '../src/platform/errors.js';
import { docMemoItens } from './fixtures/documents-plugin.js';

const items = createDocumentItems(
  {
    table: docMemoItens,
    documentColumn: docMemoItens.memoId,
    orderColumn: docMemoItens.ordem,
    quantityColumn: docMemoItens.quantidade,
    unitValueColumn: docMemoItens.valorUnitario,
    totalColumn: docMemoItens.total,
  },
  'test',
);

describe('document items: totals', () => {
  it('refuses a line whose total rounds to R$ 0,00, naming its quantity', () => {
    let error: unknown;
    try {
      items.totals([
        { quantidade: '2', valorUnitario: '10' },
        { quantidade: '0.001', valorUnitario: '1' },
      ]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).fields).toEqual({ 'itens.1.quantidade': ZERO_LINE_TOTAL_MESSAGE });
  });
  it('keeps lines of half a cent and more (rounded up), and the document total exact', () => {
    expect(items.totals([{ quantidade: '0.001', valorUnitario: '5' }]).total).toBe('0.01');
    expect(
      items.totals([
        { quantidade: '3', valorUnitario: '0.3333' },
        { quantidade: '2.5', valorUnitario: '10.015' },
      ]).total,
    ).toBe('26.04');
  });
});
