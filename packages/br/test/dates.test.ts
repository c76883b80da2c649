import { describe, expect, it } from 'vitest';
import { dateSchema, dateTimeSchema, isCalendarDate, isDateTime, normalizeDate, optionalDateSchema, optionalDateTimeSchema, parseDate } from '../src';

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

describe('impossible months and days, in every writing (issue 18: month 13 was a 500)', () => {
  const message = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message);
  const impossible = ['00', '13', '99']
    .flatMap((mm) => [`10/${mm}/2026`, `2026-${mm}-10`])
    .concat(['31/02/2026', '30/02/2024', '29/02/2025', '2026-02-31', '2025-02-29']);
  it('dateSchema and optionalDateSchema answer "data inexistente" (never throw)', () => {
    for (const v of impossible) {
      expect(message(dateSchema('Data de referência').safeParse(v)), v).toEqual(['Data de referência: data inexistente.']);
      expect(message(optionalDateSchema('Validade').safeParse(v)), v).toEqual(['Validade: data inexistente.']);
    }
  });
  it('dateTimeSchema: instants whose day does not exist are refused with a field message', () => {
    for (const v of ['2026-13-01T10:00:00Z', '2026-00-10T10:00:00.000Z', '2026-99-10T10:00-03:00', '2026-02-31T10:00:00Z', '2025-02-29T23:59:59-03:00']) {
      expect(isDateTime(v), v).toBe(false);
      expect(message(dateTimeSchema('Prazo').safeParse(v)), v).toEqual(['Prazo: data inexistente.']);
    }
    expect(message(dateTimeSchema('Prazo').safeParse('2026-01-10T24:00:00Z'))).toEqual(['Prazo: hora inexistente.']);
    expect(message(dateTimeSchema('Prazo').safeParse('2026-01-10T10:00:00'))).toEqual(['Prazo: use data e hora no formato ISO (aaaa-mm-ddThh:mm:ssZ).']);
    expect(message(dateTimeSchema('Prazo').safeParse(''))).toEqual(['Prazo: informe a data e a hora.']);
    expect(message(dateTimeSchema('Prazo').safeParse(undefined))).toEqual(['Prazo: informe a data e a hora.']);
  });
  it('dateTimeSchema keeps a valid instant as written; optionalDateTimeSchema gives null for blank', () => {
    for (const v of ['2024-02-29T10:00:00.000Z', '2026-12-31T23:59:59-03:00', '2026-01-01T00:00Z', '2026-01-01T08:30:00+0300']) {
      expect(isDateTime(v), v).toBe(true);
      expect(dateTimeSchema().parse(v)).toBe(v);
    }
    const s = optionalDateTimeSchema('Prazo');
    for (const v of [null, undefined, '', '  ']) expect(s.parse(v), String(v)).toBeNull();
    expect(message(s.safeParse('2026-02-30T10:00:00Z'))).toEqual(['Prazo: data inexistente.']);
  });
});
