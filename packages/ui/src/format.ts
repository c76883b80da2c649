/**
 * pt-BR number formatters. Pure functions, no React. Dates (dd/mm/aaaa in America/Sao_Paulo) and the
 * CPF, CNPJ, CEP and telefone masks live in @app/br, the one home of each.
 */

export const LOCALE = 'pt-BR';

type NumericInput = string | number | bigint | null | undefined;

const PLAIN_DECIMAL = /^([+-])?(\d*)(?:[.](\d*))?$/;

const moneyFormat = /* @__PURE__ */ new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'BRL' });

/** Splits a plain decimal ('-1234.565') into sign and cents, rounding half away from zero, exactly. */
function toCents(text: string): { negative: boolean; cents: bigint } | null {
  const m = PLAIN_DECIMAL.exec(text.trim());
  if (!m) return null;
  const [, sign, int = '', frac = ''] = m;
  if (int === '' && frac === '') return null;
  let cents = BigInt(int || '0') * 100n + BigInt(`${frac}00`.slice(0, 2));
  if ((frac[2] ?? '0') >= '5') cents += 1n;
  return { negative: sign === '-' && cents !== 0n, cents };
}

/**
 * Brazilian reais, e.g. 'R$ 1.234,56' (the space is a no-break space, as Intl writes it).
 * Decimal strings (as the API sends NUMERIC columns) are rounded exactly, without going through a
 * float: '0.125' → 'R$ 0,13', '12345678901234567.89' keeps every digit.
 */
export function formatMoney(value: NumericInput): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && !Number.isFinite(value)) return '';
  const text = typeof value === 'string' ? value : String(value);
  const exact = toCents(text);
  if (!exact) {
    // A number printed in exponent form (1e21, 1e-7): Intl rounds it well enough.
    return typeof value === 'number' ? moneyFormat.format(value) : '';
  }
  const whole = exact.cents / 100n;
  const cents = (exact.cents % 100n).toString().padStart(2, '0');
  const formatted = moneyFormat
    .formatToParts(whole)
    .map((part) => (part.type === 'fraction' ? cents : part.value))
    .join('');
  return exact.negative ? `-${formatted}` : formatted;
}

/** pt-BR number ('1.234,5'); options are Intl.NumberFormat's (e.g. `{ minimumFractionDigits: 2 }`). */
export function formatNumber(value: NumericInput, options?: Intl.NumberFormatOptions): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n === 'number' && !Number.isFinite(n)) return '';
  return new Intl.NumberFormat(LOCALE, options).format(n);
}
