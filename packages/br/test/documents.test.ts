import { describe, expect, test } from 'vitest';
import {
  cnpjCheckDigits,
  cnpjSchema,
  cpfCheckDigits,
  cpfCnpjSchema,
  cpfSchema,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  isValidCpf,
  maskCpfCnpjInput,
  maskCpfPartial,
} from '../src';

// Vectors computed independently (a separate Python implementation of the rules in domain.md).
const validCpfs = ['11144477735', '12345678909', '98765432100', '00000000191', '111.444.777-35'];
const validCnpjs = ['11222333000181', '12ABC34501DE35', 'ZZZZZZZZZZZZ62', 'A1B2C3D4E5F668', '00000000000191', '12.abc.345/01de-35'];

describe('CPF', () => {
  test.each(validCpfs)('%s is valid', (cpf) => expect(isValidCpf(cpf)).toBe(true));
  test.each(['11144477736', '12345678900', '11111111111', '00000000000', '1234567890', '123456789012', 'ABC44477735'])('%s is invalid', (cpf) =>
    expect(isValidCpf(cpf)).toBe(false),
  );
  test('check digits', () => {
    expect(cpfCheckDigits('111444777')).toBe('35');
    expect(cpfCheckDigits('000000001')).toBe('91');
  });
  test('format and LGPD mask', () => {
    expect(formatCpf('12345678909')).toBe('123.456.789-09');
    expect(maskCpfPartial('123.456.789-09')).toBe('***.456.789-**');
  });
});

describe('CNPJ, numeric and alphanumeric', () => {
  test.each(validCnpjs)('%s is valid', (cnpj) => expect(isValidCnpj(cnpj)).toBe(true));
  test.each(['11222333000182', '12ABC34501DE36', '12ABC34501DEAB', '11111111111111', '12ABC34501DE3', '12AB#34501DE35'])('%s is invalid', (cnpj) =>
    expect(isValidCnpj(cnpj)).toBe(false),
  );
  test('check digits: letters count as ASCII − 48', () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('112223330001')).toBe('81');
    expect(cnpjCheckDigits('a1b2c3d4e5f6')).toBe('68');
  });
  test('format', () => {
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });
  test('typing mask', () => {
    expect(maskCpfCnpjInput('1234567890')).toBe('123.456.789-0');
    expect(maskCpfCnpjInput('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCpfCnpjInput('112223330001819')).toBe('11.222.333/0001-81');
  });
});

describe('zod schemas store the normalised form and speak pt-BR', () => {
  test('cnpj: masked lower case in, upper case without mask out', () => {
    expect(cnpjSchema.parse('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });
  test('cpf: wrong check digit', () => {
    const r = cpfSchema.safeParse('111.444.777-36');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('CPF inválido: confira os dígitos verificadores.');
  });
  test('cpf or cnpj by length', () => {
    expect(cpfCnpjSchema.parse('111.444.777-35')).toBe('11144477735');
    expect(cpfCnpjSchema.parse('12ABC34501DE35')).toBe('12ABC34501DE35');
    expect(cpfCnpjSchema.safeParse('123').error?.issues[0]?.message).toBe('Informe um CPF (11 dígitos) ou um CNPJ (14 caracteres).');
  });
});
