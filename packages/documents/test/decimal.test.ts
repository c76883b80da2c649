import { describe, expect, it } from 'vitest';
import {
  compareDecimal,
  decimalSchema,
  formatDecimal,
  formatMoney,
  fromUnits,
  lineTotal,
  parseDecimal,
  parseDecimalInput,
  quantitySchema,
  sumMoney,
  toUnits,
  unitValueSchema,
} from '../src';

describe('parseDecimal', () => {
  it.each([
    ['1.234,56', '1234.56'],
    ['1234,56', '1234.56'],
    ['1234.56', '1234.56'],
    ['1.234', '1.234'],
    ['10.015', '10.015'],
    ['1.234.567', '1234567'],
    ['1.5', '1.5'],
    [' R$ 10 ', '10'],
    ['0,0125', '0.0125'],
    ['007,50', '7.5'],
    ['-0', '0'],
    ['-2,5', '-2.5'],
    [2.5, '2.5'],
    [0.1, '0.1'],
  ])('%s → %s', (input, out) => {
    expect(parseDecimal(input)).toBe(out);
  });
  it.each(['', 'abc', '1,2,3', '1.23,4.5', '12.34.5', '1e3', '--1', ',5', '1.', 'NaN'])('%s is not a number', (input) => {
    expect(parseDecimal(input)).toBeNull();
  });
  it('reads a canonical value back unchanged, and so do the schemas (the form sends parseDecimalInput of what was typed; the API parses it again)', () => {
    for (const typed of ['10,015', '1.234,5', '0,125', '1.234.567', '1.000', '12,3456', '999.999.999,9999', '1.5', '3']) {
      const canonical = parseDecimalInput(typed)!;
      expect([typed, parseDecimal(canonical)]).toEqual([typed, canonical]);
      expect([typed, unitValueSchema.parse(canonical)]).toEqual([typed, canonical]);
      expect([typed, quantitySchema.parse(canonical)]).toEqual([typed, canonical]);
    }
    expect(unitValueSchema.parse('10.015')).toBe('10.015');
    expect(unitValueSchema.parse(' 0012.50 ')).toBe('12.5');
    // pt-BR with a comma still works; a lone '1.000' is canonical here (the form sends parseDecimalInput('1.000') = '1000')
    expect(quantitySchema.parse('1.000,5')).toBe('1000.5');
    expect(quantitySchema.parse('1.000')).toBe('1');
  });
  it('refuses floats written in exponent form', () => {
    expect(parseDecimal(1e21)).toBeNull();
    expect(parseDecimal(Number.NaN)).toBeNull();
    expect(parseDecimal(1e-7)).toBeNull();
  });
});

describe('parseDecimalInput (typed pt-BR)', () => {
  it.each([
    ['1.500', '1500'],
    ['1.234.567,8', '1234567.8'],
    ['12,5', '12.5'],
    ['1.5', '1.5'],
    ['12.75', '12.75'],
    [' R$ 2.000 ', '2000'],
    ['-1.000', '-1000'],
  ])('%s → %s', (input, out) => {
    expect(parseDecimalInput(input)).toBe(out);
  });
  it('is not a number when it is not', () => {
    expect(parseDecimalInput('1,2,3')).toBeNull();
    expect(parseDecimalInput('')).toBeNull();
  });
  it('reads back what formatDecimal shows', () => {
    for (const v of ['1500', '1234567.8', '0.0125', '999.999']) expect(parseDecimalInput(formatDecimal(v))).toBe(v);
  });
});

describe('units', () => {
  it('round half away from zero', () => {
    expect(toUnits('1.235', 2)).toBe(124n);
    expect(toUnits('1.234', 2)).toBe(123n);
    expect(toUnits('-1.235', 2)).toBe(-124n);
    expect(fromUnits(5n, 2)).toBe('0.05');
    expect(fromUnits(-12345n, 2)).toBe('-123.45');
    expect(fromUnits(7n, 0)).toBe('7');
  });
});

describe('lineTotal and sumMoney', () => {
  it('are exact where floats are not', () => {
    // 0.1 + 0.2 and 3 × 0.3333 in floats: 0.30000000000000004, 0.9999
    expect(sumMoney(['0.1', '0.2'])).toBe('0.30');
    expect(lineTotal('3', '0.3333')).toBe('1.00');
    expect(lineTotal('2.5', '10.015')).toBe('25.04');
    expect(lineTotal('1.0005', '1')).toBe('1.00');
    expect(lineTotal('0.0001', '0.0001')).toBe('0.00');
    expect(lineTotal('99999999999.9999', '99999999999.9999')).toBe('9999999999999980000000.00');
    expect(lineTotal(3, 19.9)).toBe('59.70');
  });
  it('totals a thousand lines of 0,01 to exactly 10', () => {
    expect(sumMoney(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
  });
  it('compares', () => {
    expect(compareDecimal('65492.11', '65492.110')).toBe(0);
    expect(compareDecimal('65492.10', '65492.11')).toBe(-1);
    expect(compareDecimal('65492.12', '65492.11')).toBe(1);
  });
});

describe('format', () => {
  it('formats pt-BR without floats', () => {
    expect(formatDecimal('1234.5', { min: 2 })).toBe('1.234,50');
    expect(formatDecimal('1234567.891', { max: 2 })).toBe('1.234.567,89');
    expect(formatDecimal('0.0125')).toBe('0,0125');
    expect(formatDecimal('12.0000', { min: 0 })).toBe('12');
    expect(formatDecimal(null)).toBe('');
    expect(formatMoney('1234.56')).toBe('R$ 1.234,56');
    expect(formatMoney('0.0125', 4)).toBe('R$ 0,0125');
    expect(formatMoney('-3')).toBe('-R$ 3,00');
    expect(formatMoney('9007199254740993.01')).toBe('R$ 9.007.199.254.740.993,01');
  });
});

describe('decimalSchema', () => {
  it('outputs the canonical string', () => {
    expect(quantitySchema.parse('1.234,5')).toBe('1234.5');
    expect(unitValueSchema.parse(12.5)).toBe('12.5');
  });
  it('says what is wrong in pt-BR', () => {
    const msg = (v: unknown) => quantitySchema.safeParse(v).error?.issues[0]?.message;
    expect(msg('')).toBe('Informe a quantidade.');
    expect(msg(undefined)).toBe('Informe a quantidade.');
    expect(msg('abc')).toBe('Informe um número, por exemplo 1.234,56.');
    expect(msg('1,23456')).toBe('Use no máximo 4 casas decimais.');
    expect(msg('0')).toBe('Informe um valor maior que zero.');
    expect(msg('-1')).toBe('Informe um valor maior que zero.');
    expect(msg('123456789012')).toBe('Valor acima do permitido.');
    expect(decimalSchema({ scale: 2, message: 'x' }).safeParse('-1').success).toBe(true);
  });
});
