import { type SQL, sql } from 'drizzle-orm';

/** The SQL text of {@link generatedByMigration}'s marker (checkSchemaDrift recognises it). */
export const GENERATED_BY_MIGRATION = '/* generated: the expression is in the migration */ NULL';

/**
 * For `.generatedAlwaysAs(generatedByMigration())`: the column is GENERATED ALWAYS AS (…) STORED in the
 * migration, which alone holds the expression (not copied into TypeScript). drizzle never inserts or
 * updates it; checkSchemaDrift checks the database column is generated.
 *
 *   busca: text('busca').generatedAlwaysAs(generatedByMigration()),
 */
export function generatedByMigration(): SQL {
  return sql.raw(GENERATED_BY_MIGRATION);
}
