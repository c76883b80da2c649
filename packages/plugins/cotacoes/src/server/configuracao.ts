// The entidade's defaults for new cotações: the method and whether the outlier rule iterates
// (GET with tag 73, PUT with tag 3, audited).
import { AppError, type DbOrTx, type PluginRouter, STALE_MESSAGE } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { ADMIN_TAG } from '@app/core/tags';
import { COTACOES_TAG, METODOS, type Metodo, configuracaoInputSchema } from '../shared/index.js';
import { cotacaoConfiguracoes } from './tables.js';

const configuracaoSchema = z.object({ metodo: z.enum(METODOS), iterar: z.boolean(), version: z.number().int() });
export type ConfiguracaoLida = { metodo: Metodo; iterar: boolean; version: number };

/** The entidade's configuration; without a row: média saneada, applied once, version 0. */
export async function lerConfiguracao(db: DbOrTx, entidadeId: string): Promise<ConfiguracaoLida> {
  const [row] = await db
    .select({ metodo: cotacaoConfiguracoes.metodo, iterar: cotacaoConfiguracoes.iterar, version: cotacaoConfiguracoes.version })
    .from(cotacaoConfiguracoes)
    .where(eq(cotacaoConfiguracoes.entidadeId, entidadeId));
  return row ?? { metodo: 'media_saneada', iterar: false, version: 0 };
}

export function registrarConfiguracao(router: PluginRouter): void {
  router.route({
    method: 'get',
    path: '/configuracao',
    tag: COTACOES_TAG,
    summary: 'Configuração das cotações da entidade',
    description:
      'O método de cálculo e a iteração do saneamento usados nas novas cotações (padrão: média saneada, aplicada uma vez; `version` 0 enquanto não configurada).',
    responses: { 200: configuracaoSchema },
    handler: async (c, ctx) => c.json(await lerConfiguracao(ctx.db, ctx.entidadeId), 200),
  });

  router.route({
    method: 'put',
    path: '/configuracao',
    tag: ADMIN_TAG,
    summary: 'Alterar a configuração das cotações da entidade',
    description: 'Envie a `version` lida (0 na primeira vez); 409 `stale` se outra pessoa alterou antes.',
    request: { body: configuracaoInputSchema },
    responses: { 200: configuracaoSchema, 409: { description: 'Versão desatualizada (stale)' } },
    handler: async (c, ctx) => {
      const input = c.req.valid('json');
      const out = await ctx.mutate(async (tx, audit) => {
        const [atual] = await tx.select().from(cotacaoConfiguracoes).where(eq(cotacaoConfiguracoes.entidadeId, ctx.entidadeId)).for('update');
        if (input.version !== undefined && input.version !== (atual?.version ?? 0)) throw new AppError(409, 'stale', STALE_MESSAGE);
        const depois = { metodo: input.metodo, iterar: input.iterar };
        if (atual) {
          await tx
            .update(cotacaoConfiguracoes)
            .set({ ...depois, version: sql`${cotacaoConfiguracoes.version} + 1`, updatedAt: sql`now()` })
            .where(eq(cotacaoConfiguracoes.entidadeId, ctx.entidadeId));
        } else await tx.insert(cotacaoConfiguracoes).values({ entidadeId: ctx.entidadeId, ...depois });
        const antes = atual ? { antes: { metodo: atual.metodo, iterar: atual.iterar } } : {};
        audit({ registro: ctx.entidadeId, acao: atual ? 'alterar' : 'criar', ...antes, depois });
        return lerConfiguracao(tx, ctx.entidadeId);
      });
      return c.json(out, 200);
    },
  });
}
