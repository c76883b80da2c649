import { describe, expect, it } from 'vitest';
import { applyMask, CPF_HIDDEN, maskCep, maskCnpj, maskCpf, maskCpfCnpjInput, maskCpfPartial, maskPhone } from '../src';

describe('applyMask, the one mask engine', () => {
  it('fills digit, letter and any slots, writing literals as the value grows', () => {
    expect(applyMask('9999-9/99', '4761003')).toBe('4761-0/03');
    expect(applyMask('9999-9/99', '4761')).toBe('4761');
    expect(applyMask('9999-9/99', '47610')).toBe('4761-0');
    expect(applyMask('AAA-9999', 'abc1234')).toBe('ABC-1234');
    expect(applyMask('**-**', 'a1b2')).toBe('a1-b2');
  });
  it('skips characters that do not fit their slot and never ends in a separator', () => {
    expect(applyMask('9999-9/99', '47a61-0')).toBe('4761-0');
    expect(applyMask('999-999', '123abc')).toBe('123');
    expect(applyMask('(99) 9999', '11')).toBe('(11');
  });
  it('drops what is past the mask; empty, null and undefined give empty', () => {
    expect(applyMask('99-99', '123456')).toBe('12-34');
    for (const v of ['', null, undefined, '---', 'abc']) expect(applyMask('99-99', v), String(v)).toBe('');
  });
});

describe('maskCpf', () => {
  it('formats full and partial input, masked or not', () => {
    expect(maskCpf('12345678909')).toBe('123.456.789-09');
    expect(maskCpf('123.456.789-09')).toBe('123.456.789-09');
    expect(maskCpf('1234')).toBe('123.4');
    expect(maskCpf('123')).toBe('123');
  });
  it('bad input: too long is cut, letters dropped, nothing gives empty', () => {
    expect(maskCpf('123456789091234')).toBe('123.456.789-09');
    expect(maskCpf('12a3b4')).toBe('123.4');
    expect(maskCpf('abc')).toBe('');
    expect(maskCpf('')).toBe('');
    expect(maskCpf(null)).toBe('');
    expect(maskCpf(undefined)).toBe('');
  });
});

describe('maskCnpj', () => {
  it('numeric and alphanumeric (2026), upper-cased, progressive', () => {
    expect(maskCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskCnpj('11.222.333/0001-81')).toBe('11.222.333/0001-81');
    expect(maskCnpj('112223')).toBe('11.222.3');
    expect(maskCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12ABC')).toBe('12.ABC');
  });
  it('bad input: check digits are digits, too long is cut, nothing gives empty', () => {
    expect(maskCnpj('12ABC34501DEAB')).toBe('12.ABC.345/01DE');
    expect(maskCnpj('1122233300018199')).toBe('11.222.333/0001-81');
    expect(maskCnpj('#$%')).toBe('');
    expect(maskCnpj(null)).toBe('');
  });
});

describe('maskCpfCnpjInput', () => {
  it('a CPF up to 11 digits, a CNPJ after a letter or a 12th character', () => {
    expect(maskCpfCnpjInput('1234567890')).toBe('123.456.789-0');
    expect(maskCpfCnpjInput('12345678909')).toBe('123.456.789-09');
    expect(maskCpfCnpjInput('123456789091')).toBe('12.345.678/9091');
    expect(maskCpfCnpjInput('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCpfCnpjInput('112223330001819')).toBe('11.222.333/0001-81');
    expect(maskCpfCnpjInput('')).toBe('');
    expect(maskCpfCnpjInput(undefined)).toBe('');
  });
});

describe('maskCep', () => {
  it('formats, progressive, bad input', () => {
    expect(maskCep('01310100')).toBe('01310-100');
    expect(maskCep('01310-100')).toBe('01310-100');
    expect(maskCep('0131')).toBe('0131');
    expect(maskCep('013101001234')).toBe('01310-100');
    expect(maskCep('ab01310cd100')).toBe('01310-100');
    expect(maskCep('abc')).toBe('');
    expect(maskCep(null)).toBe('');
  });
});

describe('maskPhone', () => {
  it('landlines, mobiles, 0800 and +55', () => {
    expect(maskPhone('1134567890')).toBe('(11) 3456-7890');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('+55 11 98765-4321')).toBe('(11) 98765-4321');
    expect(maskPhone('08001234567')).toBe('0800 123 4567');
  });
  it('progressive while typing; bad input', () => {
    expect(maskPhone('11')).toBe('(11');
    expect(maskPhone('113456')).toBe('(11) 3456');
    expect(maskPhone('119876543210000')).toBe('(11) 98765-4321');
    expect(maskPhone('tel')).toBe('');
    expect(maskPhone('')).toBe('');
    expect(maskPhone(undefined)).toBe('');
  });
});

describe('maskCpfPartial: one rule, a value that is not a CPF is never partially revealed', () => {
  it('shows only the six middle digits of 11 digits, masked or not, or a number', () => {
    expect(maskCpfPartial('12345678909')).toBe('***.456.789-**');
    expect(maskCpfPartial('123.456.789-09')).toBe('***.456.789-**');
    expect(maskCpfPartial(' 123 456 789 09 ')).toBe('***.456.789-**');
    expect(maskCpfPartial(12345678909)).toBe('***.456.789-**');
  });
  it('too short, too long, letters or other characters: all hidden', () => {
    for (const v of ['1234567890', '123456789091', '123', 'a12345678909', '123.456.789-0X', '123/456/789/09', 'cpf', 191, Number.NaN]) {
      expect(maskCpfPartial(v), String(v)).toBe(CPF_HIDDEN);
    }
    expect(CPF_HIDDEN).toBe('***.***.***-**');
  });
  it('nothing to hide: null, undefined, empty and blanks give empty', () => {
    for (const v of [null, undefined, '', '   ']) expect(maskCpfPartial(v), String(v)).toBe('');
  });
});
