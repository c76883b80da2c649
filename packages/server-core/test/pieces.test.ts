// A background job's big document goes to its worker as JSON written a piece at a time (pieces.ts):
// what the worker reads back is what was written — Dates, decimals, non-finite numbers, empty cells —
// and the thread is given back between pieces.
import { describe, expect, it } from 'vitest';
import { fromJson, toJson } from '../src/formats/pieces.js';
import { writeXlsxInWorker, xlsxPoolStats } from '../src/formats/spreadsheet-pool.js';
import { parseSpreadsheet } from '../src/formats/spreadsheet.js';

describe('toJson / fromJson', () => {
  it('round-trips a workbook of long and short arrays, Dates, decimals, non-finite numbers and empty cells', async () => {
    const rows = Array.from({ length: 2_345 }, (_, i) => [`Linha ${i}`, i, { decimal: `${i}.50`, places: 2 }, new Date(Date.UTC(2026, 0, 1 + (i % 28))), null]);
    const sheets = [{ name: 'Relatório', preamble: [['Título'], []], header: ['A', 'B', 'C', 'D', 'E'], rows, when: new Date(0) }];
    const back = fromJson<typeof sheets>(await toJson(sheets));
    expect(back).toEqual(sheets);
    expect(back[0]!.rows[7]![3]).toBeInstanceOf(Date);
    expect(fromJson(await toJson({ a: [1, undefined, Number.NaN, Number.POSITIVE_INFINITY], b: undefined, c: 'x"y' }))).toEqual({
      a: [1, null, Number.NaN, Number.POSITIVE_INFINITY],
      c: 'x"y',
    });
    expect(fromJson(await toJson([]))).toEqual([]);
  });

  it('gives the thread back between pieces of a long array', async () => {
    let ticks = 0;
    const tick = () => {
      ticks++;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    await toJson(Array.from({ length: 10_000 }, (_, i) => [i, `texto ${i}`]));
    done = true;
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('a background workbook is written from the pieces: cells read back as sent', async () => {
    const before = xlsxPoolStats({ background: true }).started;
    const bytes = await writeXlsxInWorker(
      [{ name: 'Planilha', header: ['Nome', 'Valor', 'Data'], rows: [['Ana', { decimal: '1234.5', places: 2 }, new Date(Date.UTC(2026, 2, 5))]] }],
      { background: true },
    );
    expect(xlsxPoolStats({ background: true }).started).toBe(before + 1);
    const sheet = await parseSpreadsheet(bytes, { filename: 'p.xlsx' }, undefined, { headerFirstCell: 'Nome' });
    expect(sheet.rows[0]!.cells).toMatchObject({ Nome: 'Ana', Valor: '1234.5' });
    expect(sheet.rows[0]!.cells.Data).toMatch(/2026/);
  });
});
