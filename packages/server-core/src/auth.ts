import { getConnInfo } from '@hono/node-server/conninfo';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { sign, verify } from 'hono/jwt';
import { JwtTokenExpired } from 'hono/utils/jwt/types';
import { writeAudit } from './audit.js';
import type { AppEnv, AuthState } from './context.js';
import { perfis, sessoes, usuarioEntidades, usuarios } from './db/schema.js';
import { forbidden, unauthorized } from './errors.js';
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

export async function signAccessToken(
  secret: string,
  claims: { sub: string; ent: string; sid: string },
  ttlSeconds: number,
  now: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const payload: AccessTokenPayload = { sub: claims.sub, ent: claims.ent, sid: claims.sid, iat: now, exp: now + ttlSeconds };
  return sign({ ...payload }, secret, 'HS256');
}

/** Client address for the audit trail (X-Forwarded-For only when the proxy is trusted). */
export function clientIp(c: Context, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

const SEEN_EVERY_MS = 60_000;

/** Verifies the bearer token and its session (not revoked, user active, still a member of the entidade). */
export async function authenticate(c: Context, runtime: Runtime): Promise<AuthState> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized('Autenticação necessária. Entre para continuar.');
  let payload: Record<string, unknown>;
  try {
    payload = await verify(match[1]!, runtime.jwtSecret, 'HS256');
  } catch (err) {
    if (err instanceof JwtTokenExpired) throw unauthorized('Sua sessão expirou. Entre novamente.');
    throw unauthorized('Sessão inválida. Entre novamente.');
  }
  const { sub, ent, sid } = payload;
  if (typeof sub !== 'string' || typeof ent !== 'string' || typeof sid !== 'string' || ![sub, ent, sid].every((v) => UUID.test(v))) {
    throw unauthorized('Sessão inválida. Entre novamente.');
  }
  const { db } = runtime.database;
  const [row] = await db
    .select({
      revokedAt: sessoes.revokedAt,
      lastSeenAt: sessoes.lastSeenAt,
      id: usuarios.id,
      nome: usuarios.nome,
      login: usuarios.login,
      email: usuarios.email,
      ativo: usuarios.ativo,
      member: usuarioEntidades.perfilId,
      tags: perfis.tags,
    })
    .from(sessoes)
    .innerJoin(usuarios, eq(usuarios.id, sessoes.usuarioId))
    .leftJoin(
      usuarioEntidades,
      and(eq(usuarioEntidades.usuarioId, sessoes.usuarioId), eq(usuarioEntidades.entidadeId, sessoes.entidadeId)),
    )
    .leftJoin(perfis, eq(perfis.id, usuarioEntidades.perfilId))
    .where(and(eq(sessoes.id, sid), eq(sessoes.usuarioId, sub), eq(sessoes.entidadeId, ent)))
    .limit(1);
  if (!row || row.revokedAt) throw unauthorized('Sessão encerrada. Entre novamente.');
  if (!row.ativo || !row.member) throw unauthorized('Acesso não autorizado para este usuário. Entre novamente.');
  if (Date.now() - row.lastSeenAt.getTime() > SEEN_EVERY_MS) {
    await db
      .update(sessoes)
      .set({ lastSeenAt: sql`now()` })
      .where(and(eq(sessoes.id, sid), lt(sessoes.lastSeenAt, sql`now() - interval '1 minute'`)));
  }
  return {
    user: { id: row.id, nome: row.nome, login: row.login, email: row.email },
    entidadeId: ent,
    sessionId: sid,
    tags: [...(row.tags ?? [])].sort((a, b) => a - b),
  };
}

export function hasTag(auth: AuthState, tag: number): boolean {
  return isExemptTag(tag) || auth.tags.includes(tag);
}

/** 401 unless a valid bearer token of a live session is presented. */
export function requireAuth(runtime: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('auth', await authenticate(c, runtime));
    await next();
  };
}

/** 403 (audited) unless the user holds `tag` in the session's entidade. Runs after requireAuth. */
export function requireTag(runtime: Runtime, tag: number, pluginId: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = c.get('auth');
    if (!auth) throw unauthorized();
    if (!hasTag(auth, tag)) {
      await writeAudit(
        runtime.database.db,
        [{ acao: 'acesso_negado', registro: null, depois: { tag, metodo: c.req.method, caminho: c.req.path } }],
        { plugin: pluginId, usuarioId: auth.user.id, entidadeId: auth.entidadeId, ip: clientIp(c, runtime.trustProxy) },
      );
      throw forbidden();
    }
    await next();
  };
}
