// What a transaction opened by ctx.mutate carries besides `tx`, reachable from any code that holds
// the `tx` (kit hooks, plugin services called from them): the audit function of the mutation and its
// e-mails. E-mails follow the transaction: written to the outbox inside it when the runtime's mailer
// is the outbox, otherwise sent through the runtime's mailer (SMTP) after COMMIT, in the background,
// falling back to the outbox on failure. Nothing is sent for a mutation that rolls back.
// A transaction the database aborts for a deadlock or a serialization failure is run again a few
// times, then answered 409 (retryTransient); the callback must keep its effects inside `tx`.
import type { AuditFn } from './audit.js';
import type { Tx } from './db/types.js';
import { AppError, CONCURRENT_CHANGE_MESSAGE, databaseCause, describeDatabaseCause } from './errors.js';
import type { Logger } from './logger.js';
import { type MailMessage, mailAttachments } from './mail.js';
import type { Runtime } from './runtime.js';

export interface MutationState {
  audit: AuditFn;
  mail(message: MailMessage): void;
}

const states = new WeakMap<object, MutationState>();

/** Binds the audit and mail functions of a mutation to its transaction (server-core's mutate does it). */
export function bindMutation(tx: Tx, state: MutationState): void {
  states.set(tx, state);
}

function stateOf(tx: Tx, what: string): MutationState {
  const state = states.get(tx);
  if (!state) throw new Error(`${what}(tx): this transaction was not opened by ctx.mutate (or is a nested savepoint).`);
  return state;
}

/**
 * The audit function of the ctx.mutate that opened `tx`: rows recorded through it are written in the
 * same transaction, as done by the same person (e.g. a document's hook recording the status change
 * it causes on another record, which then shows in that record's timeline).
 */
export function auditOf(tx: Tx): AuditFn {
  return stateOf(tx, 'auditOf').audit;
}

/**
 * Sends an e-mail as part of the ctx.mutate that opened `tx`: with the outbox as mailer it is written
 * in the transaction; with SMTP it goes after the COMMIT (never for a rolled-back mutation), and to
 * the outbox when SMTP fails. Its `attachments` are checked now (MAIL_ATTACHMENTS_MAX, MAIL_ATTACHMENTS_MAX_BYTES).
 */
export function sendMail(tx: Tx, message: MailMessage): void {
  const state = stateOf(tx, 'sendMail');
  // files over the limits fail here, in the mutation (rolled back), not after the COMMIT
  mailAttachments(message);
  state.mail(message);
}

/** SMTP (or any non-outbox mailer): sent in the background; on failure kept in the outbox. */
export function deliverInBackground(runtime: Runtime, message: MailMessage): void {
  runtime.background(
    Promise.resolve()
      .then(() => runtime.mailer.send(message))
      .catch(async (err: unknown) => {
        runtime.logger.error(`e-mail to ${message.to} could not be sent; kept in the outbox`, err);
        await runtime.outbox.send(message).catch((e: unknown) => runtime.logger.error('outbox write failed', e));
      }),
  );
}

/** SQLSTATEs of a transaction the database aborted because of another one: deadlock, serialization failure. */
export const TRANSIENT_SQLSTATES: readonly string[] = ['40P01', '40001'];
/** How many times ctx.mutate runs a transaction that keeps failing with a TRANSIENT_SQLSTATES code. */
export const MUTATION_ATTEMPTS = 4;

/**
 * Runs `transaction` again when the database aborted it for a deadlock (40P01) or a serialization
 * failure (40001) — the other transaction went through, so a new attempt normally succeeds — after a
 * short jittered pause, up to MUTATION_ATTEMPTS times; then answers 409 with
 * CONCURRENT_CHANGE_MESSAGE. Each retry and the final failure are logged with the database's cause.
 */
export async function retryTransient<T>(
  transaction: () => Promise<T>,
  options: { logger: Logger; what: string; attempts?: number; pause?: (attempt: number) => number },
): Promise<T> {
  const attempts = options.attempts ?? MUTATION_ATTEMPTS;
  const pause = options.pause ?? ((attempt: number) => 10 * 2 ** attempt + Math.floor(Math.random() * 25));
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      const cause = databaseCause(err);
      if (!cause || !TRANSIENT_SQLSTATES.includes(cause.code)) throw err;
      if (attempt >= attempts) {
        options.logger.warn(`${options.what}: gave up after ${attempt} attempts, answered 409 (${describeDatabaseCause(err)})`);
        throw new AppError(409, 'conflict', CONCURRENT_CHANGE_MESSAGE);
      }
      options.logger.warn(`${options.what}: attempt ${attempt} of ${attempts} aborted by the database, retrying (${describeDatabaseCause(err)})`);
      await new Promise((resolve) => setTimeout(resolve, pause(attempt)));
    }
  }
}
