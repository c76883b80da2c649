// The approved requisições a cotação can price (picker) and the rule 'one live cotação per requisição'.
import { centrosCusto } from '@app/registros/server';
import { requisicoes } from '@app/requisicoes/server';
import {
  AppError,
  type DbOrTx,
  type PluginRouter,
  type RequestContext,
  type Tx,
  centroCustoScope,
  lockSources,
  notFound,
  searchCondition,
} from '@app/server-core';
import { and, count, desc, eq, ne, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { COTACOES_TAG } from '../shared/index.js';
import { cotacoes } from './tables.js';

/** The cotação (not cancelled) that prices the requisição, besides `exceto`. */
export async function cotacaoAtivaDaRequisicao(db: DbOrTx, requisicaoId: string, exceto?: string) {
  const [row] = await db
    .select({ id: cotacoes.id, numero: cotacoes.numero, ano: cotacoes.ano })
    .from(cotacoes)
    .where(and(eq(cotacoes.requisicaoId, requisicaoId), ne(cotacoes.status, 'cancelada'), exceto ? ne(cotacoes.id, exceto) : undefined))
    .orderBy(cotacoes.createdAt)
    .limit(1);
  return row;
}

/** 409 `requisicao_cotada`: the message names the live cotação (also at the field, for the form). */
export function requisicaoCotada(ja: { numero: number; ano: number }): AppError {
  const message = `Esta requisição já tem a cotação ${ja.numero}/${ja.ano}: cancele-a para cotar de novo.`;
  return new AppError(409, 'requisicao_cotada', message, { requisicaoId: message });
}

/**
 * The requisição a cotação prices, for every route that creates or re-links one (the kit's POST and
 * PUT, POST /cotacoes/de-requisicao): locked FOR UPDATE (the kit's lockSources), then checked under
 * the lock, so parallel requests by any mix of routes make one live cotação. 404 when it is not a
 * requisição of the entidade in the person's centros (unless `atual`, the cotação being edited, is
 * already linked to it); 400 when not approved (idem); 409 naming the live cotação that prices it.
 */
export async function requisicaoParaCotacao(tx: Tx, ctx: RequestContext, requisicaoId: string, atual?: { id: string; requisicaoId: unknown }) {
  const mantida = atual?.requisicaoId === requisicaoId;
  const fontes = await lockSources(tx, {
    table: requisicoes,
    ids: [requisicaoId],
    entidadeId: ctx.entidadeId,
    scope: centroCustoScope(ctx, requisicoes.centroCustoId),
    keep: mantida ? [requisicaoId] : [],
  });
  const req = fontes.get(requisicaoId) as typeof requisicoes.$inferSelect;
  if (req.status !== 'aprovada' && !mantida) {
    throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { requisicaoId: 'Escolha uma requisição aprovada.' });
  }
  const ja = await cotacaoAtivaDaRequisicao(tx, requisicaoId, atual?.id);
  if (ja) throw requisicaoCotada(ja);
  return req;
}

const requisicaoAprovadaSchema = z.object({
  id: z.string(),
  numero: z.number().int(),
  ano: z.number().int(),
  data: z.string(),
  justificativa: z.string(),
  centroCustoId: z.string(),
  centroCustoNome: z.string(),
  solicitanteNome: z.string(),
  valorTotal: z.string(),
  itens: z.number().int(),
  /** The live cotação that already prices it (null: none). */
  cotacao: z.object({ id: z.string(), numero: z.number().int(), ano: z.number().int() }).nullable(),
});

