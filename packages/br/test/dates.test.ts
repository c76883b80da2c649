import { describe, expect, it } from 'vitest';
import { isCalendarDate, TIME_ZONE } from '../src';

describe('isCalendarDate', () => {
  it('accepts days that exist, leap days included', () => {
    for (const d of ['2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01', '9999-12-31']) expect(isCalendarDate(d), d).toBe(true);
  });
  it('refuses days that match the pattern but do not exist, and other shapes', () => {
    for (const d of ['2024-02-30', '2023-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '23/11/2026', '2026-1-1', '2026-01-01T00:00', ''])
      expect(isCalendarDate(d), d).toBe(false);
  });
  it('names one application time zone', () => {
    expect(TIME_ZONE).toBe('America/Sao_Paulo');
  });
});
