// What a person must act on in memorandos, contributed to the kit's PENDENCIAS (GET /api/pendencias):
// the memorandos sent to a centro de custo of the person (the destino), waiting for its answer
// (aceitar or devolver). As the flow says: the destino answers, and never who wrote, changed or sent
// the memorando (the kit's authors, documentAuthorSql), nor its solicitante.
import { type PendenciaProvider, type RequestContext, centroCustoScope, documentAuthorSql } from '@app/server-core';
import { and, count, eq, min, ne, not } from '@app/server-core/orm';
import { MEMORANDOS_TAG } from '../shared/index.js';
import { memorandos } from './tables.js';

const aAceitar = (ctx: RequestContext) =>
  and(
    eq(memorandos.entidadeId, ctx.entidadeId),
    eq(memorandos.status, 'enviado'),
    centroCustoScope(ctx, memorandos.destinoId),
    ne(memorandos.solicitanteId, ctx.user.id),
    not(documentAuthorSql(memorandos.id, ctx.user.id)),
  );

export const MEMORANDOS_A_ACEITAR: PendenciaProvider = {
  id: 'memorandos.a-aceitar',
  label: 'Memorandos a aceitar',
  href: '/memorando?status=enviado',
  tag: MEMORANDOS_TAG,
  count: async (db, ctx) => {
    const [row] = await db.select({ n: count() }).from(memorandos).where(aAceitar(ctx));
    return Number(row?.n ?? 0);
  },
  // sent: the oldest one's last change is its sending
  desde: async (db, ctx) => {
    const [row] = await db
      .select({ at: min(memorandos.updatedAt) })
      .from(memorandos)
      .where(aAceitar(ctx));
    return row?.at ?? null;
  },
};
