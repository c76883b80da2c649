// Outgoing e-mail: SMTP through nodemailer when SMTP_URL is set, otherwise the `outbox` table, which
// administrators read (GET /api/auth/outbox, only what they may see: see ListOutboxOptions.reader)
// and operators print (`compras-server outbox`, every message). A message may carry files
// (`attachments`, within MAIL_ATTACHMENTS_MAX and MAIL_ATTACHMENTS_MAX_BYTES): nodemailer's
// attachments through SMTP, the `outbox_anexos` table in the outbox.
import { type SQL, and, asc, desc, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { cleanFileName } from '../formats/file-name.js';
import type { Clock } from './clock.js';
import { outbox, outboxAnexos, usuarioEntidades } from './db/schema.js';
import type { DbOrTx } from './db/types.js';
import type { Logger } from './logger.js';

/** A file sent with an e-mail. */
export interface MailAttachment {
  /** Shown to the recipient (cleaned with cleanFileName), e.g. 'formulario-cotacao-12-2026.xlsx'. */
  filename: string;
  /** Media type, e.g. 'application/pdf'. */
  contentType: string;
  content: Buffer | Uint8Array;
}

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /** The user the message is for: administrators see it in the outbox of that user's entidades. */
  usuarioId?: string | null;
  /** Files sent with the message: at most MAIL_ATTACHMENTS_MAX, MAIL_ATTACHMENTS_MAX_BYTES together. */
  attachments?: readonly MailAttachment[] | undefined;
}

/** Most files one e-mail carries. */
export const MAIL_ATTACHMENTS_MAX = 10;
/** Most bytes the files of one e-mail add up to (SMTP servers commonly refuse messages above 10–25 MB once encoded). */
export const MAIL_ATTACHMENTS_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The message's files checked against the limits, their names cleaned: a message over them is a
 * programming error of its sender (thrown, so the mutation sending it rolls back), never cut silently.
 */
export function mailAttachments(message: MailMessage): MailAttachment[] {
  const files = message.attachments ?? [];
  if (files.length > MAIL_ATTACHMENTS_MAX) {
    throw new Error(`e-mail to ${message.to}: ${files.length} attachments, at most ${MAIL_ATTACHMENTS_MAX}.`);
  }
  const total = files.reduce((sum, f) => sum + f.content.byteLength, 0);
  if (total > MAIL_ATTACHMENTS_MAX_BYTES) {
    throw new Error(`e-mail to ${message.to}: attachments of ${total} bytes, at most ${MAIL_ATTACHMENTS_MAX_BYTES}.`);
  }
  return files.map((f) => {
    const contentType = f.contentType.trim();
    if (!/^[\w.+-]+\/[\w.+-]+$/.test(contentType)) throw new Error(`e-mail to ${message.to}: attachment type '${f.contentType}' is not a media type.`);
    return { filename: cleanFileName(f.filename, 'anexo'), contentType, content: f.content };
  });
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
      const files = mailAttachments(message);
      const [row] = await db
        .insert(outbox)
        .values({
          to: message.to,
          subject: message.subject,
          body: message.text,
          usuarioId: message.usuarioId ?? null,
          createdAt: new Date(clock.now()),
        })
        .returning({ id: outbox.id });
      if (files.length === 0) return;
      await db.insert(outboxAnexos).values(
        files.map((f, i) => ({
          outboxId: row!.id,
          ordem: i + 1,
          nome: f.filename,
          tipo: f.contentType,
          tamanho: f.content.byteLength,
          conteudo: f.content instanceof Uint8Array ? f.content : new Uint8Array(f.content),
        })),
      );
    },
  };
}

type SendMail = (message: {
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}) => Promise<unknown>;

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
      const files = mailAttachments(message);
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(files.length
          ? {
              attachments: files.map((f) => ({
                filename: f.filename,
                contentType: f.contentType,
                content: Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content.buffer, f.content.byteOffset, f.content.byteLength),
              })),
            }
          : {}),
      });
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

/** A file of an outbox message, as listed (GET /api/auth/outbox/:id/anexos/:ordem downloads it). */
export interface OutboxAttachment {
  /** 1, 2, … in the message. */
  ordem: number;
  nome: string;
  tipo: string;
  /** Bytes. */
  tamanho: number;
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  createdAt: string;
  /** Its files (empty when none). */
  anexos: OutboxAttachment[];
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

/** The messages `options` lets one see (entidade, reader, search). */
function outboxWhere(options: ListOutboxOptions): SQL | undefined {
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
  return conditions.length ? and(...conditions) : undefined;
}

/** Outbox messages, newest first, paginated, each with the list of its files. */
export async function listOutbox(
  db: DbOrTx,
  options: ListOutboxOptions = {},
): Promise<{ items: OutboxMessage[]; total: number; page: number; pageSize: number }> {
  const page = options.page ?? 1;
  const pageSize = options.pageSize ?? 20;
  const where = outboxWhere(options);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(outbox).where(where);
  const rows = await db
    .select()
    .from(outbox)
    .where(where)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const anexos = new Map<number, OutboxAttachment[]>();
  if (rows.length) {
    const files = await db
      .select({ outboxId: outboxAnexos.outboxId, ordem: outboxAnexos.ordem, nome: outboxAnexos.nome, tipo: outboxAnexos.tipo, tamanho: outboxAnexos.tamanho })
      .from(outboxAnexos)
      .where(
        inArray(
          outboxAnexos.outboxId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(outboxAnexos.outboxId), asc(outboxAnexos.ordem));
    for (const { outboxId, ...file } of files) anexos.set(outboxId, [...(anexos.get(outboxId) ?? []), file]);
  }
  return {
    items: rows.map((r) => ({
      id: String(r.id),
      to: r.to,
      subject: r.subject,
      body: r.body,
      createdAt: r.createdAt.toISOString(),
      anexos: anexos.get(r.id) ?? [],
    })),
    total: Number(count?.total ?? 0),
    page,
    pageSize,
  };
}

/**
 * One file of an outbox message, with the same reader rule as listOutbox (`options`: entidade and
 * reader); null when the message or the file is not there, or not for this reader.
 */
export async function readOutboxAttachment(
  db: DbOrTx,
  id: string,
  ordem: number,
  options: Pick<ListOutboxOptions, 'entidadeId' | 'reader'> = {},
): Promise<(OutboxAttachment & { conteudo: Uint8Array }) | null> {
  if (!/^\d{1,18}$/.test(id) || !Number.isSafeInteger(Number(id)) || !Number.isInteger(ordem) || ordem < 1) return null;
  const [row] = await db
    .select({ ordem: outboxAnexos.ordem, nome: outboxAnexos.nome, tipo: outboxAnexos.tipo, tamanho: outboxAnexos.tamanho, conteudo: outboxAnexos.conteudo })
    .from(outboxAnexos)
    .innerJoin(outbox, eq(outbox.id, outboxAnexos.outboxId))
    .where(and(eq(outboxAnexos.outboxId, Number(id)), eq(outboxAnexos.ordem, ordem), outboxWhere(options)))
    .limit(1);
  return row ?? null;
}
