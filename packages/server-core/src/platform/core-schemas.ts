import { z } from '@hono/zod-openapi';
import { SENHA_MESSAGES, novaSenhaProblem } from './password-policy.js';

/** Zod schemas of server-core's own API (request bodies and answers). */
export const signinBodySchema = z
  .object({
    login: z.string().trim().min(1, 'Informe o login.').max(100, 'Login longo demais.'),
    senha: z.string().min(1, 'Informe a senha.').max(1024, 'Senha longa demais.'),
    entidadeId: z.uuid('Entidade inválida.').optional(),
  })
  .openapi('SigninBody');

export const entidadeRefSchema = z.object({ id: z.string(), nome: z.string() }).openapi('EntidadeRef');

export const signinResponseSchema = z
  .object({
    token: z.string(),
    entidades: z.array(entidadeRefSchema),
    /** The entidade of this token: the one asked for, else the last one used, else the first by name. */
    entidadeId: z.string(),
  })
  .openapi('SigninResponse');

export const switchEntidadeBodySchema = z.object({ entidadeId: z.uuid('Entidade inválida.') }).openapi('SwitchEntidadeBody');

export const tokenResponseSchema = z.object({ token: z.string() }).openapi('TokenResponse');

export const sessionResponseSchema = z
  .object({
    user: z.object({ id: z.string(), nome: z.string(), login: z.string(), email: z.string() }),
    entidade: z.object({
      id: z.string(),
      nome: z.string(),
      cnpj: z.string(),
      municipio: z.string().nullable(),
      uf: z.string().nullable(),
      telefoneSuporte: z.string().nullable(),
    }),
    entidades: z.array(entidadeRefSchema),
    tags: z.array(z.number().int()),
    /** Centros de custo (ids of registros_centros_custo) of the user in this entidade: the default origin of a new document. */
    centrosCusto: z.array(z.string()),
    /** The user's perfil sees the documents of every centro de custo. */
    todosCentros: z.boolean(),
    config: z.object({
      appName: z.string(),
      supportPhone: z.string(),
      buildId: z.string(),
      devtools: z.object({ policy: z.enum(['report', 'ignore']) }),
    }),
  })
  .openapi('Session');

export const devtoolsBodySchema = z
  .object({
    open: z.boolean(),
    route: z.string().max(500, 'Rota longa demais.'),
    /** The page's title as the person saw it ('Produto Papel sulfite A4'): what the Logs show. */
    pagina: z.string().max(200, 'Título de página longo demais.').optional(),
  })
  .openapi('DevtoolsBody');

export const healthResponseSchema = z.object({ status: z.literal('ok') }).openapi('Health');

export const versionResponseSchema = z.object({ buildId: z.string(), version: z.string() }).openapi('Version');

/**
 * A new password (OWASP ASVS L2): 8 to 128 characters, any characters, no composition rules, not in
 * the common-password list. Equality with the login needs the login: check it with
 * `novaSenhaProblem(senha, login)` where the user is known (the routes below do).
 */
export const novaSenhaSchema = z
  .string({ error: SENHA_MESSAGES.obrigatoria })
  .superRefine((senha, ctx) => {
    const problem = novaSenhaProblem(senha);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({ description: '8 a 128 caracteres (recomendado 15 ou mais); não pode ser uma senha comum nem o login.' });

export const recoverBodySchema = z
  .object({ login: z.string({ error: 'Informe o login ou e-mail.' }).trim().min(1, 'Informe o login ou e-mail.').max(200, 'Login ou e-mail longo demais.') })
  .openapi('RecoverBody');

export const recoverResponseSchema = z.object({ message: z.string() }).openapi('RecoverResponse');

export const resetBodySchema = z
  .object({
    token: z
      .string({ error: 'Link de recuperação inválido ou expirado.' })
      .min(1, 'Link de recuperação inválido ou expirado.')
      .max(200, 'Link de recuperação inválido ou expirado.'),
    senha: novaSenhaSchema,
  })
  .openapi('ResetBody');

export const changePasswordBodySchema = z
  .object({
    senhaAtual: z.string({ error: 'Informe a senha atual.' }).min(1, 'Informe a senha atual.').max(1024, 'Senha longa demais.'),
    novaSenha: novaSenhaSchema,
  })
  .openapi('ChangePasswordBody');

export const outboxAttachmentSchema = z
  .object({
    ordem: z.number().int().openapi({ description: 'Posição do arquivo na mensagem (1, 2, …): GET /api/auth/outbox/{id}/anexos/{ordem} o baixa.' }),
    nome: z.string(),
    tipo: z.string().openapi({ description: 'Tipo de mídia (application/pdf…)' }),
    tamanho: z.number().int().openapi({ description: 'Bytes' }),
  })
  .openapi('OutboxAttachment');

export const outboxMessageSchema = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), body: z.string(), createdAt: z.string(), anexos: z.array(outboxAttachmentSchema) })
  .openapi('OutboxMessage');

export type SigninBody = z.infer<typeof signinBodySchema>;
export type SigninResponse = z.infer<typeof signinResponseSchema>;
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
