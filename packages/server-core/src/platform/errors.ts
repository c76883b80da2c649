import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { findConnectionError } from './db/connection-errors.js';
import type { Logger } from './logger.js';

/** Body of every error answer: `{ error: { code, message (pt-BR), fields? } }`. */
export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

/** An error with an HTTP status, a stable code and a pt-BR message, answered as uniform JSON. */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** Extra response headers (e.g. Retry-After on a 429). */
  readonly headers: Record<string, string> | undefined;

  constructor(status: ContentfulStatusCode, code: string, message: string, fields?: Record<string, string>, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.headers = headers;
  }

  toJSON(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }
}

export const badRequest = (message = 'Requisição inválida.', fields?: Record<string, string>) => new AppError(400, 'bad_request', message, fields);
export const unauthorized = (message = 'Autenticação necessária. Entre novamente.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Você não tem permissão para acessar este recurso.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Registro não encontrado.') => new AppError(404, 'not_found', message);
/** Answered (409 `conflict`) when the database aborted a transaction for a concurrent one (deadlock, serialization) and retrying did not help. */
export const CONCURRENT_CHANGE_MESSAGE = 'Outra operação alterou este registro ao mesmo tempo; tente de novo.';
export const conflict = (message = 'O registro foi alterado ou está em uso. Recarregue e tente novamente.') => new AppError(409, 'conflict', message);

/** Seconds a client should wait before retrying when the database is unavailable (a restart takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** 503 `database_unavailable` with Retry-After: PostgreSQL cannot be reached right now (restart, network). */
export const databaseUnavailable = () =>
  new AppError(503, 'database_unavailable', 'O banco de dados está indisponível no momento. Tente novamente em instantes.', undefined, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });

/** 400 `validation_error` with one pt-BR message per field path (`itens.0.quantidade`). */
export function validationError(error: ZodError, target?: string): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : (target ?? '_');
    if (!Object.hasOwn(fields, key)) fields[key] = issue.message;
  }
  return new AppError(400, 'validation_error', 'Verifique os campos destacados.', fields);
}

const HTTP_MESSAGES: Record<number, [string, string]> = {
  400: ['bad_request', 'Requisição inválida: o corpo não é um JSON válido.'],
  401: ['unauthorized', 'Autenticação necessária. Entre novamente.'],
  403: ['forbidden', 'Você não tem permissão para acessar este recurso.'],
  404: ['not_found', 'Recurso não encontrado.'],
  405: ['method_not_allowed', 'Método não permitido.'],
  413: ['payload_too_large', 'A requisição é grande demais.'],
  415: ['unsupported_media_type', 'Envie os dados como JSON (Content-Type: application/json).'],
};

/** The PostgreSQL error inside `err` (drizzle wraps the driver's error in `cause`), if any. */
export function databaseCause(err: unknown): { code: string; message: string; detail?: string; constraint?: string } | undefined {
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, detail, constraint } = current as { code?: unknown; message?: unknown; detail?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return {
        code,
        message: typeof message === 'string' ? message : '',
        ...(typeof detail === 'string' && detail ? { detail } : {}),
        ...(typeof constraint === 'string' && constraint ? { constraint } : {}),
      };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** 'SQLSTATE 40P01: deadlock detected (detail: …; constraint: …)', or '' when `err` holds no database error. */
export function describeDatabaseCause(err: unknown): string {
  const cause = databaseCause(err);
  if (!cause) return '';
  const extra = [cause.detail ? `detail: ${cause.detail}` : '', cause.constraint ? `constraint: ${cause.constraint}` : ''].filter(Boolean).join('; ');
  return `SQLSTATE ${cause.code}: ${cause.message}${extra ? ` (${extra})` : ''}`;
}

/** PostgreSQL error code of a (possibly wrapped) database error. */
function pgCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Converts anything thrown into the uniform JSON answer; unexpected errors are logged, never sent. */
export function toErrorResponse(err: unknown, c: Context, logger: Logger): Response {
  if (err instanceof AppError) return c.json(err.toJSON(), err.status, err.headers);
  if (err instanceof HTTPException) {
    const status = err.status;
    const [code, message] = HTTP_MESSAGES[status] ?? ['http_error', 'Não foi possível atender à requisição.'];
    return c.json({ error: { code, message } } satisfies ErrorBody, status as ContentfulStatusCode);
  }
  // connection lost or refused (PostgreSQL restarting…): 503 with Retry-After. The write was not
  // acknowledged (a COMMIT cut short may still have been applied); the pool reconnects for later requests.
  const lost = findConnectionError(err);
  if (lost) {
    logger.warn(`${c.req.method} ${c.req.path}: database unavailable (${lost.code ? `${lost.code}: ` : ''}${lost.message})`);
    const unavailable = databaseUnavailable();
    return c.json(unavailable.toJSON(), unavailable.status, unavailable.headers);
  }
  const code = pgCode(err);
  if (code === '40P01' || code === '40001') {
    // a deadlock or serialization failure outside ctx.mutate (which retries them): the other
    // transaction went through; the client may try again
    logger.warn(`${c.req.method} ${c.req.path}: aborted by a concurrent transaction, answered 409 (${describeDatabaseCause(err)})`);
    return c.json({ error: { code: 'conflict', message: CONCURRENT_CHANGE_MESSAGE } } satisfies ErrorBody, 409);
  }
  if (code === '23505') {
    return c.json({ error: { code: 'conflict', message: 'Já existe um registro com estes dados.' } } satisfies ErrorBody, 409);
  }
  if (code === '23503') {
    return c.json(
      {
        error: { code: 'conflict', message: 'A operação não é possível: o registro está em uso ou referencia outro inexistente.' },
      } satisfies ErrorBody,
      409,
    );
  }
  if (code?.startsWith('22')) {
    // data exception (22P05 NUL/unicode, 22021 encoding, 22007/22008 dates, 22003 range…): a value the
    // validation let through; the client sent it, so a 400 (logged: the schema should refuse it first)
    logger.warn(`${c.req.method} ${c.req.path}: value refused by the database (${describeDatabaseCause(err)})`);
    return c.json(
      { error: { code: 'bad_request', message: 'Algum valor enviado é inválido (data, número ou texto fora do formato aceito).' } } satisfies ErrorBody,
      400,
    );
  }
  // the database's own words (code, message, detail, constraint): drizzle's message is only "Failed query"
  const cause = describeDatabaseCause(err);
  logger.error(`${c.req.method} ${c.req.path} failed${cause ? ` (${cause})` : ''}`, err);
  return c.json({ error: { code: 'internal_error', message: 'Erro interno do servidor. Tente novamente em instantes.' } } satisfies ErrorBody, 500);
}
