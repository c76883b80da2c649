import { getConnInfo } from '@hono/node-server/conninfo';
import { and, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { sign, verify } from 'hono/jwt';
import { writeAudit } from './audit.js';
import type { AppEnv, AuthState } from './context.js';
import { perfis, sessoes, usuarioEntidades, usuarios } from './db/schema.js';
import type { Db, DbOrTx } from './db/types.js';
import { forbidden, unauthorized } from './errors.js';
import type { SessionLookupRow } from './session-cache.js';
import type { Runtime } from './runtime.js';
import { isExemptTag } from './version.js';

/** JWT payload (HS256): ids as strings, `exp` and `iat` in seconds. */
export interface AccessTokenPayload {
  sub: string;
  ent: string;
  sid: string;
  iat: number;
  exp: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `now` and `notAfter` in seconds; `exp` is now + ttl, but never after `notAfter`. */
// The HMAC key of a JWT secret, imported into WebCrypto once (not on every sign and verification:
// ~60 µs each). A handful of secrets live in a process (one per runtime; tests make many): the
// cache is emptied when it grows past a few.
const hmacKeys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= 16) hmacKeys.clear();
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    hmacKeys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  secret: string,
  claims: { sub: string; ent: string; sid: string },
  ttlSeconds: number,
  now: number = Math.floor(Date.now() / 1000),
  notAfter?: number,
): Promise<string> {
  const exp = notAfter === undefined ? now + ttlSeconds : Math.min(now + ttlSeconds, notAfter);
  const payload: AccessTokenPayload = { sub: claims.sub, ent: claims.ent, sid: claims.sid, iat: now, exp };
  return sign({ ...payload }, await hmacKey(secret), 'HS256');
}

/** A token for session `sid`, valid for the configured TTL and never past the session's absolute end. */
export function issueSessionToken(runtime: Runtime, claims: { sub: string; ent: string; sid: string }, authenticatedAt: Date): Promise<string> {
  const now = runtime.clock.now();
  const absoluteEnd = Math.floor((authenticatedAt.getTime() + runtime.sessionAbsoluteMs) / 1000);
  return signAccessToken(runtime.jwtSecret, claims, runtime.tokenTtlSeconds, Math.floor(now / 1000), absoluteEnd);
}

/**
 * Client address for the audit trail and sign-in throttling. Behind a trusted proxy (TRUST_PROXY=1)
 * it is the LAST X-Forwarded-For entry, the one that proxy appended: earlier entries come from the
 * client and could be forged to dodge the per-address limits.
 */
