// Row-level scope of documents by centro de custo (migration 0010): a user sees and acts on the
// documents of the centros de custo they belong to in the entidade, unless their perfil grants all.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { RequestContext } from './context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the scope needs from the request: `RequestContext` satisfies it. */
export type CentroCustoScopeContext = Pick<RequestContext, 'centrosCusto' | 'todosCentros'>;

/**
 * Condition restricting rows to the caller's centros de custo, for lists, counts, exports and reads
 * by id: `undefined` when the perfil sees every centro (`ctx.todosCentros`), otherwise
 * `(col1 = ANY(centros) OR col2 = ANY(centros) ...)`, which matches nothing when the user belongs to
 * no centro (and a NULL column never matches). Pass the origin and the destination columns of a
 * document to let both sides see it. Combine with `and(...)`: drizzle drops an `undefined`.
 */
export function centroCustoScope(ctx: CentroCustoScopeContext, ...columns: AnyPgColumn[]): SQL | undefined {
  if (ctx.todosCentros) return undefined;
  if (columns.length === 0) throw new Error('centroCustoScope: informe ao menos uma coluna de centro de custo.');
  const ids = ctx.centrosCusto.filter((id) => UUID.test(id));
  if (ids.length === 0) return sql`false`;
  // one text parameter cast to uuid[]: the same on node-postgres and PGlite, whatever the list size
  const centros = `{${ids.join(',')}}`;
  const conditions = columns.map((column) => sql`${column} = ANY(${centros}::uuid[])`);
  return sql`(${sql.join(conditions, sql` OR `)})`;
}
