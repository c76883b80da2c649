import { CORE_VERSION } from '../contract';
import { type ConsoleEntry, getConsoleLog } from '../runtime/console';
import { getKnownBuildId } from '../runtime/caches';

export interface ErrorLog {
  error: string;
  stack: string | null;
  route: string;
  build: { buildId: string | null; core: string };
  userAgent: string;
  at: string;
  console: ConsoleEntry[];
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The JSON log offered on the error screen (read-only, copyable). */
export function buildErrorLog(error: unknown, now: Date = new Date()): ErrorLog {
  return {
    error: errorMessage(error),
    stack: error instanceof Error && error.stack ? error.stack : null,
    route: typeof location === 'undefined' ? '' : `${location.pathname}${location.search}`,
    build: { buildId: getKnownBuildId(), core: CORE_VERSION },
    userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
    at: now.toISOString(),
    console: getConsoleLog(),
  };
}
