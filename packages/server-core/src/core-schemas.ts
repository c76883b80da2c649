import { z } from '@hono/zod-openapi';

/** Zod schemas of server-core's own API (request bodies and answers). */
export const signinBodySchema = z
  .object({
    login: z.string().trim().min(1, 'Informe o login.').max(100, 'Login longo demais.'),
    senha: z.string().min(1, 'Informe a senha.').max(200, 'Senha longa demais.'),
    entidadeId: z.uuid('Entidade inválida.').optional(),
  })
  .openapi('SigninBody');

export const entidadeRefSchema = z.object({ id: z.string(), nome: z.string() }).openapi('EntidadeRef');

export const signinResponseSchema = z
  .object({ token: z.string(), entidades: z.array(entidadeRefSchema) })
  .openapi('SigninResponse');

export const switchEntidadeBodySchema = z
  .object({ entidadeId: z.uuid('Entidade inválida.') })
  .openapi('SwitchEntidadeBody');

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
    config: z.object({
      appName: z.string(),
      supportPhone: z.string(),
      buildId: z.string(),
      devtools: z.object({ policy: z.enum(['report', 'ignore']) }),
    }),
  })
  .openapi('Session');

export const devtoolsBodySchema = z
  .object({ open: z.boolean(), route: z.string().max(500, 'Rota longa demais.') })
  .openapi('DevtoolsBody');

export const healthResponseSchema = z.object({ status: z.literal('ok') }).openapi('Health');

export const versionResponseSchema = z.object({ buildId: z.string(), version: z.string() }).openapi('Version');

export type SigninBody = z.infer<typeof signinBodySchema>;
export type SigninResponse = z.infer<typeof signinResponseSchema>;
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
