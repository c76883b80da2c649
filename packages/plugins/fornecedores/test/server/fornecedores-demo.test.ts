import { isValidCnpj, isValidCpf, formatCnpj } from '@app/br';
import { describe, expect, it } from 'vitest';
import { fornecedorInputSchema } from '../../src/shared/index.js';
import { fornecedoresDemo } from '../../src/server/fornecedores-demo.js';

describe('demo suppliers', () => {
  const list = fornecedoresDemo();

  it('30+ suppliers with valid, unique documents; some alphanumeric CNPJs and two CPFs', () => {
    expect(list.length).toBeGreaterThanOrEqual(30);
    expect(new Set(list.map((f) => f.documento)).size).toBe(list.length);
    const cnpjs = list.filter((f) => f.documento.length === 14);
    const cpfs = list.filter((f) => f.documento.length === 11);
    for (const f of cnpjs) expect(isValidCnpj(f.documento), f.documento).toBe(true);
    for (const f of cpfs) expect(isValidCpf(f.documento), f.documento).toBe(true);
    expect(cpfs).toHaveLength(2);
    const alfa = cnpjs.filter((f) => /[A-Z]/.test(f.documento));
    expect(alfa.length).toBeGreaterThanOrEqual(2);
    expect(formatCnpj(alfa[0]!.documento)).toMatch(/^12\.ABC\.345\/0001-\d\d$/);
  });

  it('every supplier passes the API schema (with ramo ids filled in)', () => {
    for (const f of list) {
      const parsed = fornecedorInputSchema.safeParse({ ...f, ramoIds: ['6f1c1c1e-8a44-4a8f-9d0e-4c2b1f0a9b11'] });
      expect(parsed.success, `${f.razaoSocial}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(f.ramos.length).toBeGreaterThan(0);
      expect(f.contatos[0]?.email).toMatch(/@[a-z0-9]+\.example\.com$/);
    }
    expect(list.filter((f) => f.situacao === 'impedido')).toHaveLength(1);
  });
});
