// Which errors mean "PostgreSQL cannot be reached right now" and how they are answered: 503
// `database_unavailable` in pt-BR with Retry-After, never a 500. (The end-to-end proof with a real
// PostgreSQL restarted under load is apps/server/test/pg-restart.test.ts.)
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isConnectionError } from '../src/platform/db/connection-errors.js';
import { toErrorResponse } from '../src/platform/errors.js';
import type { Logger } from '../src/platform/logger.js';

/** An error shaped like node-postgres's DatabaseError (SQLSTATE in `code`). */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
/** drizzle wraps the driver's error: "Failed query: …" with the driver's error as cause. */
const drizzleWrapped = (cause: Error) => new Error('Failed query: insert into "registros_cargos" …', { cause });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });

const CONNECTION_ERRORS: [string, Error][] = [
  ['57P01 admin_shutdown', pgError('57P01', 'terminating connection due to administrator command')],
  ['57P02 crash_shutdown', pgError('57P02', 'terminating connection because of crash of another server process')],
  ['57P03 cannot_connect_now', pgError('57P03', 'the database system is starting up')],
  ['08006 connection_failure', pgError('08006', 'connection failure')],
  ['08P01 protocol_violation', pgError('08P01', 'protocol violation')],
  ['ECONNREFUSED', socketError('ECONNREFUSED')],
  ['ECONNRESET', socketError('ECONNRESET')],
  ['EPIPE', socketError('EPIPE')],
  ['AggregateError (IPv4 and IPv6 refused)', new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')])],
  ['Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
  ['client not queryable', new Error('Client has encountered a connection error and is not queryable')],
  ['connect timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') })],
  ['pool checkout timeout', new Error('timeout exceeded when trying to connect')],
  ['wrapped by drizzle', drizzleWrapped(pgError('57P01', 'terminating connection due to administrator command'))],
];

const OTHER_ERRORS: [string, Error][] = [
  ['42P01 undefined_table', pgError('42P01', 'relation "x" does not exist')],
  ['23505 unique_violation', drizzleWrapped(pgError('23505', 'duplicate key value violates unique constraint'))],
  ['57014 query_canceled', pgError('57014', 'canceling statement due to statement timeout')],
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
];

function appThrowing(err: unknown, logged: string[]) {
  const logger: Logger = {
    info: () => undefined,
    warn: (message) => logged.push(`warn ${message}`),
    error: (message) => logged.push(`error ${message}`),
  };
  const app = new Hono();
  app.post('/api/coisas', () => {
    throw err;
  });
  app.onError((e, c) => toErrorResponse(e, c, logger));
  return app;
}

describe('database unavailable', () => {
  it.each(CONNECTION_ERRORS)('recognises %s as a lost or refused connection', (_name, err) => {
    expect(isConnectionError(err)).toBe(true);
  });

  it.each(OTHER_ERRORS)('does not take %s for a connection problem', (_name, err) => {
    expect(isConnectionError(err)).toBe(false);
  });

  it('answers 503 database_unavailable in pt-BR with Retry-After, logged as a warning without a stack', async () => {
    for (const [name, err] of CONNECTION_ERRORS) {
      const logged: string[] = [];
      const res = await appThrowing(err, logged).request('/api/coisas', { method: 'POST' });
      expect(res.status, name).toBe(503);
      expect(Number(res.headers.get('retry-after')), name).toBeGreaterThan(0);
      expect(await res.json(), name).toEqual({
        error: { code: 'database_unavailable', message: 'O banco de dados está indisponível no momento. Tente novamente em instantes.' },
      });
      expect(logged, name).toEqual([expect.stringMatching(/^warn POST \/api\/coisas: database unavailable \(.+\)$/)]);
    }
  });

  it('still answers 500 (logged as an error) for a statement that fails for another reason', async () => {
    const logged: string[] = [];
    const res = await appThrowing(pgError('42P01', 'relation "x" does not exist'), logged).request('/api/coisas', { method: 'POST' });
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
    // with the database's own words (issue 18: the log said only "Failed query")
    expect(logged).toEqual(['error POST /api/coisas failed (SQLSTATE 42P01: relation "x" does not exist)']);
  });
});

describe('the sort collation probe during an outage', () => {
  it('is asked again after a failure instead of remembering "no collation" until restart', async () => {
    const { hasSortCollation } = await import('../src/kit/crud.js');
    let calls = 0;
    const db = {
      execute: async () => {
        calls++;
        if (calls === 1) throw pgError('57P01', 'terminating connection due to administrator command');
        return { rows: [{ ok: true }] };
      },
    };
    await expect(hasSortCollation(db as never)).rejects.toThrow(/administrator command/);
    expect(await hasSortCollation(db as never)).toBe(true);
    expect(await hasSortCollation(db as never)).toBe(true);
    expect(calls).toBe(2);
  });
});

describe('validation messages keyed by field name', () => {
  it('keeps the message of a field called like an Object.prototype member', async () => {
    const { z } = await import('zod');
    const { validationError } = await import('../src/platform/errors.js');
    const result = z.object({ constructor: z.string(), toString: z.string() }).safeParse({ constructor: 1, toString: 2 });
    expect(result.success).toBe(false);
    const fields = validationError(result.error!).fields!;
    expect(Object.keys(fields).sort()).toEqual(['constructor', 'toString']);
  });
});
