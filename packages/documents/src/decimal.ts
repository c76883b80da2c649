// Exact decimals for quantities and money, the same functions in the browser and on the server.
// A value travels as a canonical string ('1234.5' : dot, no grouping), is computed as a BigInt of
// its smallest unit (cents, ten-thousandths) and is stored in a numeric column. No float anywhere.

/** Decimal places of a quantity (numeric(15,4)). */
export const QUANTITY_SCALE = 4;
/** Decimal places of a unit value (numeric(15,4)): public bodies buy items at R$ 0,0125. */
export const UNIT_VALUE_SCALE = 4;
/** Decimal places of a total (numeric(17,2)): cents. */
export const MONEY_SCALE = 2;

const CANONICAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Reads a canonical value (what the API and the form's state hold) or pt-BR text with a comma:
 * '1234.56', '10.015', '1.234,56', '1234,56', ' R$ 10 '. Returns the canonical string ('1234.56') or
 * null when it is not a number. A single dot without a comma is the decimal point ('1.5', '10.015'
 * = 10,015), so a canonical value read again gives itself; a dot is a thousands separator when a
 * comma is present or when several dots group three digits ('1.234.567'). Typed text of a pt-BR
 * field, where '1.500' means 1500, goes through `parseDecimalInput`.
 */
export function parseDecimal(input: string | number | null | undefined): string | null {
  if (input === null || input === undefined) return null;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    // only plain notation: 1e21 or 1e-7 are not amounts anyone typed
    const text = String(input);
    return CANONICAL.test(text) ? normalize(text) : null;
  }
  let text = input.replace(/\s|R\$/g, '');
  if (text === '') return null;
  let sign = '';
  if (text.startsWith('-')) {
    sign = '-';
    text = text.slice(1);
  }
  if (text.includes(',')) {
    if (!/^\d{1,3}(\.\d{3})*(,\d+)?$|^\d+(,\d+)?$/.test(text)) return null;
    text = text.replace(/\./g, '').replace(',', '.');
  } else if (/^\d{1,3}(\.\d{3}){2,}$/.test(text)) {
    text = text.replace(/\./g, '');
  }
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  return normalize(sign + text);
}

/**
 * Reads what a person typed in a pt-BR form field, where a dot groups thousands: '1.500' = 1500,
 * '1.234.567,8' = 1234567.8, '12,5' = 12.5. A dot that does not group three digits ('1.5', '12.75')
 * is taken as the decimal point typed by habit. Use it on typed text only (a field's display value);
 * a value from the API or the form's state is canonical: read it with `parseDecimal`.
 */
export function parseDecimalInput(input: string | null | undefined): string | null {
  if (input === null || input === undefined) return null;
  const text = input.replace(/\s|R\$/g, '');
  if (/^-?\d{1,3}(\.\d{3})+$/.test(text)) return parseDecimal(text.replace(/\./g, ''));
  return parseDecimal(text);
}

/** A canonical decimal ('10.015', '-2.5') normalized ('10.015', '-2.5'), or null when it is not one. */
export function parseCanonical(text: string): string | null {
  return CANONICAL.test(text) ? normalize(text) : null;
}

/** '0012.500' → '12.5'; '-0' → '0'. */
function normalize(text: string): string {
  const m = CANONICAL.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const int = m[2]!.replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return m[1] && /[1-9]/.test(body) ? `-${body}` : body;
}

/** Digits after the point of a canonical decimal. */
export function decimalPlaces(value: string): number {
  const m = CANONICAL.exec(value);
  return m?.[3]?.length ?? 0;
}

/** The value in units of 10^-scale, rounded half away from zero: toUnits('1.235', 2) = 124n. */
export function toUnits(value: string | number, scale: number): bigint {
  const canonical = typeof value === 'number' ? parseDecimal(value) : normalizeOrNull(value);
  if (canonical === null) throw new Error(`not a decimal: ${String(value)}`);
  const m = CANONICAL.exec(canonical)!;
  const negative = Boolean(m[1]);
  const frac = m[3] ?? '';
  const kept = BigInt(m[2]! + frac.slice(0, scale).padEnd(scale, '0'));
  const roundUp = frac.length > scale && frac.charCodeAt(scale) >= 53; // '5'
  const units = kept + (roundUp ? 1n : 0n);
  return negative ? -units : units;
}

