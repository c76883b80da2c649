import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { registerAuthRoutes } from './auth-routes.js';
import { registerVerificationRoutes } from '../kit/documents/verification.js';
import { issueSessionToken } from './auth.js';
import type { AppEnv, PluginContext } from './context.js';
import {
  devtoolsBodySchema,
  healthResponseSchema,
  sessionResponseSchema,
  signinBodySchema,
  signinResponseSchema,
  switchEntidadeBodySchema,
  tokenResponseSchema,
  versionResponseSchema,
} from './core-schemas.js';
import { entidades, sessoes, usuarioEntidades, usuarios } from './db/schema.js';
import type { Db } from './db/types.js';
import { AppError, badRequest, databaseUnavailable } from './errors.js';
import { hashPassword, hashQueueFull, needsRehash, verifyPassword } from './passwords.js';
import { registerIndicadoresRoute } from '../kit/indicadores.js';
import { registerPendenciasRoute } from '../kit/pendencias.js';
import { createPluginRouter, errorResponseSchema } from './router.js';
import type { Runtime } from './runtime.js';
import {
  type ThrottleRule,
  accountKey,
  clearAttempts,
  countRefusal,
  ipKey,
  pruneAttempts,
  releaseAttempts,
  reserveAttempt,
  tooManyAttempts,
} from './throttle.js';

async function entidadesOf(db: Db, usuarioId: string): Promise<{ id: string; nome: string }[]> {
  return db
    .select({ id: entidades.id, nome: entidades.nome })
    .from(usuarioEntidades)
    .innerJoin(entidades, eq(entidades.id, usuarioEntidades.entidadeId))
    .where(eq(usuarioEntidades.usuarioId, usuarioId))
    .orderBy(asc(entidades.nome), asc(entidades.id));
}