/** GET /requisicoes-aprovadas and /requisicoes-aprovadas/:id (tag 73, the person's centros). */
export function registrarRequisicoesAprovadas(router: PluginRouter): void {
  const select = (db: DbOrTx) =>
    db
      .select({
        id: requisicoes.id,
        numero: requisicoes.numero,
        ano: requisicoes.ano,
        data: requisicoes.data,
        justificativa: requisicoes.justificativa,
        centroCustoId: requisicoes.centroCustoId,
        centroCustoNome: sql<string>`${centrosCusto.codigo} || ' – ' || ${centrosCusto.nome}`,
        solicitanteNome: requisicoes.solicitanteNome,
        valorTotal: sql<string>`${requisicoes.valorTotal}::text`,
        itens: sql<number>`(SELECT count(*)::int FROM requisicao_itens ri WHERE ri.requisicao_id = requisicoes.id)`,
        cotacao: sql<{ id: string; numero: number; ano: number } | null>`(
          SELECT json_build_object('id', c.id, 'numero', c.numero, 'ano', c.ano) FROM cotacoes c
           WHERE c.requisicao_id = requisicoes.id AND c.status <> 'cancelada' ORDER BY c.created_at LIMIT 1)`,
      })
      .from(requisicoes)
      .innerJoin(centrosCusto, eq(centrosCusto.id, requisicoes.centroCustoId));
  const present = <T extends { itens: unknown; cotacao: unknown }>(r: T) => ({
    ...r,
    itens: Number(r.itens),
    cotacao: r.cotacao ?? null,
  });

  router.route({
    method: 'get',
    path: '/requisicoes-aprovadas',
    tag: COTACOES_TAG,
    summary: 'Requisições aprovadas que podem ser cotadas',
    description:
      "Requisições aprovadas da entidade nos centros de custo da pessoa (todos, se o perfil vê todos), por número ('12/2026'), justificativa ou solicitante, mais recentes primeiro; com a cotação (não cancelada) que já as cota. `disponiveis=true`: só as que ainda não têm.",
    request: {
      query: z.object({
        q: z.string().trim().max(200).optional(),
        page: z.coerce.number().int().min(1).default(1),
        pageSize: z.coerce.number().int().min(1).max(50).default(20),
        disponiveis: z.enum(['true', 'false']).optional(),
      }),
    },
    responses: { 200: z.object({ items: z.array(requisicaoAprovadaSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }) },
    handler: async (c, ctx) => {
      const q = c.req.valid('query');
      const numero = /^(\d{1,9})\/(\d{4})$/.exec(q.q ?? '');
      const where = and(
        eq(requisicoes.entidadeId, ctx.entidadeId),
        eq(requisicoes.status, 'aprovada'),
        centroCustoScope(ctx, requisicoes.centroCustoId),
        numero
          ? and(eq(requisicoes.numero, Number(numero[1])), eq(requisicoes.ano, Number(numero[2])))
          : searchCondition([{ expr: requisicoes.busca, normalized: true }], q.q),
        q.disponiveis === 'true' ? sql`NOT EXISTS (SELECT 1 FROM cotacoes c WHERE c.requisicao_id = requisicoes.id AND c.status <> 'cancelada')` : undefined,
      );
      const [contados] = await ctx.db.select({ n: count() }).from(requisicoes).where(where);
      const rows = await select(ctx.db)
        .where(where)
        .orderBy(desc(requisicoes.ano), desc(requisicoes.numero), requisicoes.id)
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize);
      return c.json({ items: rows.map(present), total: Number(contados?.n ?? 0), page: q.page, pageSize: q.pageSize }, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/requisicoes-aprovadas/:id',
    tag: COTACOES_TAG,
    summary: 'Uma requisição aprovada que pode ser cotada',
    request: { params: z.object({ id: z.uuid({ error: 'Identificador inválido.' }) }) },
    responses: { 200: requisicaoAprovadaSchema, 404: { description: 'Não encontrada, não aprovada ou de outro centro de custo' } },
    handler: async (c, ctx) => {
      const [row] = await select(ctx.db)
        .where(
          and(
            eq(requisicoes.id, c.req.valid('param').id),
            eq(requisicoes.entidadeId, ctx.entidadeId),
            eq(requisicoes.status, 'aprovada'),
            centroCustoScope(ctx, requisicoes.centroCustoId),
          ),
        )
        .limit(1);
      if (!row) throw notFound();
      return c.json(present(row), 200);
    },
  });
}
