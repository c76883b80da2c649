// Outgoing e-mail: SMTP through nodemailer when SMTP_URL is set, otherwise the `outbox` table, which
// administrators read (GET /api/auth/outbox, only what they may see: see ListOutboxOptions.reader)
// and operators print (`compras-server outbox`, every message).
import { type SQL, and, desc, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Clock } from './clock.js';
import { outbox, usuarioEntidades } from './db/schema.js';
import type { DbOrTx } from './db/types.js';
import type { Logger } from './logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /** The user the message is for: administrators see it in the outbox of that user's entidades. */
  usuarioId?: string | null;
}

export interface Mailer {
  /** 'outbox' messages are written to the database; others are sent in the background. */
  readonly kind: 'outbox' | 'smtp' | (string & {});
  send(message: MailMessage): Promise<void>;
}

/** Writes messages to the outbox table. */
export function outboxMailer(db: DbOrTx, clock: Clock): Mailer {
  return {
    kind: 'outbox',
    send: async (message) => {
      await db.insert(outbox).values({
        to: message.to,
        subject: message.subject,
        body: message.text,
        usuarioId: message.usuarioId ?? null,
        createdAt: new Date(clock.now()),
      });
    },
  };
}

type SendMail = (message: { from: string; to: string; subject: string; text: string }) => Promise<unknown>;

/**
 * Sends through SMTP (`smtp://user:pass@host:587`, `smtps://…:465`). nodemailer is loaded only
 * when SMTP is configured; a missing nodemailer is reported at start. `load` imports it (tests give
 * another loader to check what a missing or broken package says).
 */
export async function smtpMailer(url: string, from: string, logger: Logger, load: () => Promise<unknown> = () => import('nodemailer')): Promise<Mailer> {
  let createTransport: ((url: string) => { sendMail: SendMail }) | undefined;
  try {
    const mod = (await load()) as {
      createTransport?: (url: string) => { sendMail: SendMail };
      default?: { createTransport?: (url: string) => { sendMail: SendMail } };
    };
    createTransport = mod.createTransport ?? mod.default?.createTransport;
  } catch (err) {
    throw new Error(`SMTP_URL is set but the nodemailer package cannot be loaded: ${(err as Error).message}`, { cause: err });
  }
  if (!createTransport) throw new Error('SMTP_URL is set but nodemailer has no createTransport().');
  const transport = createTransport(url);
  logger.info(`e-mail: SMTP ${redactSmtpUrl(url)} (from ${from})`);
  return {
    kind: 'smtp',
    send: async (message) => {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

/** smtp://user:secret@host → smtp://user:***@host */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  createdAt: string;
}

export interface ListOutboxOptions {
  page?: number;
  pageSize?: number;
  /** Matches recipient or subject (case-insensitive). */
  q?: string | undefined;
  /** Only messages for users of this entidade, plus messages for no user. Unset: every message. */
  entidadeId?: string | undefined;
  /**
   * The administrator reading (GET /api/auth/outbox). A user account is shared by all the user's
   * entidades, so a message (e.g. a recovery link) is shown only when it is for the reader, or for a
   * user every one of whose entidades the reader administers (holds `adminTag` there); a message for no
   * user only when the reader administers every entidade. Unset (the operator's CLI): no such filter.
   */
  reader?: { usuarioId: string; adminTag: number } | undefined;
}

/** Outbox messages, newest first, paginated. */
export async function listOutbox(
  db: DbOrTx,
  options: ListOutboxOptions = {},
): Promise<{ items: OutboxMessage[]; total: number; page: number; pageSize: number }> {
  const page = options.page ?? 1;
  const pageSize = options.pageSize ?? 20;
  const conditions = [];
  if (options.entidadeId) {
    conditions.push(
      or(
        isNull(outbox.usuarioId),
        sql`${outbox.usuarioId} IN (SELECT ${usuarioEntidades.usuarioId} FROM ${usuarioEntidades} WHERE ${usuarioEntidades.entidadeId} = ${options.entidadeId})`,
      ),
    );
  }
  if (options.reader) {
    const { usuarioId: readerId, adminTag } = options.reader;
    /** The reader holds `adminTag` in the entidade `entidade` (an SQL expression). */
    const administers = (entidade: SQL) =>
      sql`EXISTS (SELECT 1 FROM usuario_entidades r JOIN perfis p ON p.id = r.perfil_id
                   WHERE r.usuario_id = ${readerId} AND r.entidade_id = ${entidade} AND ${adminTag} = ANY(p.tags))`;
    conditions.push(
      or(
        sql`${outbox.usuarioId} = ${readerId}`,
        and(
          isNotNull(outbox.usuarioId),
          sql`NOT EXISTS (SELECT 1 FROM usuario_entidades t WHERE t.usuario_id = ${outbox.usuarioId} AND NOT ${administers(sql`t.entidade_id`)})`,
        ),
        and(isNull(outbox.usuarioId), sql`NOT EXISTS (SELECT 1 FROM entidades e WHERE NOT ${administers(sql`e.id`)})`),
      ),
    );
  }
  if (options.q) {
    const like = `%${options.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conditions.push(or(ilike(outbox.to, like), ilike(outbox.subject, like)));
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(outbox).where(where);
  const rows = await db
    .select()
    .from(outbox)
    .where(where)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return {
    items: rows.map((r) => ({
      id: String(r.id),
      to: r.to,
      subject: r.subject,
      body: r.body,
      createdAt: r.createdAt.toISOString(),
    })),
    total: Number(count?.total ?? 0),
    page,
    pageSize,
  };
}
