// The source documents a write refers to by id (the memorando of a pré-requisição, the pré-requisições
// of a requisição's lines, the requisição of a cotação): locked and checked in ONE place, so that every
// route that creates or re-links a child (the kit's POST/PUT, a "de-…" route, duplicate) takes the
// same path.
//  * Locked FOR UPDATE in a fixed order (ascending id) in one statement: two writes over the same
//    sources wait for each other instead of deadlocking, whatever route each came through, and the
//    checks that follow ("is there already a live child?", "is the source still in a state that
//    allows it?") run under the lock, so they see what the other committed.
//  * Every id must be a record of the entidade inside the person's scope: anything else is a 404, as
//    for a read by id (a foreign centro's id is neither used nor confirmed to exist).
import { type SQL, and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/types.js';
import { notFound } from '../../platform/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = Record<string, unknown>;

/** A table whose rows belong to an entidade. */
export type SourceTable = PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn };

export interface LockSourcesOptions<T extends SourceTable> {
  /** The source documents' table (`id` and `entidadeId` columns). */
  table: T;
  /** The ids the body refers to (null/undefined and repeats are ignored). */
  ids: Iterable<string | null | undefined>;
  entidadeId: string;
  /**
   * The person's row-level scope over the sources, e.g. `centroCustoScope(ctx, t.origemId, t.destinoId)`
   * (undefined: the whole entidade). A source outside it is a 404.
   */
  scope?: SQL | undefined;
  /**
   * Ids the record being saved is ALREADY linked to: locked like the others but not held to `scope`
   * (keeping a link is not making one: editing a requisição another centro converted stays possible).
   */
  keep?: Iterable<string | null | undefined>;
}

/**
 * Locks the source rows FOR UPDATE, in ascending id order, and returns them (all columns) by id.
 * Throws 404 `not_found` when an id is not a record of the entidade or, unless in `keep`, lies outside
 * `scope`. Call it before any check that depends on the sources, first thing in the transaction after
 * the record's own lock (PUT), so every writer takes the locks in the same order.
 */
export async function lockSources<T extends SourceTable>(tx: Tx, options: LockSourcesOptions<T>): Promise<Map<string, Row>> {
  const ids = [...new Set([...options.ids].filter((id): id is string => typeof id === 'string' && id !== ''))].sort();
  if (ids.length === 0) return new Map();
  if (ids.some((id) => !UUID.test(id))) throw notFound();
  const keep = new Set([...(options.keep ?? [])].filter((id): id is string => typeof id === 'string'));
  const { table } = options;
  const rows = (await tx
    .select({ row: getTableColumns(table), noEscopo: options.scope ? sql<boolean>`coalesce((${options.scope}), false)` : sql<boolean>`true` })
    .from(table as PgTable)
    .where(and(inArray(table.id, ids), eq(table.entidadeId, options.entidadeId)))
    .orderBy(asc(table.id))
    .for('update')) as { row: Row; noEscopo: unknown }[];
  const out = new Map<string, Row>();
  for (const { row, noEscopo } of rows) {
    const id = String(row.id);
    if (noEscopo !== true && !keep.has(id)) throw notFound();
    out.set(id, row);
  }
  if (out.size !== ids.length) throw notFound();
  return out;
}
