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

const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * Whether `text` is an instant 'aaaa-mm-ddThh:mm[:ss[.fff]]' with 'Z' or an offset ('-03:00') whose
 * day exists (isCalendarDate) and whose time is a time of day: '2026-13-01T10:00:00Z' and
 * '2025-02-29T10:00:00-03:00' are not.
 */
export function isDateTime(text: string): boolean {
  const m = ISO_DATE_TIME.exec(text);
  if (!m || !isCalendarDate(m[1]!)) return false;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return false;
  return m[6] === undefined || (Number(m[6]) <= 23 && Number(m[7]) <= 59);
}

/**
 * An instant, the one date-time schema of the application: ISO 8601 with 'Z' or an offset (what the
 * browser sends, `new Date(...).toISOString()`), kept as written; the day must exist. Messages name
 * the field: 'Prazo: informe a data e a hora.', 'Prazo: use data e hora no formato ISO
 * (aaaa-mm-ddThh:mm:ssZ).', 'Prazo: data inexistente.'.
 */
export function dateTimeSchema(campo = 'Data e hora') {
  const formato = `${campo}: use data e hora no formato ISO (aaaa-mm-ddThh:mm:ssZ).`;
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${campo}: informe a data e a hora.` : formato) })
    .trim()
    .superRefine((value, ctx) => {
      const m = ISO_DATE_TIME.exec(value);
      if (value === '') ctx.addIssue({ code: 'custom', message: `${campo}: informe a data e a hora.` });
      else if (!m) ctx.addIssue({ code: 'custom', message: formato });
      else if (!isCalendarDate(m[1]!)) ctx.addIssue({ code: 'custom', message: `${campo}: data inexistente.` });
      else if (!isDateTime(value)) ctx.addIssue({ code: 'custom', message: `${campo}: hora inexistente.` });
    });
}

/** `dateTimeSchema` for an instant that may be left blank: null, undefined, '' and blanks give null. */
export function optionalDateTimeSchema(campo = 'Data e hora') {
  return z
    .string({ error: `${campo}: use data e hora no formato ISO (aaaa-mm-ddThh:mm:ssZ).` })
    .trim()
    .nullish()
    .transform((value) => value || null)
    .pipe(dateTimeSchema(campo).nullable());
}
