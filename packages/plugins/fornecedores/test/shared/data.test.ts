// The impedimento dates of a supplier: @app/br's one date schema (dd/mm/aaaa or aaaa-mm-dd, only days
// that exist, year 0000 never reaches PostgreSQL), each message naming its field.
import { describe, expect, it } from 'vitest';
import { fornecedorInputSchema } from '../../src/shared/index.js';

const { impedimentoDe, impedimentoAte } = fornecedorInputSchema.shape;

describe('impedimento dates', () => {
  it('keeps existing days, in either writing, as aaaa-mm-dd; blank is null', () => {
    expect(impedimentoDe.parse('29/02/2024')).toBe('2024-02-29');
    expect(impedimentoAte.parse('2026-11-23')).toBe('2026-11-23');
    expect(impedimentoDe.parse('')).toBeNull();
    expect(impedimentoAte.parse(null)).toBeNull();
  });
  it('refuses days that do not exist, year 0000 included, and other writings', () => {
    for (const v of ['30/02/2024', '2023-02-29', '0000-01-01', '00/01/2026', '31/04/2026']) {
      const result = impedimentoDe.safeParse(v);
      expect(result.success, v).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Impedido de: data inexistente.');
    }
    expect(impedimentoAte.safeParse('1/2/2026').error?.issues[0]?.message).toBe('Impedido até: use o formato dd/mm/aaaa.');
  });
});
