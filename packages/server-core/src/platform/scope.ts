// Row-level scope of documents by centro de custo (migration 0010): a user sees and acts on the
// documents of the centros de custo they belong to in the entidade, unless their perfil grants all.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { RequestContext } from './context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Controle interno (the controladoria, auditors): a perfil with this tag READS every document of the
 * entidade, in every centro de custo, and changes none. The router opens to it the read routes of
 * every document (list, exports, the record, its PDF and timeline, and every GET `<path>/:id/…` of
 * that document: see `PluginRouter.declareDocument`); their scope is then every centro
 * (`ctx.leituraControleInterno`). Writes and transitions keep their own tag only (403). The web
 * shell (@app/core) uses the same number.
 */
export const CONTROLE_INTERNO_TAG = 95;
export const CONTROLE_INTERNO_TAG_NOME = 'Controle interno: leitura de todos os documentos';

/** What the scope needs from the request: `RequestContext` satisfies it. */
export type CentroCustoScopeContext = Pick<RequestContext, 'centrosCusto' | 'todosCentros' | 'leituraControleInterno'>;

/**
 * Condition restricting rows to the caller's centros de custo, for lists, counts, exports and reads
 * by id: `undefined` when the perfil sees every centro (`ctx.todosCentros`) or the request is a read
 * of the controle interno (`ctx.leituraControleInterno`), otherwise
 * `(col1 = ANY(centros) OR col2 = ANY(centros) ...)`, which matches nothing when the user belongs to
 * no centro (and a NULL column never matches). Pass the origin and the destination columns of a
 * document to let both sides see it. Combine with `and(...)`: drizzle drops an `undefined`.
 */
export function centroCustoScope(ctx: CentroCustoScopeContext, ...columns: AnyPgColumn[]): SQL | undefined {
  if (ctx.todosCentros || ctx.leituraControleInterno) return undefined;
  if (columns.length === 0) throw new Error('centroCustoScope: informe ao menos uma coluna de centro de custo.');
  const ids = ctx.centrosCusto.filter((id) => UUID.test(id));
  if (ids.length === 0) return sql`false`;
  // one text parameter cast to uuid[]: the same on node-postgres and PGlite, whatever the list size
  const centros = `{${ids.join(',')}}`;
  const conditions = columns.map((column) => sql`${column} = ANY(${centros}::uuid[])`);
  return sql`(${sql.join(conditions, sql` OR `)})`;
}
