import { describe, expect, it } from 'vitest';
import { dateSchema, isCalendarDate, normalizeDate, optionalDateSchema, parseDate } from '../src';

describe('isCalendarDate', () => {
  it('accepts days that exist, leap days included', () => {
    for (const d of ['2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01', '9999-12-31']) expect(isCalendarDate(d), d).toBe(true);
  });
  it('refuses days that match the pattern but do not exist, and other shapes', () => {
    for (const d of [
      '2024-02-30',
      '2023-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '0000-01-01',
      '23/11/2026',
      '2026-1-1',
      '2026-01-01T00:00',
      '',
    ])
      expect(isCalendarDate(d), d).toBe(false);
  });
});

describe('normalizeDate / parseDate', () => {
  it('dd/mm/aaaa and aaaa-mm-dd, trimmed, become aaaa-mm-dd', () => {
    expect(normalizeDate('29/02/2024')).toBe('2024-02-29');
    expect(normalizeDate(' 2026-11-23 ')).toBe('2026-11-23');
    expect(parseDate('29/02/2024')).toBe('2024-02-29');
  });
  it('other writings are not dates; parseDate also refuses days that do not exist', () => {
    for (const v of ['1/2/2026', '2026-1-1', '2026-01-01T00:00', '01-02-2026', 'hoje', '', null, undefined, '001/02/2026']) {
      expect(normalizeDate(v), String(v)).toBeNull();
      expect(parseDate(v), String(v)).toBeNull();
    }
    expect(normalizeDate('30/02/2024')).toBe('2024-02-30');
    for (const v of ['30/02/2024', '2023-02-29', '00/01/2026', '0000-01-01', '31/04/2026']) expect(parseDate(v), v).toBeNull();
  });
});

describe('dateSchema, the one date schema', () => {
  const message = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message);
  it('either writing in, aaaa-mm-dd out', () => {
    expect(dateSchema().parse('29/02/2024')).toBe('2024-02-29');
    expect(dateSchema().parse(' 2024-02-29 ')).toBe('2024-02-29');
  });
  it('one pt-BR message naming the field for each kind of bad input', () => {
    expect(message(dateSchema('Data inicial').safeParse('2024-02-30'))).toEqual(['Data inicial: data inexistente.']);
    expect(message(dateSchema('Dia').safeParse('31/04/2026'))).toEqual(['Dia: data inexistente.']);
    expect(message(dateSchema().safeParse('0000-01-01'))).toEqual(['Data: data inexistente.']);
    expect(message(dateSchema().safeParse('2026-1-1'))).toEqual(['Data: use o formato dd/mm/aaaa.']);
    expect(message(dateSchema().safeParse('amanhã'))).toEqual(['Data: use o formato dd/mm/aaaa.']);
    expect(message(dateSchema().safeParse(20260101))).toEqual(['Data: use o formato dd/mm/aaaa.']);
    expect(message(dateSchema().safeParse(''))).toEqual(['Data: informe a data.']);
    expect(message(dateSchema().safeParse('  '))).toEqual(['Data: informe a data.']);
    expect(message(dateSchema().safeParse(undefined))).toEqual(['Data: informe a data.']);
    expect(message(dateSchema().safeParse(null))).toEqual(['Data: use o formato dd/mm/aaaa.']);
  });
  it('optionalDateSchema: blank is null, a date is as dateSchema says', () => {
    const s = optionalDateSchema('Impedido de');
    for (const v of [null, undefined, '', '   ']) expect(s.parse(v), String(v)).toBeNull();
    expect(s.parse('29/02/2024')).toBe('2024-02-29');
    expect(message(s.safeParse('30/02/2024'))).toEqual(['Impedido de: data inexistente.']);
    expect(message(s.safeParse('2/2/2024'))).toEqual(['Impedido de: use o formato dd/mm/aaaa.']);
    expect(message(s.safeParse(5))).toEqual(['Impedido de: use o formato dd/mm/aaaa.']);
  });
});
