// Calendar days as Brazilian public bodies write them (dd/mm/aaaa) and as <input type="date"> and the
// API carry them (aaaa-mm-dd); a day must exist. Used by the server (filters, imports) and the
// browser (forms) alike. The time zone lives in ./time.

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const BR_DAY = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * Whether `text` is an existing calendar day `aaaa-mm-dd` from year 0001 to 9999: '2024-02-30',
 * '2023-02-29' and '0000-01-01' are not (`new Date()` would roll the first two over into March, and
 * PostgreSQL refuses year 0).
 */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DAY.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * The shape of a day, not its existence: 'dd/mm/aaaa' → 'aaaa-mm-dd', 'aaaa-mm-dd' as is (both
 * trimmed); null for any other writing ('1/2/2026', '2026-1-1', '2026-01-01T00:00', '').
 */
export function normalizeDate(text: string | null | undefined): string | null {
  const t = (text ?? '').trim();
  if (ISO_DAY.test(t)) return t;
  const br = BR_DAY.exec(t);
  return br ? `${br[3]}-${br[2]}-${br[1]}` : null;
}

/** An existing day written 'dd/mm/aaaa' or 'aaaa-mm-dd' → 'aaaa-mm-dd'; null otherwise. */
export function parseDate(text: string | null | undefined): string | null {
  const iso = normalizeDate(text);
  return iso !== null && isCalendarDate(iso) ? iso : null;
}
