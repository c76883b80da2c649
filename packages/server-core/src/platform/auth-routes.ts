// Password recovery, password change, token refresh and the e-mail outbox.
import { createHash, randomBytes } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { and, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { issueSessionToken, revokeUserSessions } from './auth.js';
import type { PublicRequestContext, RequestContext } from './context.js';
import {
  changePasswordBodySchema,
  outboxMessageSchema,
  recoverBodySchema,
  recoverResponseSchema,
  resetBodySchema,
  tokenResponseSchema,
} from './core-schemas.js';
import { passwordResets, usuarios } from './db/schema.js';
import { AppError } from './errors.js';
import { type MailMessage, listOutbox, readOutboxAttachment } from './mail.js';
import { attachmentResponseHeaders } from '../formats/file-type.js';
import { pageOf, pageQuerySchema } from '../kit/pagination.js';
import { novaSenhaProblem } from './password-policy.js';
import { type HashTicket, hashPassword, hashQueueFull, verifyPassword } from './passwords.js';
import { type PluginRouter, errorResponseSchema } from './router.js';
import type { Runtime } from './runtime.js';
import { accountKey, clearAttempts, pruneAttempts, releaseAttempts, recoverIpKey, reserveAttempt, tooManyAttempts } from './throttle.js';

/** The one answer of /api/auth/recover, whether or not the account exists. */
export const RECOVER_MESSAGE = 'Se houver uma conta com esse login ou e-mail, enviaremos as instruções para criar uma nova senha.';
export const INVALID_RECOVERY_LINK_MESSAGE = 'Link de recuperação inválido ou expirado.';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Senha atual incorreta.';
export const SAME_PASSWORD_MESSAGE = 'A nova senha deve ser diferente da atual.';
/** Recovery links are valid this long. */
export const RECOVERY_LINK_TTL_MS = 30 * 60_000;
/** At most this many links per account per throttle window (more requests are answered the same, silently). */
export const RECOVERY_LINKS_PER_WINDOW = 3;
/** Permission tag of GET /api/auth/outbox (administration). */
export const OUTBOX_TAG = 3;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const invalidLink = () => new AppError(400, 'invalid_recovery_link', INVALID_RECOVERY_LINK_MESSAGE);
const fieldError = (field: string, message: string) => new AppError(400, 'validation_error', 'Verifique os campos destacados.', { [field]: message });

function recoveryMessage(runtime: Runtime, user: { id: string; nome: string; login: string; email: string }, link: string): MailMessage {
  return {
    to: user.email,
    usuarioId: user.id,
    subject: `${runtime.appName}: criar nova senha`,
    text: [
      `Olá, ${user.nome}.`,
      '',
      `Recebemos um pedido para criar uma nova senha para o login "${user.login}" no ${runtime.appName}.`,
      'Para criar a nova senha, abra o link abaixo em até 30 minutos:',
      '',
      link,
      '',
      'O link só pode ser usado uma vez. Se você não fez este pedido, ignore esta mensagem: sua senha atual continua valendo.',
    ].join('\n'),
  };
}

/** Outbox: written now. SMTP: sent in the background (its time never shows in the answer); on failure kept in the outbox. */
async function deliver(runtime: Runtime, message: MailMessage): Promise<void> {
  if (runtime.mailer.kind === 'outbox') {
    await runtime.mailer.send(message);
    return;
  }
  runtime.background(
    Promise.resolve()
      .then(() => runtime.mailer.send(message))
      .catch(async (err: unknown) => {
        runtime.logger.error(`e-mail to ${message.to} could not be sent; kept in the outbox`, err);
        await runtime.outbox.send(message).catch((e: unknown) => runtime.logger.error('outbox write failed', e));
      }),
  );
}

async function waitUntil(startedAt: number, minMs: number): Promise<void> {
  const left = minMs - (performance.now() - startedAt);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

async function requestRecovery(ctx: PublicRequestContext, runtime: Runtime, login: string): Promise<void> {
  const { db } = runtime.database;
  const candidates = await db
    .select({ id: usuarios.id, nome: usuarios.nome, login: usuarios.login, email: usuarios.email })
    .from(usuarios)
    .where(and(eq(usuarios.ativo, true), or(sql`lower(${usuarios.login}) = lower(${login})`, sql`lower(${usuarios.email}) = lower(${login})`)))
    .limit(10);
  // a login names one account; an e-mail may be shared by several: each gets its own link
  const byLogin = candidates.find((u) => u.login.toLowerCase() === login.toLowerCase());
  const users = byLogin ? [byLogin] : candidates;
  if (users.length === 0) {
    await ctx.mutate(async (_tx, audit) => {
      audit({ acao: 'recuperar_senha', registro: null, depois: { login, conta: 'inexistente' } });
    });
    return;
  }
  // PUBLIC_URL or http://localhost:<PORT>, never the request's Host / X-Forwarded-Host (issue 8)
  const base = runtime.publicUrl;
  for (const user of users) {
    const now = runtime.clock.now();
    const [recent] = await db
      .select({ n: count() })
      .from(passwordResets)
      .where(and(eq(passwordResets.usuarioId, user.id), gt(passwordResets.createdAt, new Date(now - runtime.throttle.windowMs))));
    if (Number(recent?.n ?? 0) >= RECOVERY_LINKS_PER_WINDOW) {
      await ctx.mutate(async (_tx, audit) => {
        audit({ acao: 'recuperar_senha', registro: user.id, usuarioId: user.id, depois: { login, enviado: false, motivo: 'limite_de_links' } });
      });
      continue;
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now + RECOVERY_LINK_TTL_MS);
    await ctx.mutate(async (tx, audit) => {
      await tx.insert(passwordResets).values({
        usuarioId: user.id,
        tokenHash: sha256(token),
        createdAt: new Date(now),
        expiresAt,
        ip: ctx.ip,
      });
      audit({ acao: 'recuperar_senha', registro: user.id, usuarioId: user.id, depois: { login, enviado: true, expiraEm: expiresAt } });
    });
    await deliver(runtime, recoveryMessage(runtime, user, `${base}/recoveryPass?token=${token}`));
  }
}

export function registerAuthRoutes(router: PluginRouter, runtime: Runtime): void {
  const { db } = runtime.database;
  const { windowMs } = runtime.throttle;

  router.route({
    method: 'post',
    path: '/api/auth/recover',
    public: true,
    summary: 'Pedir um link para criar nova senha',
    description:
      'Aceita o login ou o e-mail. Responde sempre 202 com a mesma mensagem, exista ou não a conta, e no mesmo tempo. ' +
      'O link (uso único, válido por 30 minutos) vai por e-mail (SMTP) ou, sem SMTP, para a caixa de saída (tela Usuários → Caixa de saída, GET /api/auth/outbox).',
    request: { body: recoverBodySchema },
    responses: {
      202: { description: 'Pedido recebido', schema: recoverResponseSchema },
      429: { description: 'Muitos pedidos deste endereço; Retry-After em segundos', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const startedAt = performance.now();
      try {
        const { login } = c.req.valid('json');
        if (ctx.ip) {
          const now = runtime.clock.now();
          const rule = { key: recoverIpKey(ctx.ip), max: runtime.throttle.recoverMaxPerIp, motivo: 'ip' as const };
          // check and count in one step (concurrent requests cannot all pass the check)
          const { block } = await reserveAttempt(db, [rule], now, windowMs);
          if (block) {
            await ctx.mutate(async (_tx, audit) => {
              audit({ acao: 'recuperar_senha_bloqueado', registro: null, depois: { login, retryAfter: block.retryAfterSeconds } });
            });
            throw tooManyAttempts(block);
          }
          await pruneAttempts(db, now, windowMs);
        }
        await requestRecovery(ctx, runtime, login);
        return c.json({ message: RECOVER_MESSAGE }, 202);
      } finally {
        await waitUntil(startedAt, runtime.recoverMinDurationMs);
      }
    },
  });

  router.route({
    method: 'post',
    path: '/api/auth/reset',
    public: true,
    summary: 'Criar nova senha com o link de recuperação',
    description:
      'Define a nova senha, inutiliza o link (e os outros links pendentes do usuário) e encerra todas as sessões do usuário. ' +
      `Link desconhecido, usado ou vencido: 400 invalid_recovery_link ('${INVALID_RECOVERY_LINK_MESSAGE}').`,
    request: { body: resetBodySchema },
    responses: {
      204: { description: 'Senha alterada; entre com a nova senha' },
      400: { description: 'Link inválido ou vencido, ou senha fora da política (fields.senha)', schema: errorResponseSchema },
      503: { description: 'Muitas entradas em andamento (fila de verificação de senhas cheia); Retry-After em segundos', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const { token, senha } = c.req.valid('json');
      // a place in the hash queue before anything else (the link is not spent by a 503)
      const ticket = runtime.hashQueue.tryEnter();
      if (!ticket) throw hashQueueFull();
      try {
        return await resetPassword(c, ctx, token, senha, ticket);
      } finally {
        ticket.release();
      }
    },
  });

  async function resetPassword(c: Context, ctx: PublicRequestContext, token: string, senha: string, ticket: HashTicket) {
    const [row] = await db
      .select({
        id: passwordResets.id,
        usuarioId: passwordResets.usuarioId,
        expiresAt: passwordResets.expiresAt,
        usedAt: passwordResets.usedAt,
        login: usuarios.login,
        ativo: usuarios.ativo,
      })
      .from(passwordResets)
      .innerJoin(usuarios, eq(usuarios.id, passwordResets.usuarioId))
      .where(eq(passwordResets.tokenHash, sha256(token)))
      .limit(1);
    const now = runtime.clock.now();
    const problem = !row ? 'desconhecido' : row.usedAt ? 'usado' : row.expiresAt.getTime() <= now ? 'vencido' : !row.ativo ? 'usuario_inativo' : null;
    if (!row || problem) {
      await ctx.mutate(async (_tx, audit) => {
        audit({ acao: 'senha_redefinicao_falhou', registro: row?.usuarioId ?? null, usuarioId: row?.usuarioId ?? null, depois: { motivo: problem } });
      });
      throw invalidLink();
    }
    const policy = novaSenhaProblem(senha, row.login);
    if (policy) throw fieldError('senha', policy);
    const senhaHash = await ticket.run(() => hashPassword(senha));
    await ctx.mutate(async (tx, audit) => {
      const at = new Date(runtime.clock.now());
      // single use even when two requests race: only one UPDATE finds used_at still null
      const used = await tx
        .update(passwordResets)
        .set({ usedAt: at })
        .where(and(eq(passwordResets.id, row.id), isNull(passwordResets.usedAt)))
        .returning({ id: passwordResets.id });
      if (used.length === 0) throw invalidLink();
      await tx.update(usuarios).set({ senhaHash }).where(eq(usuarios.id, row.usuarioId));
      await tx
        .update(passwordResets)
        .set({ usedAt: at })
        .where(and(eq(passwordResets.usuarioId, row.usuarioId), isNull(passwordResets.usedAt)));
      const revoked = await revokeUserSessions(tx, row.usuarioId, 'senha_redefinida', { at });
      await clearAttempts(tx, [accountKey(row.login)]);
      audit({
        acao: 'senha_redefinida',
        registro: row.usuarioId,
        usuarioId: row.usuarioId,
        depois: { sessoesEncerradas: revoked },
      });
    });
    return c.body(null, 204);
  }

  router.route({
    method: 'post',
    path: '/api/auth/password',
    tag: 0,
    summary: 'Trocar a própria senha',
    description:
      'Confere a senha atual (falhas contam no limite de tentativas da conta), aplica a política de senhas e encerra as outras sessões do usuário (a atual continua).',
    request: { body: changePasswordBodySchema },
    responses: {
      204: { description: 'Senha alterada' },
      400: { description: 'Senha atual incorreta (fields.senhaAtual) ou nova senha fora da política (fields.novaSenha)', schema: errorResponseSchema },
      429: { description: 'Muitas tentativas; Retry-After em segundos', schema: errorResponseSchema },
    },
    handler: async (c, ctx: RequestContext) => {
      const { senhaAtual, novaSenha } = c.req.valid('json');
      const account = accountKey(ctx.user.login);
      const reservation = await reserveAttempt(
        db,
        [{ key: account, max: runtime.throttle.accountMaxFailures, motivo: 'conta' }],
        runtime.clock.now(),
        windowMs,
      );
      const { block } = reservation;
      if (block) {
        await ctx.mutate(async (_tx, audit) => {
          audit({ acao: 'senha_alteracao_bloqueada', registro: ctx.user.id, depois: { retryAfter: block.retryAfterSeconds } });
        });
        throw tooManyAttempts(block);
      }
      const [user] = await db.select({ senhaHash: usuarios.senhaHash }).from(usuarios).where(eq(usuarios.id, ctx.user.id));
      if (!(await runtime.hashQueue.run(() => verifyPassword(senhaAtual, user?.senhaHash ?? null)))) {
        // the reserved attempt stays: it is the counted failure
        await ctx.mutate(async (tx, audit) => {
          await pruneAttempts(tx, runtime.clock.now(), windowMs);
          audit({ acao: 'senha_alteracao_falhou', registro: ctx.user.id, depois: { motivo: 'senha_atual_incorreta' } });
        });
        throw fieldError('senhaAtual', WRONG_CURRENT_PASSWORD_MESSAGE);
      }
      // the right current password gives the reserved attempt back
      await releaseAttempts(db, reservation.ids ?? []);
      const policy = novaSenhaProblem(novaSenha, ctx.user.login) ?? (novaSenha === senhaAtual ? SAME_PASSWORD_MESSAGE : null);
      if (policy) throw fieldError('novaSenha', policy);
      const senhaHash = await runtime.hashQueue.run(() => hashPassword(novaSenha));
      await ctx.mutate(async (tx, audit) => {
        const at = new Date(runtime.clock.now());
        await tx.update(usuarios).set({ senhaHash }).where(eq(usuarios.id, ctx.user.id));
        const revoked = await revokeUserSessions(tx, ctx.user.id, 'senha_alterada', { at, except: ctx.sessionId });
        // pending recovery links would let someone set the password again
        await tx
          .update(passwordResets)
          .set({ usedAt: at })
          .where(and(eq(passwordResets.usuarioId, ctx.user.id), isNull(passwordResets.usedAt)));
        await clearAttempts(tx, [account]);
        audit({ acao: 'senha_alterada', registro: ctx.user.id, depois: { sessoesEncerradas: revoked } });
      });
      return c.body(null, 204);
    },
  });

  router.route({
    method: 'post',
    path: '/api/auth/refresh',
    tag: 0,
    // refreshing is not user activity: the session's idle timeout keeps counting
    activity: false,
    summary: 'Renovar o token de acesso da sessão atual',
    description:
      'Novo token (mesma sessão) válido por TOKEN_TTL_SECONDS, nunca além do fim absoluto da sessão (SESSION_ABSOLUTE_HOURS após a entrada com senha). ' +
      'Não conta como atividade: o tempo de inatividade (SESSION_IDLE_MINUTES) continua correndo.',
    responses: { 200: tokenResponseSchema },
    handler: async (c, ctx) => {
      const auth = c.get('auth')!;
      const token = await issueSessionToken(runtime, { sub: ctx.user.id, ent: ctx.entidadeId, sid: ctx.sessionId }, auth.authenticatedAt);
      return c.json({ token }, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/api/auth/outbox',
    tag: OUTBOX_TAG,
    summary: 'Caixa de saída: e-mails guardados em vez de enviados',
    description:
      'Mensagens gravadas quando não há SMTP configurado (ou o envio falhou), mais novas primeiro. A consulta é auditada. ' +
      'Mostra as mensagens para usuários da entidade atual que só pertencem a entidades que você administra (tag 3 em cada uma) e as para você mesmo; ' +
      'as de um usuário que também pertence a uma entidade que você não administra (links de recuperação, por exemplo) não aparecem. ' +
      'Mensagens que não são para um usuário só aparecem para quem administra todas as entidades (e no comando `compras-server outbox`).',
    request: { query: pageQuerySchema },
    responses: { 200: pageOf(outboxMessageSchema) },
    handler: async (c, ctx) => {
      const { page, pageSize, q } = c.req.valid('query');
      const reader = { usuarioId: ctx.user.id, adminTag: OUTBOX_TAG };
      const result = await listOutbox(db, { page, pageSize, q, entidadeId: ctx.entidadeId, reader });
      await ctx.mutate(async (_tx, audit) => {
        audit({ acao: 'caixa_saida_consultada', registro: null, depois: { page, pageSize, q: q ?? null, mensagens: result.items.length } });
      });
      return c.json(result, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/api/auth/outbox/:id/anexos/:ordem',
    tag: OUTBOX_TAG,
    summary: 'Caixa de saída: baixar um arquivo anexado a uma mensagem',
    description:
      'O arquivo `ordem` (1, 2, …, como listado em `anexos`) da mensagem `id`, sempre como download (`nosniff`). ' +
      'Só das mensagens que GET /api/auth/outbox mostra a você (404 nas outras). A consulta é auditada.',
    request: { params: z.object({ id: z.string(), ordem: z.string() }) },
    responses: {
      200: { description: 'O arquivo', file: 'application/octet-stream' },
      404: { description: 'Mensagem ou arquivo não encontrado', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const { id, ordem } = c.req.valid('param');
      const reader = { usuarioId: ctx.user.id, adminTag: OUTBOX_TAG };
      const file = /^\d{1,3}$/.test(ordem) ? await readOutboxAttachment(db, id, Number(ordem), { entidadeId: ctx.entidadeId, reader }) : null;
      if (!file) throw new AppError(404, 'not_found', 'Arquivo não encontrado na caixa de saída.');
      await ctx.mutate(async (_tx, audit) => {
        audit({ acao: 'caixa_saida_consultada', registro: null, depois: { mensagem: id, anexo: file.nome, tamanho: file.tamanho } });
      });
      return new Response(file.conteudo as Uint8Array<ArrayBuffer>, { status: 200, headers: attachmentResponseHeaders(file) });
    },
  });
}
