import { z } from 'zod';
import { isCalendarDate, normalizeDate } from './dates';
import { isValidCnpj, isValidCpf, normalizeDocument } from './documents';

/** CPF accepted with or without mask; stored as 11 digits. */
export const cpfSchema = z
  .string({ error: 'Informe o CPF.' })
  .trim()
  .transform(normalizeDocument)
  .refine((v) => v.length === 11, { error: 'O CPF tem 11 dígitos.' })
  .refine(isValidCpf, { error: 'CPF inválido: confira os dígitos verificadores.' });

/** CNPJ (numeric or alphanumeric) accepted with or without mask, any case; stored as 14 upper-case characters. */
export const cnpjSchema = z
  .string({ error: 'Informe o CNPJ.' })
  .trim()
  .transform(normalizeDocument)
  .refine((v) => v.length === 14, { error: 'O CNPJ tem 14 caracteres.' })
  .refine(isValidCnpj, { error: 'CNPJ inválido: confira os dígitos verificadores.' });

/** A CPF (11) or a CNPJ (14), decided by length. */
export const cpfCnpjSchema = z
  .string({ error: 'Informe o CPF ou o CNPJ.' })
  .trim()
  .transform(normalizeDocument)
  .superRefine((v, ctx) => {
    if (v.length === 11) {
      if (!isValidCpf(v)) ctx.addIssue({ code: 'custom', message: 'CPF inválido: confira os dígitos verificadores.' });
    } else if (v.length === 14) {
      if (!isValidCnpj(v)) ctx.addIssue({ code: 'custom', message: 'CNPJ inválido: confira os dígitos verificadores.' });
    } else {
      ctx.addIssue({ code: 'custom', message: 'Informe um CPF (11 dígitos) ou um CNPJ (14 caracteres).' });
    }
  });

/** CEP: 8 digits, stored without mask. */
export const cepSchema = z
  .string({ error: 'Informe o CEP.' })
  .trim()
  .transform((v) => v.replace(/\D/g, ''))
  .refine((v) => v.length === 8, { error: 'O CEP tem 8 dígitos.' });

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

export const ufSchema = z.enum(UFS, { error: 'UF inválida.' });

/**
 * A calendar day, the one date schema of the application: 'dd/mm/aaaa' (as people and spreadsheets
 * write it) or 'aaaa-mm-dd' (as <input type="date"> and the API send it) in, 'aaaa-mm-dd' out, and
 * only days that exist (years 0001–9999). Days are São Paulo's (TIME_ZONE): compare with `today()`.
 * Messages name the field: 'Data: informe a data.', 'Data: use o formato dd/mm/aaaa.',
 * 'Data: data inexistente.'. Stays a string schema (OpenAPI shows a string).
 */
export function dateSchema(campo = 'Data') {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${campo}: informe a data.` : `${campo}: use o formato dd/mm/aaaa.`) })
    .trim()
    .superRefine((value, ctx) => {
      const iso = normalizeDate(value);
      if (value === '') ctx.addIssue({ code: 'custom', message: `${campo}: informe a data.` });
      else if (iso === null) ctx.addIssue({ code: 'custom', message: `${campo}: use o formato dd/mm/aaaa.` });
      else if (!isCalendarDate(iso)) ctx.addIssue({ code: 'custom', message: `${campo}: data inexistente.` });
    })
    .overwrite((value) => normalizeDate(value) ?? value);
}

/** `dateSchema` for a day that may be left blank: null, undefined, '' and blanks give null. */
export function optionalDateSchema(campo = 'Data') {
  return z
    .string({ error: `${campo}: use o formato dd/mm/aaaa.` })
    .trim()
    .nullish()
    .transform((value) => value || null)
    .pipe(dateSchema(campo).nullable());
}
