import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  maskCep,
  maskCnpj,
  maskCpf,
  maskCpfPartial,
  maskPhone,
} from '../src/format';

/** Intl separates 'R$' from the amount with a no-break space; compare with plain spaces. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('formatDate / formatDateTime (America/Sao_Paulo)', () => {
  it('formats as dd/mm/aaaa and dd/mm/aaaa HH:mm', () => {
    expect(formatDate(new Date('2024-07-15T15:00:00Z'))).toBe('15/07/2024');
    expect(formatDateTime('2024-07-15T15:04:00Z')).toBe('15/07/2024 12:04');
  });

  it('converts instants to São Paulo time whatever the machine time zone', () => {
    // 02:30 UTC on 1 March is still 29 February (leap year) in São Paulo (UTC−3).
    expect(formatDate('2024-03-01T02:30:00Z')).toBe('29/02/2024');
    expect(formatDateTime('2024-03-01T02:30:00Z')).toBe('29/02/2024 23:30');
    // Midnight uses 00, not 24.
    expect(formatDateTime('2024-03-01T03:05:00Z')).toBe('01/03/2024 00:05');
  });

  it('follows historical daylight saving time (UTC−2 in the summer of 2018)', () => {
    expect(formatDateTime('2018-12-01T12:00:00Z')).toBe('01/12/2018 10:00');
    expect(formatDateTime('2018-07-01T12:00:00Z')).toBe('01/07/2018 09:00');
  });

  it('never shifts a date-only value by the time zone', () => {
    expect(formatDate('2024-03-01')).toBe('01/03/2024');
    expect(formatDate('2024-01-01')).toBe('01/01/2024');
  });

  it('gives an empty string for empty or invalid input', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('ontem')).toBe('');
    expect(formatDateTime(new Date(Number.NaN))).toBe('');
  });
});

describe('formatMoney', () => {
  it('formats reais in pt-BR', () => {
    expect(plain(formatMoney('1234.56'))).toBe('R$ 1.234,56');
    expect(plain(formatMoney(1234.5))).toBe('R$ 1.234,50');
    expect(plain(formatMoney(0))).toBe('R$ 0,00');
    expect(plain(formatMoney('10'))).toBe('R$ 10,00');
    expect(plain(formatMoney('.5'))).toBe('R$ 0,50');
  });

  it('keeps the no-break space Intl uses (the amount never wraps away from R$)', () => {
    expect(formatMoney('1')).toBe('R$\u00a01,00');
  });

  it('rounds decimal strings exactly, half away from zero', () => {
    expect(plain(formatMoney('0.125'))).toBe('R$ 0,13');
    expect(plain(formatMoney('2.675'))).toBe('R$ 2,68');
    expect(plain(formatMoney('2.674999'))).toBe('R$ 2,67');
    expect(plain(formatMoney('-2.675'))).toBe('-R$ 2,68');
  });

  it('has no float drift for large decimal strings', () => {
    expect(plain(formatMoney('12345678901234567.89'))).toBe('R$ 12.345.678.901.234.567,89');
    expect(plain(formatMoney('99999999999999.99'))).toBe('R$ 99.999.999.999.999,99');
  });

  it('formats negatives like Intl does and drops the sign of zero', () => {
    expect(plain(formatMoney('-1500.5'))).toBe('-R$ 1.500,50');
    expect(plain(formatMoney(-0.5))).toBe('-R$ 0,50');
    expect(plain(formatMoney('-0.001'))).toBe('R$ 0,00');
  });

  it('gives an empty string for empty or invalid input', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('12,50')).toBe('');
    expect(formatMoney('abc')).toBe('');
    expect(formatMoney(Number.NaN)).toBe('');
  });
});

describe('formatNumber', () => {
  it('uses pt-BR separators', () => {
    expect(formatNumber(1234567.891)).toBe('1.234.567,891');
    expect(formatNumber('1500')).toBe('1.500');
    expect(formatNumber(2.5, { minimumFractionDigits: 2 })).toBe('2,50');
    expect(formatNumber(null)).toBe('');
    expect(formatNumber('x')).toBe('');
  });
});

describe('masks', () => {
  it('maskCpf formats full and partial input', () => {
    expect(maskCpf('12345678909')).toBe('123.456.789-09');
    expect(maskCpf('123.456.789-09')).toBe('123.456.789-09');
    expect(maskCpf('1234')).toBe('123.4');
    expect(maskCpf('123456789091234')).toBe('123.456.789-09');
    expect(maskCpf('')).toBe('');
  });

  it('maskCpfPartial hides the first three and the check digits', () => {
    expect(maskCpfPartial('12345678909')).toBe('***.456.789-**');
    expect(maskCpfPartial('123.456.789-09')).toBe('***.456.789-**');
    expect(maskCpfPartial('1234567890')).toBe('');
    expect(maskCpfPartial(null)).toBe('');
  });

  it('maskCnpj formats numeric CNPJ', () => {
    expect(maskCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskCnpj('11.222.333/0001-81')).toBe('11.222.333/0001-81');
    expect(maskCnpj('112223')).toBe('11.222.3');
  });

  it('maskCnpj supports the alphanumeric CNPJ', () => {
    expect(maskCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12.ABC.345/01DE-35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12ABC')).toBe('12.ABC');
  });

  it('maskCep', () => {
    expect(maskCep('01310100')).toBe('01310-100');
    expect(maskCep('01310-100')).toBe('01310-100');
    expect(maskCep('0131')).toBe('0131');
  });

  it('maskPhone handles landlines, mobiles, 0800 and +55', () => {
    expect(maskPhone('1134567890')).toBe('(11) 3456-7890');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('+55 11 98765-4321')).toBe('(11) 98765-4321');
    expect(maskPhone('08001234567')).toBe('0800 123 4567');
    expect(maskPhone('11')).toBe('(11');
    expect(maskPhone('113456')).toBe('(11) 3456');
    expect(maskPhone(undefined)).toBe('');
  });
});
