// CPF and CNPJ: mod-11 check digits (domain.md). The alphanumeric CNPJ (IN RFB 2.229/2024) lets the
// 12 base positions be A–Z or 0–9; each character counts as its ASCII code − 48 (digits keep their
// value, A = 17 … Z = 42) and the two check digits stay numeric.
import { applyMask, CNPJ_MASK, CPF_MASK } from './mask';

/** Upper case, without mask or spaces: the stored form. */
export function normalizeDocument(value: string): string {
  return value.replace(/[\s./-]/g, '').toUpperCase();
}

const charValue = (c: string): number => c.charCodeAt(0) - 48;

function mod11Digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two check digits of a 9-digit CPF base. */
export function cpfCheckDigits(base: string): string {
  if (!/^\d{9}$/.test(base)) throw new Error('A base do CPF tem 9 dígitos.');
  const digits = [...base].map(Number);
  const dv = (ds: number[]) => {
    const weightStart = ds.length + 1;
    const sum = ds.reduce((acc, d, i) => acc + d * (weightStart - i), 0);
    return ((sum * 10) % 11) % 10;
  };
  const d1 = dv(digits);
  const d2 = dv([...digits, d1]);
  return `${d1}${d2}`;
}

export function isValidCpf(value: string): boolean {
  const cpf = normalizeDocument(value);
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  return cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9);
}

const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** The two check digits of a 12-character CNPJ base (digits or, since 2026, letters A–Z). */
export function cnpjCheckDigits(base: string): string {
  const b = base.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(b)) throw new Error('A base do CNPJ tem 12 caracteres (0–9, A–Z).');
  const values = [...b].map(charValue);
  const d1 = mod11Digit(values.reduce((acc, v, i) => acc + v * CNPJ_W1[i]!, 0));
  const d2 = mod11Digit([...values, d1].reduce((acc, v, i) => acc + v * CNPJ_W2[i]!, 0));
  return `${d1}${d2}`;
}

export function isValidCnpj(value: string): boolean {
  const cnpj = normalizeDocument(value);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** A complete CPF '12345678909' → '123.456.789-09'; anything that is not 11 digits is given back normalised. */
export function formatCpf(value: string): string {
  const v = normalizeDocument(value);
  return /^\d{11}$/.test(v) ? applyMask(CPF_MASK, v) : v;
}

/** A complete CNPJ '12ABC34501DE35' → '12.ABC.345/01DE-35'; anything else is given back normalised. */
export function formatCnpj(value: string): string {
  const v = normalizeDocument(value);
  return /^[0-9A-Z]{12}\d{2}$/.test(v) ? applyMask(CNPJ_MASK, v) : v;
}

/** Formats a CPF (11) or CNPJ (14) by its length. */
export function formatCpfCnpj(value: string): string {
  const v = normalizeDocument(value);
  return v.length === 11 ? formatCpf(v) : formatCnpj(v);
}
