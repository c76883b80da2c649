// A big task for a worker (a background job's report: 50 000 rows, 400 000 cells) handed over without
// holding the request thread: postMessage clones its whole input at once, on this thread (~100–200 ms for
// such a report, more on a busy machine). Instead the input is written as JSON here a piece at a time,
// with a pause between pieces, and posted as one string (a copy, not a walk); the worker parses it on
// its own thread. Dates and non-finite numbers, which JSON would flatten, travel as small objects and
// come back as they were.
import { setImmediate as pause } from 'node:timers/promises';

/** Elements of a long array written between two pauses. */
const PIECE = 1_000;

function replacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Date) return { $date: raw.getTime() };
  if (typeof raw === 'number' && !Number.isFinite(raw)) return { $number: String(raw) };
  return value;
}

/** What `toJson` wrote, back as it was (in the worker). */
export function fromJson<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const v = value as { $date?: unknown; $number?: unknown };
      if (typeof v.$date === 'number' && Object.keys(v).length === 1) return new Date(v.$date);
      if (typeof v.$number === 'string' && Object.keys(v).length === 1) return Number(v.$number);
    }
    return value;
  }) as T;
}

async function write(value: unknown, out: string[]): Promise<void> {
  if (Array.isArray(value)) {
    if (value.length <= PIECE) {
      out.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push(',');
        // undefined in an array is null in JSON, as JSON.stringify writes it
        if (value[i] === undefined) out.push('null');
        else await write(value[i], out);
      }
      out.push(']');
      return;
    }
    // a long array (the rows): JSON.stringify a piece at a time, a pause between pieces
    out.push('[');
    for (let i = 0; i < value.length; i += PIECE) {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(value.slice(i, i + PIECE), replacer).slice(1, -1));
      await pause();
    }
    out.push(']');
    return;
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Date) &&
    Object.values(value).some((v) => Array.isArray(v) || (v !== null && typeof v === 'object'))
  ) {
    out.push('{');
    let first = true;
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function') continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      await write(v, out);
    }
    out.push('}');
    return;
  }
  // a leaf or a small object: at once (a Date as { $date })
  out.push(JSON.stringify([value], replacer).slice(1, -1));
}

/** `value` as JSON text for `fromJson`, written a piece at a time with a pause between pieces. */
export async function toJson(value: unknown): Promise<string> {
  const out: string[] = [];
  await write(value, out);
  return out.join('');
}
