import { describe, expect, it } from 'vitest';
import { pdfTable, xlsxTable } from '../src/formats/columns.js';

const linhas = [
  { nome: 'Caneta', valor: '1.5' },
  { nome: 'Lápis', valor: '0.75' },
];

describe('tables declared by their columns', () => {
  it('pdfTable: headers, cells in column order, muted rows and the other options as given', () => {
    const table = pdfTable(
      linhas,
      [
        { header: 'Nº', align: 'right', cell: (_l, i) => String(i + 1) },
        { header: 'Nome', width: '*', cell: (l) => l.nome },
        { header: 'Valor', align: 'right', cell: (l) => l.valor },
      ],
      { muted: (l) => l.nome === 'Lápis', empty: 'Nada.', total: { label: 'Total', value: '2.25' } },
    );
    expect(table).toEqual({
      columns: [
        { header: 'Nº', align: 'right' },
        { header: 'Nome', width: '*' },
        { header: 'Valor', align: 'right' },
      ],
      rows: [
        ['1', 'Caneta', '1.5'],
        ['2', 'Lápis', '0.75'],
      ],
      muted: [1],
      empty: 'Nada.',
      total: { label: 'Total', value: '2.25' },
    });
    expect(pdfTable([], [{ header: 'A', cell: () => 'x' }])).toEqual({ columns: [{ header: 'A' }], rows: [] });
  });

  it('xlsxTable: header and rows; widths only when a column gives one (the others 12)', () => {
    const sheet = xlsxTable({
      name: 'Itens',
      freezeHeader: false,
      rows: linhas,
      columns: [
        { header: 'Nome', width: 30, cell: (l) => l.nome },
        { header: 'Valor', cell: (l) => ({ decimal: l.valor, places: 2 }) },
      ],
    });
    expect(sheet).toEqual({
      name: 'Itens',
      freezeHeader: false,
      header: ['Nome', 'Valor'],
      rows: [
        ['Caneta', { decimal: '1.5', places: 2 }],
        ['Lápis', { decimal: '0.75', places: 2 }],
      ],
      widths: [30, 12],
    });
    expect(xlsxTable({ name: 'S', rows: linhas, columns: [{ header: 'Nome', cell: (l) => l.nome }] })).toEqual({
      name: 'S',
      header: ['Nome'],
      rows: [['Caneta'], ['Lápis']],
    });
  });
});