function normalizeOrNull(value: string): string | null {
  return CANONICAL.test(value) ? normalize(value) : null;
}

/** Units of 10^-scale back to a canonical string with exactly `scale` places: (12345n, 2) → '123.45'. */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${int}${scale > 0 ? `.${frac}` : ''}`;
}

/** Divides rounding half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/**
 * Total of a line: quantity × unit value, rounded to cents (half away from zero), as a canonical
 * string with two places: lineTotal('3', '0.3333') = '1.00'; lineTotal('2.5', '10.015') = '25.04'.
 */
export function lineTotal(quantity: string | number, unitValue: string | number): string {
  const q = toUnits(quantity, QUANTITY_SCALE);
  const v = toUnits(unitValue, UNIT_VALUE_SCALE);
  const product = q * v; // scale 8
  return fromUnits(divRound(product, 10n ** BigInt(QUANTITY_SCALE + UNIT_VALUE_SCALE - MONEY_SCALE)), MONEY_SCALE);
}

/**
 * Whether a line with a quantity and a unit value both above zero totals R$ 0,00 once rounded to
 * cents (0,001 × R$ 1,00): such a line would count in the document and add nothing to its value.
 * False for anything that is not a pair of decimals (other rules report those).
 */
export function lineTotalRoundsToZero(quantity: unknown, unitValue: unknown): boolean {
  if ((typeof quantity !== 'string' && typeof quantity !== 'number') || (typeof unitValue !== 'string' && typeof unitValue !== 'number')) return false;
  try {
    if (toUnits(quantity, QUANTITY_SCALE) <= 0n || toUnits(unitValue, UNIT_VALUE_SCALE) <= 0n) return false;
    return toUnits(lineTotal(quantity, unitValue), MONEY_SCALE) === 0n;
  } catch {
    return false;
  }
}

/** Sum of amounts (each rounded to cents first), two places: the document total is the sum of the line totals shown. */
export function sumMoney(values: Iterable<string | number>): string {
  let total = 0n;
  for (const value of values) total += toUnits(value, MONEY_SCALE);
  return fromUnits(total, MONEY_SCALE);
}

/** Compares two decimals: -1, 0 or 1. */
export function compareDecimal(a: string | number, b: string | number): -1 | 0 | 1 {
  const scale = Math.max(decimalPlaces(String(a)), decimalPlaces(String(b)), 0);
  const x = toUnits(a, scale);
  const y = toUnits(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * pt-BR text of a decimal without float: formatDecimal('1234.5', { min: 2 }) = '1.234,50'. `max`
 * rounds (half away from zero); `min` pads. Null/empty → ''.
 */
export function formatDecimal(value: string | number | null | undefined, options: { min?: number; max?: number } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const canonical = typeof value === 'number' ? parseDecimal(value) : normalizeOrNull(String(value));
  if (canonical === null) return String(value);
  const max = options.max ?? Math.max(decimalPlaces(canonical), options.min ?? 0);
  const fixed = fromUnits(toUnits(canonical, max), max);
  const m = CANONICAL.exec(fixed)!;
  let frac = m[3] ?? '';
  const min = options.min ?? 0;
  while (frac.length > min && frac.endsWith('0')) frac = frac.slice(0, -1);
  const body = frac ? `${group(m[2]!)},${frac}` : group(m[2]!);
  return m[1] && /[1-9]/.test(body) ? `-${body}` : body;
}

/** 'R$ 1.234,56' (two places; a unit value keeps up to four: formatMoney('0.0125', 4) = 'R$ 0,0125'). */
export function formatMoney(value: string | number | null | undefined, maxPlaces = MONEY_SCALE): string {
  if (value === null || value === undefined || value === '') return '';
  const text = formatDecimal(value, { min: MONEY_SCALE, max: maxPlaces });
  return text.startsWith('-') ? `-R$ ${text.slice(1)}` : `R$ ${text}`;
}
