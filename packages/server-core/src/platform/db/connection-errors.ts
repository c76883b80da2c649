// Errors that mean "the database cannot be reached right now" (PostgreSQL restarting, connection
// killed, pool cannot connect), as opposed to an error of the statement itself. The server answers
// them with a 503 `database_unavailable` (errors.ts) and the pool opens new connections afterwards.

/** SQLSTATE codes of a lost or refused connection: class 08, admin/crash shutdown, cannot connect now. */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** Node socket errors of a connection that was refused, reset or never established. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Messages of node-postgres (pg, pg-pool) for a connection that broke or could not be opened in time. */
const MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * The error in `err`, its causes or an AggregateError's errors (drizzle and Node wrap the driver's
 * error) that says the connection to PostgreSQL was lost or could not be opened; undefined if none.
 */
export function findConnectionError(err: unknown): (Error & { code?: string }) | undefined {
  const pending: unknown[] = [err];
  for (let seen = 0; pending.length > 0 && seen < 16; seen++) {
    const current = pending.shift();
    if (!current || typeof current !== 'object') continue;
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (SQLSTATE.test(code) || SOCKET_CODES.has(code))) return current as Error & { code: string };
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return current as Error;
    if (cause) pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return undefined;
}

/** True when `err` says the connection to PostgreSQL was lost or could not be opened (see findConnectionError). */
export function isConnectionError(err: unknown): boolean {
  return findConnectionError(err) !== undefined;
}
