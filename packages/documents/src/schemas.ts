// The zod schemas of the document kit, in their own module: a page that only formats or computes
// (the first page) never loads zod through @app/documents.
import { z } from 'zod';
import { QUANTITY_SCALE, UNIT_VALUE_SCALE, decimalPlaces, lineTotalRoundsToZero, parseCanonical, parseDecimal } from './decimal';

export interface DecimalSchemaOptions {
  /** Most decimal places accepted (more is an error, never a silent rounding). */
  scale: number;
  /** Digits before the point (numeric(p, s): p - s). */
  integerDigits?: number;
  /** Message when empty / not a number. */
  message: string;
  /** Strictly greater than zero (quantities, unit values). */
  positive?: boolean;
}

/**
 * A decimal field of a shared schema: accepts a canonical string (taken as it is: '10.015' is 10,015,
 * '1.000' is 1), pt-BR text with a comma ('1.234,56') or a plain number, outputs the canonical
 * string (the form sends parseDecimalInput of what was typed). pt-BR messages for empty, not a
 * number, too many places, too big, not positive.
 */
export function decimalSchema(options: DecimalSchemaOptions) {
  const { scale, message } = options;
  const integerDigits = options.integerDigits ?? 11;
  return z.union([z.string(), z.number()], { error: message }).transform((raw, ctx): string => {
    // canonical ('10.015', what the form sends and the API answers) as it is; else pt-BR with a comma
    const trimmed = typeof raw === 'string' ? raw.trim() : raw;
    const value = (typeof trimmed === 'string' ? parseCanonical(trimmed) : null) ?? parseDecimal(raw);
    if (value === null) {
      ctx.addIssue({ code: 'custom', message: String(raw).trim() === '' ? message : 'Informe um número, por exemplo 1.234,56.' });
      return z.NEVER;
    }
    if (decimalPlaces(value) > scale) {
      ctx.addIssue({ code: 'custom', message: `Use no máximo ${scale} casas decimais.` });
      return z.NEVER;
    }
    const int = value.replace(/^-/, '').split('.')[0]!;
    if (int.length > integerDigits) {
      ctx.addIssue({ code: 'custom', message: 'Valor acima do permitido.' });
      return z.NEVER;
    }
    if (options.positive && !/[1-9]/.test(value.replace(/^-/, ''))) {
      ctx.addIssue({ code: 'custom', message: 'Informe um valor maior que zero.' });
      return z.NEVER;
    }
    if (options.positive && value.startsWith('-')) {
      ctx.addIssue({ code: 'custom', message: 'Informe um valor maior que zero.' });
      return z.NEVER;
    }
    return value;
  });
}

/** Quantity of a line item: > 0, up to 4 places. */
export const quantitySchema = decimalSchema({ scale: QUANTITY_SCALE, message: 'Informe a quantidade.', positive: true });
/** Estimated unit value of a line item: > 0, up to 4 places. */
export const unitValueSchema = decimalSchema({ scale: UNIT_VALUE_SCALE, message: 'Informe o valor unitário.', positive: true });

/** Message of a line whose total rounds to R$ 0,00 (the kit answers it at `itens.N.quantidade`). */
export const ZERO_LINE_TOTAL_MESSAGE = 'O total do item fica em R$ 0,00: aumente a quantidade ou o valor unitário.';

/**
 * For the `superRefine` of a document's items array (the form shows what the API answers): an issue
 * at `[index, quantity]` for each line whose quantity × unit value rounds to R$ 0,00.
 *
 *   itens: z.array(itemSchema).superRefine((itens, ctx) => refineLineTotals(itens, ctx))
 */
export function refineLineTotals(
  lines: readonly Record<string, unknown>[],
  ctx: { addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void },
  keys: { quantity: string; unitValue: string } = { quantity: 'quantidade', unitValue: 'valorUnitario' },
): void {
  lines.forEach((line, index) => {
    if (lineTotalRoundsToZero(line[keys.quantity], line[keys.unitValue])) {
      ctx.addIssue({ code: 'custom', path: [index, keys.quantity], message: ZERO_LINE_TOTAL_MESSAGE });
    }
  });
}

/** Reason of a transition that requires one, with at least `min` characters (a flow's `reasonMin`). */
export function reasonSchemaOf(min = 3) {
  return z.string({ error: 'Informe o motivo.' }).trim().min(min, `Informe o motivo (ao menos ${min} caracteres).`).max(2000, 'Use no máximo 2000 caracteres.');
}

/** Reason of a transition that requires one (and optional otherwise): at least 3 characters. */
export const reasonSchema = /* @__PURE__ */ (() => reasonSchemaOf(3))();

/** Body of POST /:id/<transition>: the version read and, when required, the reason. */
export const transitionBodySchema = /* @__PURE__ */ (() =>
  z.object({
    version: z.number({ error: 'Informe a versão do registro.' }).int(),
    motivo: z
      .string()
      .trim()
      .max(2000, 'Use no máximo 2000 caracteres.')
      .nullish()
      .transform((v) => (v ? v : null)),
  }))();
export type TransitionBody = z.output<typeof transitionBodySchema>;
