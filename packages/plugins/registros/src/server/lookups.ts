// Pickers over the registries that other plugins serve under their own tag (a document's author holds
// the document's tag, not Cadastros): `defineLookup(router, centrosCustoLookup(TAG))`.
import { type LookupDefinition, centroCustoScope } from '@app/server-core';
import { centrosCusto } from './tables.js';

/**
 * The centros de custo of the entidade, by código; `?<filtro>=true` (default `meus`) keeps the
 * centros the person belongs to (all, for a perfil that sees every centro).
 */
export function centrosCustoLookup(tag: number, filtro = 'meus'): LookupDefinition {
  return {
    path: '/centros-custo',
    tag,
    summary: 'Centros de custo',
    table: centrosCusto,
    fields: { codigo: centrosCusto.codigo, nome: centrosCusto.nome },
    busca: centrosCusto.busca,
    order: centrosCusto.codigo,
    filters: { [filtro]: (ctx, v) => (v === 'true' ? centroCustoScope(ctx, centrosCusto.id) : undefined) },
  };
}