const UUID_IN_PATH = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** server-core's own routes: auth, session, devtools report, health, version, OpenAPI document. */
export function registerCoreRoutes(app: OpenAPIHono<AppEnv>, pluginCtx: PluginContext, runtime: Runtime, openApiDocument: () => unknown): void {
  const router = createPluginRouter(app, pluginCtx, runtime);
  const { db } = runtime.database;

  router.route({
    method: 'post',
    path: '/api/auth/signin',
    public: true,
    summary: 'Entrar com login e senha',
    description: 'Cria uma sessão na entidade pedida (ou na última usada) e devolve o token de acesso (JWT HS256).',
    request: { body: signinBodySchema },
    responses: {
      200: signinResponseSchema,
      401: { description: 'Login ou senha inválidos', schema: errorResponseSchema },
      403: { description: 'Usuário sem entidade vinculada', schema: errorResponseSchema },
      429: {
        description: 'Muitas tentativas (5 falhas por conta ou 20 por endereço em 15 minutos); Retry-After em segundos',
        schema: errorResponseSchema,
      },
      503: { description: 'Muitas entradas em andamento (fila de verificação de senhas cheia); Retry-After em segundos', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const { login, senha, entidadeId } = c.req.valid('json');
      // A place in the hash queue first: when it is full, answer before any other work (issue 8).
      const ticket = runtime.hashQueue.tryEnter();
      if (!ticket) throw hashQueueFull();
      // rows reserved in login_attempts; kept when the attempt failed, deleted otherwise
      let reserved: number[] = [];
      let settled = false;
      try {
        const [user] = await db
          .select({ id: usuarios.id, senhaHash: usuarios.senhaHash, ativo: usuarios.ativo })
          .from(usuarios)
          .where(sql`lower(${usuarios.login}) = lower(${login})`)
          .limit(1);
        const { windowMs } = runtime.throttle;
        const account = accountKey(login);
        const rules: ThrottleRule[] = [{ key: account, max: runtime.throttle.accountMaxFailures, motivo: 'conta' }];
        if (ctx.ip) rules.push({ key: ipKey(ctx.ip), max: runtime.throttle.ipMaxFailures, motivo: 'ip' });
        const reservation = await reserveAttempt(db, rules, runtime.clock.now(), windowMs);
        if (reservation.block) {
          const { block } = reservation;
          ticket.release();
          // not counted in the window: the block ends by itself however often someone keeps trying;
          // counted in tentativas_entrada, audited the first time per (login, address, window)
          await ctx.mutate(async (tx, audit) => {
            const n = await countRefusal(tx, { login, ip: ctx.ip, usuarioId: user?.id ?? null, kind: 'bloqueio', now: runtime.clock.now(), windowMs });
            if (n === 1) {
              audit({
                acao: 'entrar_bloqueado',
                registro: user?.id ?? null,
                usuarioId: user?.id ?? null,
                depois: { login, limite: block.rule.motivo, retryAfter: block.retryAfterSeconds },
              });
            }
          });
          throw tooManyAttempts(block);
        }
        reserved = reservation.ids;
        // Always one scrypt verification (a dummy hash for an unknown login): same time either way.
        const passwordOk = await ticket.run(() => verifyPassword(senha, user?.senhaHash ?? null));
        if (!user || !passwordOk || !user.ativo) {
          settled = true; // the reserved rows are the counted failure
          await ctx.mutate(async (tx, audit) => {
            const now = runtime.clock.now();
            await pruneAttempts(tx, now, windowMs);
            const n = await countRefusal(tx, { login, ip: ctx.ip, usuarioId: user?.id ?? null, kind: 'falha', now, windowMs });
            if (n === 1) {
              audit({
                acao: 'entrar_falhou',
                registro: user?.id ?? null,
                usuarioId: user?.id ?? null,
                depois: { login, motivo: !user ? 'login_inexistente' : !passwordOk ? 'senha_incorreta' : 'usuario_inativo' },
              });
            }
          });
          throw new AppError(401, 'invalid_credentials', 'Login ou senha inválidos.');
        }
        const list = await entidadesOf(db, user.id);
        if (list.length === 0) {
          throw new AppError(403, 'sem_entidade', 'Seu usuário não está vinculado a nenhuma entidade. Procure o administrador.');
        }
        let chosen = entidadeId ? list.find((e) => e.id === entidadeId) : undefined;
        if (entidadeId && !chosen) {
          throw badRequest('Verifique os campos destacados.', { entidadeId: 'Você não tem acesso a esta entidade.' });
        }
        if (!chosen) {
          const [last] = await db
            .select({ entidadeId: sessoes.entidadeId })
            .from(sessoes)
            .where(eq(sessoes.usuarioId, user.id))
            .orderBy(desc(sessoes.createdAt))
            .limit(1);
          chosen = list.find((e) => e.id === last?.entidadeId) ?? list[0]!;
        }
        const entidade = chosen;
        // parameters are kept in each hash: a hash made with older ones is replaced now that the password is known
        const rehash = needsRehash(user.senhaHash) ? await runtime.hashQueue.run(() => hashPassword(senha)) : null;
        const now = new Date(runtime.clock.now());
        const sessionId = await ctx.mutate(async (tx, audit) => {
          await clearAttempts(tx, [account]);
          await releaseAttempts(tx, reserved);
          if (rehash) await tx.update(usuarios).set({ senhaHash: rehash }).where(eq(usuarios.id, user.id));
          const [session] = await tx
            .insert(sessoes)
            .values({
              usuarioId: user.id,
              entidadeId: entidade.id,
              createdAt: now,
              lastSeenAt: now,
              authenticatedAt: now,
              ip: ctx.ip,
              userAgent: c.req.header('user-agent')?.slice(0, 300) ?? null,
            })
            .returning({ id: sessoes.id });
          audit({ acao: 'entrar', registro: session!.id, usuarioId: user.id, entidadeId: entidade.id });
          return session!.id;
        });
        settled = true;
        const token = await issueSessionToken(runtime, { sub: user.id, ent: entidade.id, sid: sessionId }, now);
        return c.json({ token, entidades: list, entidadeId: entidade.id }, 200);
      } finally {
        ticket.release();
        // a right password (or an error before the verdict) gives the reserved attempt back
        if (!settled && reserved.length > 0) {
          await releaseAttempts(db, reserved).catch((err: unknown) => runtime.logger.error('sign-in: reserved attempt not released', err));
        }
      }
    },
  });

  router.route({
    method: 'post',
    path: '/api/auth/signout',
    tag: 0,
    summary: 'Sair (revoga a sessão do token)',
    responses: { 204: { description: 'Sessão encerrada' } },
    handler: async (c, ctx) => {
      await ctx.mutate(async (tx, audit) => {
        await tx
          .update(sessoes)
          .set({ revokedAt: new Date(runtime.clock.now()), revokedReason: 'sair' })
          .where(and(eq(sessoes.id, ctx.sessionId), isNull(sessoes.revokedAt)));
        audit({ acao: 'sair', registro: ctx.sessionId });
      });
      return c.body(null, 204);
    },
  });

  router.route({
    method: 'post',
    path: '/api/auth/entidade',
    tag: 0,
    summary: 'Trocar a entidade de trabalho',
    description: 'Encerra a sessão atual e abre outra na entidade pedida; devolve o novo token.',
    request: { body: switchEntidadeBodySchema },
    responses: { 200: tokenResponseSchema },
    handler: async (c, ctx) => {
      const { entidadeId } = c.req.valid('json');
      const list = await entidadesOf(db, ctx.user.id);
      if (!list.some((e) => e.id === entidadeId)) {
        throw badRequest('Verifique os campos destacados.', { entidadeId: 'Você não tem acesso a esta entidade.' });
      }
      // the new session inherits the sign-in time: switching never extends the absolute lifetime
      const authenticatedAt = c.get('auth')!.authenticatedAt;
      const now = new Date(runtime.clock.now());
      const sessionId = await ctx.mutate(async (tx, audit) => {
        await tx.update(sessoes).set({ revokedAt: now, revokedReason: 'trocar_entidade' }).where(eq(sessoes.id, ctx.sessionId));
        const [session] = await tx
          .insert(sessoes)
          .values({
            usuarioId: ctx.user.id,
            entidadeId,
            createdAt: now,
            lastSeenAt: now,
            authenticatedAt,
            ip: ctx.ip,
            userAgent: c.req.header('user-agent')?.slice(0, 300) ?? null,
          })
          .returning({ id: sessoes.id });
        audit({
          acao: 'trocar_entidade',
          registro: session!.id,
          antes: { entidadeId: ctx.entidadeId },
          depois: { entidadeId },
          entidadeId,
        });
        return session!.id;
      });
      const token = await issueSessionToken(runtime, { sub: ctx.user.id, ent: entidadeId, sid: sessionId }, authenticatedAt);
      return c.json({ token }, 200);
    },
  });

  registerAuthRoutes(router, runtime);
  registerVerificationRoutes(router, runtime);
  registerPendenciasRoute(router);
  registerIndicadoresRoute(router);

  router.route({
    method: 'get',
    path: '/api/session',
    tag: 0,
    summary: 'Sessão atual: usuário, entidade, tags e configuração',
    responses: { 200: sessionResponseSchema },
    handler: async (c, ctx) => {
      const [entidade] = await db
        .select({
          id: entidades.id,
          nome: entidades.nome,
          cnpj: entidades.cnpj,
          municipio: entidades.municipio,
          uf: entidades.uf,
          telefoneSuporte: entidades.telefoneSuporte,
        })
        .from(entidades)
        .where(eq(entidades.id, ctx.entidadeId));
      if (!entidade) throw new AppError(401, 'unauthorized', 'Sessão inválida. Entre novamente.');
      return c.json(
        {
          user: ctx.user,
          entidade,
          entidades: await entidadesOf(db, ctx.user.id),
          tags: [...ctx.tags],
          centrosCusto: [...ctx.centrosCusto],
          todosCentros: ctx.todosCentros,
          config: {
            appName: runtime.appName,
            supportPhone: entidade.telefoneSuporte ?? runtime.supportPhone,
            buildId: runtime.buildId,
            devtools: { policy: runtime.devtoolsPolicy },
          },
        },
        200,
      );
    },
  });

  router.route({
    method: 'post',
    path: '/api/devtools',
    tag: 0,
    summary: 'Registrar abertura/fechamento das ferramentas de desenvolvedor',
    request: { body: devtoolsBodySchema },
    responses: { 204: { description: 'Registrado' } },
    handler: async (c, ctx) => {
      const { open, route, pagina } = c.req.valid('json');
      // the Logs show the page as the person saw it, never a raw id: the title the web app sends,
      // else the address with its ids left out
      const onde = pagina?.trim() || route.replace(UUID_IN_PATH, '…');
      await ctx.mutate(async (_tx, audit) => {
        audit({ acao: open ? 'devtools_aberto' : 'devtools_fechado', registro: null, depois: { pagina: onde } });
      });
      return c.body(null, 204);
    },
  });

  router.route({
    method: 'get',
    path: '/api/health',
    public: true,
    summary: 'Saúde do serviço (consulta o banco de dados)',
    responses: { 200: healthResponseSchema, 503: { description: 'Banco de dados indisponível' } },
    handler: async (c) => {
      try {
        await db.execute(sql`SELECT 1`);
      } catch (err) {
        // the same 503 as any request while the database is down (database_unavailable, Retry-After);
        // one line, no stack: a load balancer probes this every few seconds during an outage
        runtime.logger.warn(`health check: database unavailable (${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message})`);
        throw databaseUnavailable();
      }
      return c.json({ status: 'ok' as const }, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/api/version',
    public: true,
    summary: 'Versão e build em execução',
    responses: { 200: versionResponseSchema },
    handler: (c) => c.json({ buildId: runtime.buildId, version: runtime.appVersion }, 200),
  });

  router.route({
    method: 'get',
    path: '/api/openapi.json',
    public: true,
    summary: 'Este documento OpenAPI',
    // revalidated, not re-sent: the ETag answers 304 while the document is the same
    handler: (c) => c.json(openApiDocument() as object, 200, { 'Cache-Control': 'no-cache' }),
  });
}
