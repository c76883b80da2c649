// The application's one time zone and what depends on it: today's date, the parts of an instant on
// São Paulo's clock, and dates shown dd/mm/aaaa (HH:mm). Brazilian public bodies work on Brasília
// time whatever the time zone of the server or of the browser. Pure functions, no dependency.

/** The application's time zone: every "today", day filter and date shown is in it. */
export const TIME_ZONE = 'America/Sao_Paulo';

/** A date-only string, an instant (ISO string, epoch milliseconds, Date) or nothing. */
export type DateInput = string | number | Date | null | undefined;

/** An instant read on São Paulo's clock; every part zero-padded ('2026', '03', '01', '09', '05', '07'). */
export interface TimeParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

let partsFormat: Intl.DateTimeFormat | undefined;

/** The parts of `date` on São Paulo's clock (24 h). Throws RangeError for an invalid Date. */
export function timeParts(date: Date): TimeParts {
  partsFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const p: Record<string, string> = {};
  for (const part of partsFormat.formatToParts(date)) p[part.type] = part.value;
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** Today (or the day of `now`) in São Paulo, 'aaaa-mm-dd': what <input type="date"> and the API use. */
export function today(now: Date = new Date()): string {
  const p = timeParts(now);
  return `${p.year}-${p.month}-${p.day}`;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant of `value`, or null for nothing, '' and what is not a date. */
export function toInstant(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * `dd/mm/aaaa` in São Paulo. A date-only string ('2024-03-01') is a calendar day and is shown as is
 * (never shifted a day by the time zone); anything else is an instant. Nothing or an invalid value
 * gives '' (a table cell simply stays blank).
 */
export function formatDate(value: DateInput): string {
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value.trim());
    if (m) return `${m[3]}/${m[2]}/${m[1]}`;
  }
  const date = toInstant(value);
  if (!date) return '';
  const p = timeParts(date);
  return `${p.day}/${p.month}/${p.year}`;
}

/** `dd/mm/aaaa HH:mm` (24 h, `HH:mm:ss` with `seconds`) in São Paulo; '' for nothing or an invalid value. */
export function formatDateTime(value: DateInput, options: { seconds?: boolean } = {}): string {
  const date = toInstant(value);
  if (!date) return '';
  const p = timeParts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}${options.seconds ? `:${p.second}` : ''}`;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * What an `<input type="datetime-local">` holds for an instant: 'aaaa-mm-ddTHH:mm' on São Paulo's
 * clock; '' for nothing or an invalid value.
 */
export function dateTimeInputValue(value: DateInput): string {
  const date = toInstant(value);
  if (!date) return '';
  const p = timeParts(date);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/**
 * The instant (ISO, UTC) of a date and time typed on São Paulo's clock ('aaaa-mm-ddTHH:mm[:ss]'), or
 * null when it is not one (31/02, a time skipped by a past clock change, text).
 */
export function instantFromDateTimeInput(text: string): string | null {
  const m = LOCAL_DATE_TIME.exec(text.trim());
  if (!m) return null;
  const wanted = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  if (Number.isNaN(wanted)) return null;
  // São Paulo's offset at that moment: read a guess on its clock and correct by the difference
  let t = wanted;
  for (let i = 0; i < 2; i++) {
    const p = timeParts(new Date(t));
    t += wanted - Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  }
  const p = timeParts(new Date(t));
  const back = `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  return back === `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}` ? new Date(t).toISOString() : null;
}
