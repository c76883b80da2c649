import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** OWASP parameters for scrypt: N=2^17, r=8, p=1 (needs 128 MiB; maxmem allows 256 MiB). */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;

/**
 * Hash of a random secret nobody knows, with the same parameters: verified when the login does not
 * exist (or is inactive) so that answer takes as long as a wrong password.
 */
const DUMMY_HASH =
  'scrypt$131072$8$1$D3bvmRqyH9Wl8l6Zl0Xx3g==$ZpV4bS8mPbz5P6n3c1hXJ3u2v0m3y5nOaH2J5b4Q8rY=';

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt(base64)$key(base64)` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, KEY_LENGTH);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![n, r, p].every(Number.isSafeInteger) || n < 2 || n > 2 ** 20 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || key.length < 16) return null;
  return { n, r, p, salt, key };
}

/** Timing-safe check of `password` against a stored hash; `null` (unknown login) checks a dummy hash. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const real = stored ? parse(stored) : null;
  const parsed = real ?? parse(DUMMY_HASH)!;
  const key = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p, parsed.key.length);
  const equal = timingSafeEqual(key, parsed.key);
  return equal && real !== null;
}

/** True when `stored` was made with other parameters than today's (rehash it at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n !== N || parsed.r !== R || parsed.p !== P || parsed.key.length !== KEY_LENGTH;
}