export function clientIp(c: Context, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/** last_seen_at is written at most once a minute per session. */
const SEEN_EVERY_MS = 60_000;
/** Tolerated clock difference between instances for `iat`. */
const CLOCK_SKEW_SECONDS = 60;

export const SESSION_EXPIRED_MESSAGE = 'Sessão expirada. Entre novamente.';

export interface AuthenticateOptions {
  /** Count the request as user activity (refreshes last_seen_at). Default true. */
  activity?: boolean;
}

// The session lookup of every authenticated request, built once per database as a prepared
// statement (drizzle no longer rebuilds its SQL per request; PostgreSQL plans it once per connection).
const sessionLookups = new WeakMap<object, ReturnType<typeof prepareSessionLookup>>();
function prepareSessionLookup(db: Db) {
  return db
    .select({
      revokedAt: sessoes.revokedAt,
      lastSeenAt: sessoes.lastSeenAt,
      authenticatedAt: sessoes.authenticatedAt,
      id: usuarios.id,
      nome: usuarios.nome,
      login: usuarios.login,
      email: usuarios.email,
      ativo: usuarios.ativo,
      member: usuarioEntidades.perfilId,
      tags: perfis.tags,
      todosCentros: perfis.todosCentros,
      centrosCusto: usuarioEntidades.centrosCusto,
    })
    .from(sessoes)
    .innerJoin(usuarios, eq(usuarios.id, sessoes.usuarioId))
    .leftJoin(usuarioEntidades, and(eq(usuarioEntidades.usuarioId, sessoes.usuarioId), eq(usuarioEntidades.entidadeId, sessoes.entidadeId)))
    .leftJoin(perfis, eq(perfis.id, usuarioEntidades.perfilId))
    .where(and(eq(sessoes.id, sql.placeholder('sid')), eq(sessoes.usuarioId, sql.placeholder('sub')), eq(sessoes.entidadeId, sql.placeholder('ent'))))
    .limit(1)
    .prepare('compras_session_lookup');
}

/** The session of (sid, sub, ent): from the cache when it has it and `fresh` is not asked, else the database. */
async function lookupSession(runtime: Runtime, sid: string, sub: string, ent: string, fresh: boolean): Promise<SessionLookupRow | undefined> {
  const { db } = runtime.database;
  const cache = runtime.sessionCache;
  const key = `${sid}|${sub}|${ent}`;
  if (cache && !fresh) {
    const kept = cache.get(key);
    if (kept) return kept;
  }
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const generation = cache?.generation ?? 0;
  const [row] = await lookup.execute({ sid, sub, ent });
  // only a session that passes is kept: a refused one is read again next time
  if (cache) {
    if (row && !row.revokedAt && row.ativo && row.member) cache.set(key, row, generation);
    else cache.delete(key);
  }
  return row;
}

/**
 * Verifies the bearer token (HS256, `exp` against the runtime clock) and its session: not revoked,
 * used within SESSION_IDLE_MINUTES, younger than SESSION_ABSOLUTE_HOURS since the password sign-in,
 * user active and still a member of the entidade.
 */
export async function authenticate(c: Context, runtime: Runtime, options: AuthenticateOptions = {}): Promise<AuthState> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized('Autenticação necessária. Entre para continuar.');
  let payload: Record<string, unknown>;
  try {
    // exp/iat/nbf are checked below against the runtime clock
    payload = await verify(match[1]!, await hmacKey(runtime.jwtSecret), { alg: 'HS256', exp: false, iat: false, nbf: false });
  } catch {
    throw unauthorized('Sessão inválida. Entre novamente.');
  }
  const now = runtime.clock.now();
  const nowSeconds = Math.floor(now / 1000);
  const { sub, ent, sid, exp, iat } = payload;
  if (typeof exp !== 'number' || (iat !== undefined && (typeof iat !== 'number' || iat > nowSeconds + CLOCK_SKEW_SECONDS))) {
    throw unauthorized('Sessão inválida. Entre novamente.');
  }
  if (exp <= nowSeconds) throw unauthorized('Sua sessão expirou. Entre novamente.');
  if (typeof sub !== 'string' || typeof ent !== 'string' || typeof sid !== 'string' || ![sub, ent, sid].every((v) => UUID.test(v))) {
    throw unauthorized('Sessão inválida. Entre novamente.');
  }
  const { db } = runtime.database;
  let row = await lookupSession(runtime, sid, sub, ent, false);
  const expired = (r: SessionLookupRow) =>
    now - r.lastSeenAt.getTime() > runtime.sessionIdleMs || now >= r.authenticatedAt.getTime() + runtime.sessionAbsoluteMs;
  // memory only says "still valid": idle by what this instance saw is read again (another instance may
  // have seen its latest activity)
  if (row && runtime.sessionCache?.active && expired(row)) row = await lookupSession(runtime, sid, sub, ent, true);
  if (!row || row.revokedAt) throw unauthorized('Sessão encerrada. Entre novamente.');
  if (!row.ativo || !row.member) throw unauthorized('Acesso não autorizado para este usuário. Entre novamente.');
  if (expired(row)) throw unauthorized(SESSION_EXPIRED_MESSAGE);
  const lastSeen = row.lastSeenAt.getTime();
  if (options.activity !== false && now - lastSeen >= SEEN_EVERY_MS) {
    await db
      .update(sessoes)
      .set({ lastSeenAt: new Date(now) })
      .where(and(eq(sessoes.id, sid), lt(sessoes.lastSeenAt, new Date(now - SEEN_EVERY_MS + 1))));
    // the kept row (if any) follows: the next minute of requests does not write again
    row.lastSeenAt = new Date(now);
  }
  return {
    user: { id: row.id, nome: row.nome, login: row.login, email: row.email },
    entidadeId: ent,
    sessionId: sid,
    tags: [...(row.tags ?? [])].sort((a, b) => a - b),
    authenticatedAt: row.authenticatedAt,
    centrosCusto: [...new Set(row.centrosCusto ?? [])].sort(),
    todosCentros: row.todosCentros === true,
  };
}

export function hasTag(auth: AuthState, tag: number): boolean {
  return isExemptTag(tag) || auth.tags.includes(tag);
}

/** 401 unless a valid bearer token of a live session is presented. */
export function requireAuth(runtime: Runtime, options: AuthenticateOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('auth', await authenticate(c, runtime, options));
    await next();
  };
}

/**
 * 403 (audited) unless the user holds `tag` in the session's entidade, or the tag `alsoTag()` answers
 * (a read route also opened to the controle interno). Runs after requireAuth.
 */
export function requireTag(runtime: Runtime, tag: number, pluginId: string, alsoTag?: () => number | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = c.get('auth');
    if (!auth) throw unauthorized();
    const also = alsoTag?.();
    if (!hasTag(auth, tag) && (also === undefined || !auth.tags.includes(also))) {
      await writeAudit(runtime.database.db, [{ acao: 'acesso_negado', registro: null, depois: { tag, metodo: c.req.method, caminho: c.req.path } }], {
        plugin: pluginId,
        usuarioId: auth.user.id,
        entidadeId: auth.entidadeId,
        ip: clientIp(c, runtime.trustProxy),
      });
      throw forbidden();
    }
    await next();
  };
}

/**
 * Ends every live session of a user (except `except`, e.g. the caller's own): for a password
 * change or reset, or when an administrator deactivates the user or sets a new password.
 * Returns how many sessions ended. Run it inside the same transaction as the change.
 */
export async function revokeUserSessions(
  tx: DbOrTx,
  usuarioId: string,
  reason: string,
  options: { except?: string | undefined; at?: Date | undefined } = {},
): Promise<number> {
  const conditions = [eq(sessoes.usuarioId, usuarioId), isNull(sessoes.revokedAt)];
  if (options.except) conditions.push(ne(sessoes.id, options.except));
  const revoked = await tx
    .update(sessoes)
    .set({ revokedAt: options.at ?? new Date(), revokedReason: reason })
    .where(and(...conditions))
    .returning({ id: sessoes.id });
  return revoked.length;
}
