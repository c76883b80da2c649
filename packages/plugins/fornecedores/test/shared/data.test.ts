// The impedimento dates of a supplier: dd/mm/aaaa or aaaa-mm-dd, and only days that exist (the rule
// of @app/br, the same as the API's date filters): year 0000 never reaches PostgreSQL.
import { describe, expect, it } from 'vitest';
import { dataSchema } from '../../src/shared/index.js';

describe('dataSchema', () => {
  it('keeps existing days, in either writing, as aaaa-mm-dd', () => {
    expect(dataSchema.parse('29/02/2024')).toBe('2024-02-29');
    expect(dataSchema.parse('2026-11-23')).toBe('2026-11-23');
    expect(dataSchema.parse('')).toBeNull();
  });
  it('refuses days that do not exist, year 0000 included', () => {
    for (const v of ['30/02/2024', '2023-02-29', '0000-01-01', '00/01/2026', '31/04/2026']) {
      const result = dataSchema.safeParse(v);
      expect(result.success, v).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Data inválida (use dd/mm/aaaa).');
    }
  });
});
