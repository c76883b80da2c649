// What a person must act on in pré-requisições and requisições, contributed to the kit's PENDENCIAS
// (GET /api/pendencias, read by the dashboard). Each count is one set-based query in the person's
// scope of centros de custo; the first is the approvals kit's queue (the same count as the menu's
// GET /requisicoes/aguardando-minha-aprovacao/contagem): one definition of the queue.
import { type DbOrTx, type PendenciaProvider, type RequestContext, centroCustoScope } from '@app/server-core';
import { type SQL, and, count, eq, inArray, min } from '@app/server-core/orm';
import { REQUISICOES_TAG } from '../shared/index.js';
import { aprovacao } from './aprovacao.js';
import { preRequisicoes, requisicoes } from './tables.js';

/** Pré-requisições still open for their solicitante (not converted, cancelled or closed). */
const PRE_REQUISICAO_ABERTA = ['rascunho', 'enviada', 'parcialmente_atendida', 'devolvida'] as const;

/** The person's own documents (solicitante) in their centros, in the states `where` says. */
const minhas = (p: Omit<PendenciaProvider, 'count' | 'tag' | 'desde'>, t: typeof preRequisicoes | typeof requisicoes, where: SQL): PendenciaProvider => {
  // how many, and the oldest one's last change (returned, sent…)
  const ler = async (db: DbOrTx, ctx: RequestContext) =>
    (
      await db
        .select({ n: count(), at: min(t.updatedAt) })
        .from(t)
        .where(and(eq(t.entidadeId, ctx.entidadeId), centroCustoScope(ctx, t.centroCustoId), eq(t.solicitanteId, ctx.user.id), where))
    )[0];
  return {
    ...p,
    tag: REQUISICOES_TAG,
    count: async (db, ctx) => Number((await ler(db, ctx))?.n ?? 0),
    desde: async (db, ctx) => (await ler(db, ctx))?.at ?? null,
  };
};

export const PENDENCIAS_REQUISICOES: readonly PendenciaProvider[] = [
  aprovacao.pendencia({
    id: 'requisicoes.aguardando-minha-aprovacao',
    label: 'Requisições aguardando a minha aprovação',
    href: '/requisicao?aguardandoMinha=1',
  }),
  minhas(
    { id: 'requisicoes.minhas-devolvidas', label: 'Minhas requisições devolvidas para correção', href: '/requisicao?status=devolvida' },
    requisicoes,
    eq(requisicoes.status, 'devolvida'),
  ),
  minhas(
    {
      id: 'requisicoes.minhas-pre-requisicoes-abertas',
      label: 'Minhas pré-requisições em aberto',
      href: `/pre-requisicao?status=${PRE_REQUISICAO_ABERTA.join(',')}`,
    },
    preRequisicoes,
    inArray(preRequisicoes.status, [...PRE_REQUISICAO_ABERTA]),
  ),
];
