// What reports of other plugins share about the registries: the filter by centro de custo, offering
// only the person's own centros (all of the entidade's for who sees every centro), so a report's
// `centro` filter never reaches past the person's scope (any other id is a 400 of the reports kit).
import { type ReportFilter, type RequestContext, centroCustoScope } from '@app/server-core';
import { and, asc, eq } from '@app/server-core/orm';
import { centrosCusto } from './tables.js';

/** The centros de custo the person may choose: 'Nome (código)', by name. */
async function centrosDaPessoa(ctx: RequestContext) {
  const rows = await ctx.db
    .select({ value: centrosCusto.id, codigo: centrosCusto.codigo, nome: centrosCusto.nome })
    .from(centrosCusto)
    .where(and(eq(centrosCusto.entidadeId, ctx.entidadeId), centroCustoScope(ctx, centrosCusto.id)))
    .orderBy(asc(centrosCusto.nome));
  return rows.map((r) => ({ value: r.value, label: `${r.nome} (${r.codigo})` }));
}

/** `filters: [centroCustoFiltro]`: the report's `load` gets `f.centro`, one of the person's centros. */
export const centroCustoFiltro: ReportFilter = { name: 'centro', label: 'Secretaria (centro de custo)', kind: 'select', options: centrosDaPessoa };
