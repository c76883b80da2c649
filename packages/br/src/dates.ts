// Dates as Brazilian public bodies use them: one time zone for the whole application, and calendar
// days (aaaa-mm-dd, what <input type="date"> gives) that must exist. Used by the server (filters,
// exports) and the browser (forms) alike.

/** The application's time zone: every "today", day filter and date shown is in it. */
export const TIME_ZONE = 'America/Sao_Paulo';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

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
