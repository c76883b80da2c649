// Sign-in throttling with sliding windows kept in the database (login_attempts), so every instance
// behind a load balancer sees the same counts.
//
// Choices (OWASP ASVS 2.2.1, "soft" lock-out):
// - Failures are counted per account ('conta:<login>', whether or not the login exists, so a 429
//   says nothing about accounts) and per client address ('ip:<address>').
// - A request refused with 429 is NOT counted: the block ends by itself once the oldest counted
//   failure leaves the window, however often someone keeps trying. There is no hard lock-out an
//   attacker could use to keep a user out for good.
// - While an account is blocked, the right password is refused too, from any address: the account
//   window protects against guessing spread over many addresses (the price: a user under attack may
//   wait up to one window; a password reset clears the account counter).
// - A successful sign-in clears the account counter, not the address counter.
// - Concurrency (issue 8): an attempt is RESERVED before the password is hashed: under a per-key
//   advisory lock (pg_advisory_xact_lock: one database, any number of server instances) the window
//   is checked and a row inserted in one transaction, so N concurrent guesses see each other and at
//   most `max` are evaluated. The row of a right password is deleted (released); the row of a wrong
//   one stays as the counted failure. An attempt in progress therefore counts until it is decided:
//   more than `max` CONCURRENT sign-ins of one account (or address) get 429 even with the right
//   password, which a strict bound requires.
// - Refused and blocked sign-ins are counted in tentativas_entrada per (login, address, fixed
//   window), outside the audit hash chain; the audit trail gets the first refusal and the first
//   block of each such row (countRefusal), so a flood adds a bounded number of audit rows.
import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { loginAttempts, tentativasEntrada } from './db/schema.js';
import type { Db, DbOrTx } from './db/types.js';
import { AppError } from './errors.js';

export interface ThrottleOptions {
  /** Failed sign-ins per account in one window (default 5). */
  accountMaxFailures: number;
  /** Failed sign-ins per client address in one window (default 20). */
  ipMaxFailures: number;
  /** Recovery requests per client address in one window (default 20). */
  recoverMaxPerIp: number;
  /** Window length (default 15 minutes). */
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  accountMaxFailures: 5,
  ipMaxFailures: 20,
  recoverMaxPerIp: 20,
  windowMs: 15 * 60_000,
};

export const TOO_MANY_ATTEMPTS_MESSAGE = 'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.';

export interface ThrottleRule {
  key: string;
  max: number;
  /** What was limited, for the audit trail. */
  motivo: 'conta' | 'ip';
}

export interface ThrottleBlock {
  rule: ThrottleRule;
  /** Seconds until the window lets one more attempt through (Retry-After). */
  retryAfterSeconds: number;
}

export const accountKey = (login: string): string => `conta:${login.trim().toLowerCase()}`;
export const ipKey = (ip: string): string => `ip:${ip}`;
export const recoverIpKey = (ip: string): string => `recuperar-ip:${ip}`;

/**
 * The first rule whose window is full, with the time until it frees up, or null. The block lifts
 * when the max-th most recent attempt leaves the window.
 */
export async function checkThrottle(db: DbOrTx, rules: readonly ThrottleRule[], now: number, windowMs: number): Promise<ThrottleBlock | null> {
  const since = new Date(now - windowMs);
  let worst: ThrottleBlock | null = null;
  for (const rule of rules) {
    const [row] = await db
      .select({ at: loginAttempts.at })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, rule.key), gt(loginAttempts.at, since)))
      .orderBy(desc(loginAttempts.at))
      .offset(rule.max - 1)
      .limit(1);
    if (!row) continue;
    const retryAfterSeconds = Math.max(1, Math.ceil((row.at.getTime() + windowMs - now) / 1000));
    if (!worst || retryAfterSeconds > worst.retryAfterSeconds) worst = { rule, retryAfterSeconds };
  }
  return worst;
}

/** Forgets attempts older than the window. */
export async function pruneAttempts(db: DbOrTx, now: number, windowMs: number): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.at, new Date(now - windowMs)));
}

export type Reservation = { block: ThrottleBlock; ids?: undefined } | { block: null; ids: number[] };

/**
 * Atomically: the first full window among `rules` (nothing is counted), else one attempt counted
 * under every rule's key, whose row ids are returned. Keys are locked in sorted order (no deadlock)
 * with transaction-scoped advisory locks, so concurrent reservations of a key are serialised on any
 * number of server instances. Delete the rows with releaseAttempts when the attempt turned out fine.
 */
export async function reserveAttempt(db: Db, rules: readonly ThrottleRule[], now: number, windowMs: number): Promise<Reservation> {
  return db.transaction(async (tx) => {
    for (const key of [...new Set(rules.map((r) => r.key))].sort()) {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 1964)) AS locked`);
    }
    const block = await checkThrottle(tx, rules, now, windowMs);
    if (block) return { block };
    if (rules.length === 0) return { block: null, ids: [] };
    const at = new Date(now);
    const rows = await tx
      .insert(loginAttempts)
      .values(rules.map((r) => ({ key: r.key, at })))
      .returning({ id: loginAttempts.id });
    return { block: null, ids: rows.map((r) => r.id) };
  });
}

/** Gives reserved attempts back (the password was right, or the attempt was never evaluated). */
export async function releaseAttempts(db: DbOrTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(loginAttempts).where(inArray(loginAttempts.id, [...ids]));
}

export async function clearAttempts(db: DbOrTx, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, [...keys]));
}

/** Start of the fixed window `now` falls in (windows of tentativas_entrada). */
export const windowStart = (now: number, windowMs: number): Date => new Date(Math.floor(now / windowMs) * windowMs);

/**
 * Counts one refused ('falha': wrong password, unknown or inactive login) or blocked ('bloqueio':
 * 429) sign-in in tentativas_entrada, one row per (login in lower case, address, fixed window).
 * Returns that row's count of this kind after the increment: audit the attempt only when it is 1.
 */
export async function countRefusal(
  db: DbOrTx,
  input: { login: string; ip: string | null; usuarioId: string | null; kind: 'falha' | 'bloqueio'; now: number; windowMs: number },
): Promise<number> {
  const at = new Date(input.now);
  const falha = input.kind === 'falha' ? 1 : 0;
  const [row] = await db
    .insert(tentativasEntrada)
    .values({
      login: input.login.trim().toLowerCase(),
      ip: input.ip ?? '',
      janela: windowStart(input.now, input.windowMs),
      usuarioId: input.usuarioId,
      falhas: falha,
      bloqueios: 1 - falha,
      primeiraEm: at,
      ultimaEm: at,
    })
    .onConflictDoUpdate({
      target: [tentativasEntrada.login, tentativasEntrada.ip, tentativasEntrada.janela],
      set: {
        falhas: sql`${tentativasEntrada.falhas} + ${falha}`,
        bloqueios: sql`${tentativasEntrada.bloqueios} + ${1 - falha}`,
        ultimaEm: sql`greatest(${tentativasEntrada.ultimaEm}, excluded.ultima_em)`,
        usuarioId: sql`coalesce(excluded.usuario_id, ${tentativasEntrada.usuarioId})`,
      },
    })
    .returning({ falhas: tentativasEntrada.falhas, bloqueios: tentativasEntrada.bloqueios });
  return input.kind === 'falha' ? row!.falhas : row!.bloqueios;
}

/** 429 too_many_attempts with Retry-After. */
export function tooManyAttempts(block: ThrottleBlock): AppError {
  return new AppError(429, 'too_many_attempts', TOO_MANY_ATTEMPTS_MESSAGE, undefined, {
    'Retry-After': String(block.retryAfterSeconds),
  });
}
