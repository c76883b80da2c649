// The session check of every request served from memory (issue 23; README, "Sign-in, sessions,
// recovery"). authenticate() reads the session, its user, membership and perfil: one round trip per
// request, the largest part of the product's fixed cost. An instance keeps what it read for up to
// SESSION_CACHE_SECONDS (default 30) and forgets all of it whenever the database says, on the channel
// compras_sessoes (migrations/0016_sessoes_notify.sql), that any of those rows changed: a session
// revoked, a user deactivated, a membership or a perfil changed, on this instance or on another one.
// - On this instance a write resolves only after its notification was handled (Database.listen), so
//   the next request sees the change; another instance sees it a few ms after the commit.
// - While the notification connection is down, nothing is served from memory (it may have missed
//   one); the entries are dropped and the lookup runs on every request until it is back.
// - A read that started before a change is not kept (the generation moved on meanwhile).
// - Memory only answers "still valid": a session that looks idle or expired from memory is read again
//   from the database before it is refused (another instance may have seen its latest activity).
import type { Database, Listener } from './db/types.js';
import type { Logger } from './logger.js';

/** What the session lookup of authenticate() reads (auth.ts), as kept in memory. */
export interface SessionLookupRow {
  revokedAt: Date | null;
  lastSeenAt: Date;
  authenticatedAt: Date;
  id: string;
  nome: string;
  login: string;
  email: string;
  ativo: boolean;
  /** The membership's perfil (null: no longer a member of the entidade). */
  member: string | null;
  tags: number[] | null;
  todosCentros: boolean | null;
  centrosCusto: string[] | null;
}

/** The channel the triggers of migrations/0016 notify. */
export const SESSION_CACHE_CHANNEL = 'compras_sessoes';
/** Most sessions kept at once (then the oldest go). */
const MAX_ENTRIES = 10_000;

export class SessionCache<T> {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { value: T; at: number }>();
  #generation = 0;
  #active = false;

  constructor(ttlMs: number, now: () => number = () => performance.now()) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** Served from memory only while active (the notifications are being received). */
  get active(): boolean {
    return this.#active;
  }

  setActive(active: boolean): void {
    this.#active = active && this.#ttlMs > 0;
    this.clear();
  }

  /** Changes on every clear(): a read taken before it is not kept. */
  get generation(): number {
    return this.#generation;
  }

  get(key: string): T | undefined {
    if (!this.#active) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() - entry.at > this.#ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value`, read when the generation was `generation`, unless something changed since. */
  set(key: string, value: T, generation: number): void {
    if (!this.#active || generation !== this.#generation) return;
    if (this.#entries.size >= MAX_ENTRIES && !this.#entries.has(key)) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: this.#now() });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/** SESSION_CACHE_SECONDS (0 turns the cache off), else 30. */
export function sessionCacheTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SESSION_CACHE_SECONDS?.trim();
  if (!raw) return 30_000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 300) {
    throw new Error(`SESSION_CACHE_SECONDS must be a number of seconds from 0 to 300 (got '${raw}').`);
  }
  return Math.round(seconds * 1000);
}

/**
 * A cache whose entries live while `database` notifies changes of sessions on SESSION_CACHE_CHANNEL;
 * inactive (every request reads the database) when the engine cannot listen or the TTL is 0.
 */
export async function startSessionCache<T>(database: Database, ttlMs: number, logger: Logger): Promise<{ cache: SessionCache<T>; close(): Promise<void> }> {
  const cache = new SessionCache<T>(ttlMs);
  let listener: Listener | undefined;
  if (ttlMs > 0 && database.listen) {
    listener = await database.listen(
      SESSION_CACHE_CHANNEL,
      () => cache.clear(),
      (connected) => {
        cache.setActive(connected);
        if (!connected) logger.warn('session cache: the notification connection is down; every request reads its session from the database until it is back');
      },
    );
    cache.setActive(listener.connected);
  }
  return {
    cache,
    close: async () => {
      cache.setActive(false);
      await listener?.close();
    },
  };
}
