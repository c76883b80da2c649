import { describe, expect, it } from 'vitest';
import { dateTimeInputValue, formatDate, formatDateTime, instantFromDateTimeInput, TIME_ZONE, timeParts, toInstant, today } from '../src';

describe('the application time zone', () => {
  it('is São Paulo', () => {
    expect(TIME_ZONE).toBe('America/Sao_Paulo');
  });
  it('reads an instant on São Paulo clock, whatever the process time zone', () => {
    expect(timeParts(new Date('2026-03-01T02:05:07Z'))).toEqual({ year: '2026', month: '02', day: '28', hour: '23', minute: '05', second: '07' });
    expect(timeParts(new Date('2026-03-01T03:00:00Z')).hour).toBe('00');
    // daylight saving time until 2019 (UTC−2 in summer)
    expect(timeParts(new Date('2018-12-01T02:30:00Z'))).toMatchObject({ day: '01', hour: '00', minute: '30' });
    expect(() => timeParts(new Date('x'))).toThrow(RangeError);
  });
  it('today is the São Paulo day: the evening after 21:00 UTC−3 is still the same day', () => {
    expect(today(new Date('2026-03-01T02:30:00Z'))).toBe('2026-02-28');
    expect(today(new Date('2026-03-01T03:00:00Z'))).toBe('2026-03-01');
    expect(today()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('formatDate / formatDateTime', () => {
  it('dd/mm/aaaa and dd/mm/aaaa HH:mm (24 h), seconds on request', () => {
    expect(formatDate('2026-03-01T02:30:00Z')).toBe('28/02/2026');
    expect(formatDateTime('2026-03-01T02:30:00Z')).toBe('28/02/2026 23:30');
    expect(formatDateTime(new Date('2026-07-15T15:04:05Z'), { seconds: true })).toBe('15/07/2026 12:04:05');
    expect(formatDateTime(Date.UTC(2026, 0, 1, 3, 0))).toBe('01/01/2026 00:00');
  });
  it('São Paulo time whatever the machine time zone, historical daylight saving time included (moved from @app/ui)', () => {
    expect(formatDate(new Date('2024-07-15T15:00:00Z'))).toBe('15/07/2024');
    expect(formatDateTime('2024-07-15T15:04:00Z')).toBe('15/07/2024 12:04');
    expect(formatDate('2024-03-01T02:30:00Z')).toBe('29/02/2024');
    expect(formatDateTime('2024-03-01T03:05:00Z')).toBe('01/03/2024 00:05');
    expect(formatDateTime('2018-12-01T12:00:00Z')).toBe('01/12/2018 10:00');
    expect(formatDateTime('2018-07-01T12:00:00Z')).toBe('01/07/2018 09:00');
  });
  it('a calendar day is never shifted by the time zone', () => {
    expect(formatDate('2024-03-01')).toBe('01/03/2024');
    expect(formatDate(' 2024-03-01 ')).toBe('01/03/2024');
    expect(formatDate('2024-01-01')).toBe('01/01/2024');
  });
  it('bad input gives empty', () => {
    for (const v of [null, undefined, '', 'amanhã', '2026-13-45T99:00', Number.NaN, new Date('x')]) {
      expect(formatDate(v), String(v)).toBe('');
      expect(formatDateTime(v), String(v)).toBe('');
      expect(toInstant(v), String(v)).toBeNull();
    }
  });
});

describe('datetime-local inputs on São Paulo clock', () => {
  it('shows an instant as São Paulo wall time and reads it back', () => {
    expect(dateTimeInputValue('2026-03-10T20:00:00.000Z')).toBe('2026-03-10T17:00');
    expect(instantFromDateTimeInput('2026-03-10T17:00')).toBe('2026-03-10T20:00:00.000Z');
    expect(instantFromDateTimeInput(dateTimeInputValue('2026-12-31T23:59:00.000Z'))).toBe('2026-12-31T23:59:00.000Z');
  });
  it('uses the summer-time offset of its day (until 2019)', () => {
    expect(instantFromDateTimeInput('2018-01-15T12:00')).toBe('2018-01-15T14:00:00.000Z');
    expect(dateTimeInputValue('2018-01-15T14:00:00.000Z')).toBe('2018-01-15T12:00');
  });
  it('refuses what is not a wall time: text, 31/02, a skipped hour', () => {
    expect(instantFromDateTimeInput('amanhã')).toBeNull();
    expect(instantFromDateTimeInput('2026-02-31T10:00')).toBeNull();
    // 04/11/2018 00:00 did not exist in São Paulo (clocks jumped to 01:00)
    expect(instantFromDateTimeInput('2018-11-04T00:30')).toBeNull();
    expect(dateTimeInputValue('')).toBe('');
    expect(dateTimeInputValue('x')).toBe('');
  });
});
