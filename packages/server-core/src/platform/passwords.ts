import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { AppError } from './errors.js';

/** OWASP parameters for scrypt: N=2^17, r=8, p=1 (needs 128 MiB; maxmem allows 256 MiB). */
const SCRYPT_N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;

/**
 * Hash of a random secret nobody knows, with the same parameters: verified when the login does not
 * exist (or is inactive) so that answer takes as long as a wrong password.
 */
const DUMMY_HASH = 'scrypt$131072$8$1$D3bvmRqyH9Wl8l6Zl0Xx3g==$ZpV4bS8mPbz5P6n3c1hXJ3u2v0m3y5nOaH2J5b4Q8rY=';

/**
 * N of the hashes this process makes: always SCRYPT_N, except under the test harness
 * (`@app/server-core/testing` lowers it so hundreds of test sign-ins do not each cost ~0.6 s of CPU;
 * the tests of the hashing itself raise it back). Verification always reads N from the stored hash.
 */
let currentN = SCRYPT_N;

/** Test harness only (not exported by the package's index): the N of new hashes; `null` restores SCRYPT_N. */
export function setHashCostForTests(n: number | null): void {
  currentN = n ?? SCRYPT_N;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt(base64)$key(base64)` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, currentN, R, P, KEY_LENGTH);
  return `scrypt$${currentN}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
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
  const { parsed, real } = verificationParameters(stored);
  const key = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p, parsed.key.length);
  const equal = timingSafeEqual(key, parsed.key);
  return equal && real;
}

/**
 * What a verification derives with: the stored hash's parameters, or (unknown login, unreadable hash)
 * the dummy's at the N this process hashes with, so that answer costs what a real one costs.
 */
export function verificationParameters(stored: string | null | undefined): { parsed: ParsedHash; real: boolean } {
  const real = stored ? parse(stored) : null;
  return real ? { parsed: real, real: true } : { parsed: { ...parse(DUMMY_HASH)!, n: currentN }, real: false };
}

/** True when `stored` was made with other parameters than today's (rehash it at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n !== currentN || parsed.r !== R || parsed.p !== P || parsed.key.length !== KEY_LENGTH;
}

// ---------------------------------------------------------------------------------------------------
// Hash queue. Each scrypt above takes 128 MiB and one libuv threadpool thread (crypto.scrypt with a
// callback runs on the threadpool, off the event loop) for ~100-300 ms. Without a bound, 100 sign-ins
// with distinct unknown logins from distinct addresses (none of them throttled) start 100 hashes: the
// threadpool (4 threads by default, shared with fs and dns) and the cores are taken and every other
// request waits. The queue lets at most `concurrency` hashes run and `maxWaiting` wait; requests
// without a session that find it full are answered 503 at once (HASH_QUEUE_FULL_MESSAGE).

/** 503 message when the hash queue is full. */
export const HASH_QUEUE_FULL_MESSAGE = 'Muitas tentativas de entrada em andamento. Tente novamente em instantes.';
/** Retry-After (seconds) of that 503. */
export const HASH_QUEUE_RETRY_AFTER_SECONDS = 2;

/** 503 busy with Retry-After: the hash queue is full. */
export function hashQueueFull(): AppError {
  return new AppError(503, 'busy', HASH_QUEUE_FULL_MESSAGE, undefined, { 'Retry-After': String(HASH_QUEUE_RETRY_AFTER_SECONDS) });
}

export interface HashQueueOptions {
  /** Hashes running at once (default: defaultHashConcurrency()). */
  concurrency: number;
  /** Hashes waiting for a turn; one more is refused (default 16). */
  maxWaiting: number;
}

/**
 * Default number of hashes at once: one core less than the machine has (the event loop, which
 * serves every other request, keeps a core: on 2 cores, 2 hashes at once made a list request 3×
 * slower in scripts/bench-signin.mjs), at least 1, and never the whole libuv threadpool
 * (UV_THREADPOOL_SIZE, default 4), so fs and dns always have a thread left.
 */
export function defaultHashConcurrency(
  env: { cores: number; threadpool: number } = {
    cores: availableParallelism(),
    threadpool: Number(process.env.UV_THREADPOOL_SIZE) || 4,
  },
): number {
  return Math.max(1, Math.min(env.cores - 1, env.threadpool - 1));
}

/** A place in the hash queue, taken before the request does anything else (see HashQueue.tryEnter). */
export interface HashTicket {
  /** Runs `fn` when a hashing slot is free (once per ticket), then gives the place back. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Gives the place back without hashing (idempotent; run() does it itself). */
  release(): void;
}

/** Bounds concurrent password hashing (FIFO). One per process is the default (the threadpool is per process). */
export class HashQueue {
  readonly concurrency: number;
  readonly maxWaiting: number;
  /** Tickets given and not yet released (running, waiting, or about to wait). */
  #admitted = 0;
  #running = 0;
  readonly #waiters: (() => void)[] = [];

  constructor(options: Partial<HashQueueOptions> = {}) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? defaultHashConcurrency()));
    this.maxWaiting = Math.max(0, Math.floor(options.maxWaiting ?? 16));
  }

  /** Hashes running now. */
  get running(): number {
    return this.#running;
  }

  /** A place in line, or null when `concurrency + maxWaiting` places are taken (answer 503). */
  tryEnter(): HashTicket | null {
    if (this.#admitted >= this.concurrency + this.maxWaiting) return null;
    this.#admitted++;
    let released = false;
    let used = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#admitted--;
    };
    return {
      release,
      run: async <T>(fn: () => Promise<T>): Promise<T> => {
        if (used || released) throw new Error('HashTicket: run() once, before release().');
        used = true;
        try {
          return await this.run(fn);
        } finally {
          release();
        }
      },
    };
  }

  /** Runs `fn` in its turn; never refused (work of signed-in users: password change, rehash). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#running < this.concurrency) this.#running++;
    // the finishing job hands its slot over (#running unchanged)
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.#waiters.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/** The process's hash queue (createServer's default). */
export const sharedHashQueue = new HashQueue();
