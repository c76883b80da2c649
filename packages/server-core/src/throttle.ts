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
// - Counting is check-then-insert without a lock: concurrent requests may pass a limit by a few.
import { and, desc, eq, gt, inArray, lt } from 'drizzle-orm';
import { loginAttempts } from './db/schema.js';
import type { DbOrTx } from './db/types.js';
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
export async function checkThrottle(
  db: DbOrTx,
  rules: readonly ThrottleRule[],
  now: number,
  windowMs: number,
): Promise<ThrottleBlock | null> {
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

/** Counts one attempt under each key, and forgets attempts older than the window. */
export async function recordAttempt(db: DbOrTx, keys: readonly string[], now: number, windowMs: number): Promise<void> {
  if (keys.length === 0) return;
  const at = new Date(now);
  await db.insert(loginAttempts).values(keys.map((key) => ({ key, at })));
  await db.delete(loginAttempts).where(lt(loginAttempts.at, new Date(now - windowMs)));
}

export async function clearAttempts(db: DbOrTx, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, [...keys]));
}

/** 429 too_many_attempts with Retry-After. */
export function tooManyAttempts(block: ThrottleBlock): AppError {
  return new AppError(429, 'too_many_attempts', TOO_MANY_ATTEMPTS_MESSAGE, undefined, {
    'Retry-After': String(block.retryAfterSeconds),
  });
}
