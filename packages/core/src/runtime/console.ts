/** Console levels that are captured (and silenced in production). */
export const CONSOLE_LEVELS = ['log', 'info', 'debug', 'warn', 'error'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

export interface ConsoleEntry {
  level: ConsoleLevel;
  /** ISO timestamp. */
  at: string;
  message: string;
}

/** How many entries the in-memory log keeps. */
export const CONSOLE_LOG_LIMIT = 100;
const MAX_MESSAGE = 2000;

const entries: ConsoleEntry[] = [];

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Adds one entry to the bounded log (oldest dropped beyond CONSOLE_LOG_LIMIT). */
export function recordConsole(level: ConsoleLevel, args: unknown[]): void {
  let message = args.map(describe).join(' ');
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`;
  entries.push({ level, at: new Date().toISOString(), message });
  if (entries.length > CONSOLE_LOG_LIMIT) entries.splice(0, entries.length - CONSOLE_LOG_LIMIT);
}

/** The last CONSOLE_LOG_LIMIT console entries (copy), shown in the error screen's log. */
export function getConsoleLog(): ConsoleEntry[] {
  return entries.slice();
}

export function clearConsoleLog(): void {
  entries.length = 0;
}

let restore: (() => void) | null = null;

/**
 * Replaces console.log/info/debug/warn/error with functions that push to the in-memory log.
 * `silence: true` (production) drops the output; `silence: false` still forwards it.
 * Returns a function restoring the originals. Installing twice is a no-op.
 */
export function installConsoleCapture({ silence }: { silence: boolean }): () => void {
  if (restore) return restore;
  const target = console as unknown as Record<ConsoleLevel, (...args: unknown[]) => void>;
  const originals = {} as Record<ConsoleLevel, (...args: unknown[]) => void>;
  for (const level of CONSOLE_LEVELS) {
    const original = target[level];
    originals[level] = original;
    target[level] = (...args: unknown[]) => {
      recordConsole(level, args);
      if (!silence) original.apply(console, args);
    };
  }
  restore = () => {
    for (const level of CONSOLE_LEVELS) target[level] = originals[level];
    restore = null;
  };
  return restore;
}
