// The entidade's PNCP system user: GET (login and who set it, never the password) with tag 103 or 104,
// PUT with tag 104, audited without the password. The password is stored encrypted (config.ts) with a
// key that is not in the database; it is read back only by the publication jobs.
import { AppError, type DbOrTx, type PluginRouter } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { PNCP_CONFIG_TAG, credenciaisInputSchema } from '../shared/index.js';
import { type PncpConfig, cifrar, decifrar } from './config.js';
import { pncpCredenciais } from './tables.js';

const SEM_CHAVE =
  'O servidor não tem a chave que protege a senha do PNCP (PNCP_CREDENCIAIS_KEY ou PNCP_CREDENCIAIS_KEY_FILE): peça a quem administra o servidor que a defina (README, "Configuration").';

export const credenciaisSchema = z.object({
  configurado: z.boolean(),
  login: z.string().nullable(),
  atualizadoPorNome: z.string().nullable(),
  atualizadoEm: z.string().nullable(),
  chaveDefinida: z.boolean(),
});

export async function lerCredenciais(db: DbOrTx, entidadeId: string, config: PncpConfig) {
  const [row] = await db
    .select({ login: pncpCredenciais.login, atualizadoPorNome: pncpCredenciais.atualizadoPorNome, updatedAt: pncpCredenciais.updatedAt })
    .from(pncpCredenciais)
    .where(eq(pncpCredenciais.entidadeId, entidadeId));
  return {
    configurado: Boolean(row),
    login: row?.login ?? null,
    atualizadoPorNome: row?.atualizadoPorNome ?? null,
    atualizadoEm: row ? new Date(row.updatedAt).toISOString() : null,
    chaveDefinida: Boolean(config.chave),
  };
}

/** Login and password for the jobs; a clear pt-BR AppError(409) when missing or unreadable. */
export async function credenciaisDaEntidade(db: DbOrTx, entidadeId: string, config: PncpConfig): Promise<{ login: string; senha: string }> {
  const [row] = await db.select().from(pncpCredenciais).where(eq(pncpCredenciais.entidadeId, entidadeId));
  if (!row)
    throw new AppError(409, 'pncp_sem_credenciais', 'O usuário do PNCP desta entidade não está configurado: informe-o em Publicações no PNCP → Configuração.');
  if (!config.chave) throw new AppError(409, 'pncp_sem_chave', SEM_CHAVE);
  const senha = decifrar(row.senhaCifrada, config.chave);
  if (senha === undefined) {
    throw new AppError(
      409,
      'pncp_chave_trocada',
      'A senha do PNCP guardada não abre com a chave atual do servidor: informe a senha de novo em Publicações no PNCP → Configuração.',
    );
  }
  return { login: row.login, senha };
}

export function registrarCredenciais(router: PluginRouter, config: PncpConfig, aoAlterar: (entidadeId: string) => void): void {
  router.route({
    method: 'get',
    path: '/credenciais',
    tag: PNCP_CONFIG_TAG,
    summary: 'Usuário do PNCP da entidade',
    description: 'Se o usuário do PNCP está configurado, o login e quem o alterou por último. A senha nunca é devolvida.',
    responses: { 200: credenciaisSchema },
    handler: async (c, ctx) => c.json(await lerCredenciais(ctx.db, ctx.entidadeId, config), 200),
  });

  router.route({
    method: 'put',
    path: '/credenciais',
    tag: PNCP_CONFIG_TAG,
    summary: 'Alterar o usuário do PNCP da entidade',
    description:
      'Login e senha do usuário de sistema que o PNCP emitiu para a plataforma. A senha é guardada cifrada (AES-256-GCM) com uma chave fora do banco de dados; ao trocar só o login, omita `senha`. Auditado sem a senha.',
    request: { body: credenciaisInputSchema },
    responses: { 200: credenciaisSchema, 409: { description: 'Sem a chave no servidor, ou primeira configuração sem senha' } },
    handler: async (c, ctx) => {
      const input = c.req.valid('json');
      if (!config.chave) throw new AppError(409, 'pncp_sem_chave', SEM_CHAVE);
      const chave = config.chave;
      const out = await ctx.mutate(async (tx, audit) => {
        const [atual] = await tx.select().from(pncpCredenciais).where(eq(pncpCredenciais.entidadeId, ctx.entidadeId)).for('update');
        if (!atual && !input.senha) {
          throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { senha: 'Informe a senha do usuário do PNCP.' });
        }
        const senhaCifrada = input.senha ? cifrar(input.senha, chave) : atual!.senhaCifrada;
        const valores = { login: input.login, senhaCifrada, atualizadoPor: ctx.user.id, atualizadoPorNome: ctx.user.nome, updatedAt: sql`now()` };
        if (atual) await tx.update(pncpCredenciais).set(valores).where(eq(pncpCredenciais.entidadeId, ctx.entidadeId));
        else await tx.insert(pncpCredenciais).values({ entidadeId: ctx.entidadeId, ...valores });
        audit({
          registro: ctx.entidadeId,
          acao: atual ? 'alterar' : 'criar',
          ...(atual ? { antes: { login: atual.login } } : {}),
          depois: { login: input.login, ...(input.senha ? { senha: 'alterada' } : {}) },
        });
        return lerCredenciais(tx, ctx.entidadeId, config);
      });
      aoAlterar(ctx.entidadeId);
      return c.json(out, 200);
    },
  });
}
