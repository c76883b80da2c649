// What a person must act on in memorandos, contributed to the kit's PENDENCIAS (GET /api/pendencias):
// the memorandos sent to a centro de custo of the person (the destino), waiting for its answer
// (aceitar or devolver). As the flow says: the destino answers, and never who wrote, changed or sent
// the memorando (the kit's authors, documentAuthorSql), nor its solicitante.
import { type PendenciaProvider, centroCustoScope, documentAuthorSql } from '@app/server-core';
import { and, count, eq, ne, not } from '@app/server-core/orm';
import { MEMORANDOS_TAG } from '../shared/index.js';
import { memorandos } from './tables.js';

export const MEMORANDOS_A_ACEITAR: PendenciaProvider = {
  id: 'memorandos.a-aceitar',
  label: 'Memorandos a aceitar',
  href: '/memorando?status=enviado',
  tag: MEMORANDOS_TAG,
  count: async (db, ctx) => {
    const [row] = await db
      .select({ n: count() })
      .from(memorandos)
      .where(
        and(
          eq(memorandos.entidadeId, ctx.entidadeId),
          eq(memorandos.status, 'enviado'),
          centroCustoScope(ctx, memorandos.destinoId),
          ne(memorandos.solicitanteId, ctx.user.id),
          not(documentAuthorSql(memorandos.id, ctx.user.id)),
        ),
      );
    return Number(row?.n ?? 0);
  },
};
