import { describe, expect, it } from 'vitest';
import { formatMoney, formatNumber } from '../src/format';

/** Intl separates 'R$' from the amount with a no-break space; compare with plain spaces. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

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
