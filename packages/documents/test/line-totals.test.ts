import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZERO_LINE_TOTAL_MESSAGE, lineTotalRoundsToZero, quantitySchema, refineLineTotals, unitValueSchema } from '../src';

describe('lines whose total rounds to R$ 0,00 (issue 18: 0,001 × R$ 1,00 made a document of R$ 0,00)', () => {
  it('lineTotalRoundsToZero: both positive and the total below half a cent', () => {
    expect(lineTotalRoundsToZero('0.001', '1')).toBe(true);
    expect(lineTotalRoundsToZero('0.0001', '49.9999')).toBe(true);
    expect(lineTotalRoundsToZero('1', '0.0049')).toBe(true);
    // half a cent rounds up (away from zero): R$ 0,01
    expect(lineTotalRoundsToZero('0.001', '5')).toBe(false);
    expect(lineTotalRoundsToZero('1', '0.005')).toBe(false);
    expect(lineTotalRoundsToZero('10', '2.5')).toBe(false);
    // a zero or missing value is another rule's business (cotações keep a reference value of 0)
    expect(lineTotalRoundsToZero('0.001', '0')).toBe(false);
    expect(lineTotalRoundsToZero('0', '10')).toBe(false);
    expect(lineTotalRoundsToZero(undefined, '10')).toBe(false);
    expect(lineTotalRoundsToZero('abc', '10')).toBe(false);
  });
  it('refineLineTotals names the quantity of each such line, with the pt-BR message', () => {
    const schema = z.array(z.object({ quantidade: quantitySchema, valorUnitario: unitValueSchema })).superRefine((itens, ctx) => refineLineTotals(itens, ctx));
    const r = schema.safeParse([
      { quantidade: '2', valorUnitario: '10' },
      { quantidade: '0,001', valorUnitario: '1,00' },
    ]);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['1.quantidade', ZERO_LINE_TOTAL_MESSAGE]]);
    expect(ZERO_LINE_TOTAL_MESSAGE).toBe('O total do item fica em R$ 0,00: aumente a quantidade ou o valor unitário.');
    expect(schema.safeParse([{ quantidade: '0,005', valorUnitario: '1,00' }]).success).toBe(true);
  });
});
