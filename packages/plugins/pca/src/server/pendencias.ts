// What a PCA clerk must act on, contributed to the kit's PENDENCIAS (GET /api/pendencias, the dashboard):
// the DFDs (memorandos) accepted by a centro of the person (the destino: the setor de contratações that
// took the demand) for the PCA of this year or a later one, in no plan yet (no live link: a cancelled
// plan releases its DFDs). Each waits to be consolidated into the year's plan. A DFD of a past year is
// left out (its plan's time is gone), as is one still to be accepted (memorandos' own pendência).
import { today } from '@app/br';
import { memorandos } from '@app/memorandos/server';
import { type Db, type PendenciaProvider, type RequestContext, centroCustoScope, documentoVinculos, liveLink } from '@app/server-core';
import { and, count, eq, gte, min, notExists } from '@app/server-core/orm';
import { PCA_TAG } from '../shared/index.js';
import { PCA_KIND } from './consolidar.js';

/** The plans' states in which the setor consolidates DFDs (the list's filter). */
const EDITAVEIS = ['em_elaboracao', 'devolvido', 'em_revisao'] as const;

const aConsolidar = (db: Db, ctx: RequestContext) =>
  and(
    eq(memorandos.entidadeId, ctx.entidadeId),
    eq(memorandos.status, 'aceito'),
    gte(memorandos.anoPca, Number(today().slice(0, 4))),
    centroCustoScope(ctx, memorandos.destinoId),
    notExists(
      db
        .select({ um: documentoVinculos.id })
        .from(documentoVinculos)
        .where(liveLink(PCA_KIND, { source: memorandos.id })),
    ),
  );

export const PCA_A_CONSOLIDAR: PendenciaProvider = {
  id: 'pca.a-consolidar',
  label: 'Demandas (DFD) aceitas a consolidar no Plano de Contratações Anual',
  href: `/elabora-pca?status=${EDITAVEIS.join(',')}`,
  tag: PCA_TAG,
  count: async (db, ctx) => {
    const [row] = await db.select({ n: count() }).from(memorandos).where(aConsolidar(db, ctx));
    return Number(row?.n ?? 0);
  },
  // the oldest one's last change: its acceptance (or the release by a cancelled plan)
  desde: async (db, ctx) => {
    const [row] = await db
      .select({ at: min(memorandos.updatedAt) })
      .from(memorandos)
      .where(aConsolidar(db, ctx));
    return row?.at ?? null;
  },
};
