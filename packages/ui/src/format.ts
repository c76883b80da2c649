/**
 * pt-BR formatters and masks. Pure functions, no React.
 *
 * Dates are shown in the time zone of the application (America/Sao_Paulo), whatever the time zone of
 * the browser. Invalid or empty input gives '' so a table cell simply stays blank.
 */

export const TIME_ZONE = 'America/Sao_Paulo';
export const LOCALE = 'pt-BR';

type DateInput = string | number | Date | null | undefined;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const dateFormat = /* @__PURE__ */ new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

const dateTimeFormat = /* @__PURE__ */ new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parts(format: Intl.DateTimeFormat, date: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of format.formatToParts(date)) out[part.type] = part.value;
  return out;
}

/**
 * `dd/mm/aaaa` in America/Sao_Paulo. A date-only string ('2024-03-01') is a calendar date and is shown
 * as is (never shifted a day by the time zone); anything else is an instant.
 */
export function formatDate(value: DateInput): string {
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value.trim());
    if (m) return `${m[3]}/${m[2]}/${m[1]}`;
  }
  const date = toDate(value);
  if (!date) return '';
  const p = parts(dateFormat, date);
  return `${p.day}/${p.month}/${p.year}`;
}

/** `dd/mm/aaaa HH:mm` (24 h) in America/Sao_Paulo. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return '';
  const p = parts(dateTimeFormat, date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

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

function digits(value: string | null | undefined, max: number): string {
  return (value ?? '').replace(/\D/g, '').slice(0, max);
}

/** Applies a pattern where '#' is one character of `chars`; stops after the last character (input masks). */
function applyPattern(chars: string, pattern: string): string {
  let out = '';
  let i = 0;
  for (const slot of pattern) {
    if (i >= chars.length) break;
    if (slot === '#') out += chars[i++];
    else out += slot;
  }
  return out;
}

/** '12345678909' → '123.456.789-09'. Works progressively while typing ('1234' → '123.4'). */
export function maskCpf(value: string | null | undefined): string {
  return applyPattern(digits(value, 11), '###.###.###-##');
}

/**
 * CPF with only the middle digits visible, as the LGPD guidance for public display:
 * '123.456.789-09' → '***.456.789-**'. Anything that is not 11 digits gives ''.
 */
export function maskCpfPartial(value: string | null | undefined): string {
  const d = digits(value, 12);
  if (d.length !== 11) return '';
  return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
}

/**
 * CNPJ, numeric or alphanumeric (Receita Federal, from July 2026: 12 characters A–Z/0–9 and two
 * check digits). '12ABC34501DE35' → '12.ABC.345/01DE-35'; lower case is upper-cased. Progressive.
 */
export function maskCnpj(value: string | null | undefined): string {
  const chars = (value ?? '')
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, 14);
  return applyPattern(chars, '##.###.###/####-##');
}

/** '01310100' → '01310-100'. Progressive. */
export function maskCep(value: string | null | undefined): string {
  return applyPattern(digits(value, 8), '#####-###');
}

/**
 * Brazilian phone: '1134567890' → '(11) 3456-7890', '11987654321' → '(11) 98765-4321',
 * '08001234567' → '0800 123 4567'. A leading '+55' is dropped. Progressive while typing.
 */
export function maskPhone(value: string | null | undefined): string {
  let raw = (value ?? '').trim();
  if (raw.startsWith('+55')) raw = raw.slice(3);
  const d = digits(raw, 11);
  if (/^0[3589]00/.test(d)) return applyPattern(d, '#### ### ####');
  if (d.length === 11) return applyPattern(d, '(##) #####-####');
  return applyPattern(d, '(##) ####-####');
}
