// Document numbers per entidade, kind and year (migration 0011): a counter row updated in the
// creating transaction, so numbers have no gaps and no duplicates under any concurrency.
import { TIME_ZONE } from '@app/br';
import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../platform/db/types.js';

/** Drizzle mirror of `document_counters` (migrations/0011_document_counters.sql). */
export const documentCounters = pgTable(
  'document_counters',
  {
    entidadeId: uuid('entidade_id').notNull(),
    tipo: text('tipo').notNull(),
    ano: integer('ano').notNull(),
    ultimo: integer('ultimo').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entidadeId, t.tipo, t.ano] })],
);

export interface NextDocumentNumberOptions {
  entidadeId: string;
  /** Kind of document, e.g. 'memorandos/memorandos' (one sequence per kind). */
  tipo: string;
  /**
   * Year of the number. Default: the year of the transaction's start (now(), the instant
   * created_at DEFAULT now() records) in America/Sao_Paulo.
   */
  ano?: number;
}

/**
 * Takes the next number of (entidade, tipo, ano): 1 for the first document of the year. Call it
 * inside the transaction that creates the document: the counter row stays locked until it ends,
 * and a rollback gives the number back.
 */
export async function nextDocumentNumber(tx: Tx, options: NextDocumentNumberOptions): Promise<{ numero: number; ano: number }> {
  const ano = options.ano ?? null;
  const { rows } = await tx.execute<{ ano: number; ultimo: number }>(sql`
    INSERT INTO document_counters AS c (entidade_id, tipo, ano, ultimo)
    VALUES (
      ${options.entidadeId}::uuid,
      ${options.tipo},
      COALESCE(${ano}::int, extract(year FROM (now() AT TIME ZONE ${TIME_ZONE}))::int),
      1
    )
    ON CONFLICT (entidade_id, tipo, ano) DO UPDATE SET ultimo = c.ultimo + 1
    RETURNING c.ano, c.ultimo`);
  const row = rows[0];
  if (!row) throw new Error('nextDocumentNumber: the counter did not answer.');
  return { numero: Number(row.ultimo), ano: Number(row.ano) };
}

/** The last number given of (entidade, tipo, ano), 0 when none yet (reports, tests). */
export async function lastDocumentNumber(db: DbOrTx, options: Required<NextDocumentNumberOptions>): Promise<number> {
  const { rows } = await db.execute<{ ultimo: number }>(sql`
    SELECT ultimo FROM document_counters
     WHERE entidade_id = ${options.entidadeId}::uuid AND tipo = ${options.tipo} AND ano = ${options.ano}`);
  return Number(rows[0]?.ultimo ?? 0);
}
