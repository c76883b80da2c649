// Authors of documents (migration 0012, table documento_autores), for segregation of duties: the
// document kit records, in the write's transaction, who created a document ('autor'), changed it
// ('editor'), performed an authoring transition such as enviar ('remetente'), and who wrote the
// documents it was made from ('fonte', copied from the sources). Whoever is any kind of author of a
// document never performs its independent transitions (accept, approve, return…).
import { type SQL, and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { documentoAutores } from '../../platform/db/schema.js';
import type { DbOrTx, Tx } from '../../platform/db/types.js';

/**
 * Permission tag "Editar rascunhos de outras pessoas": without it, only an author of a draft edits,
 * sends or cancels it; whoever edits with it becomes an 'editor' author (and so never approves it).
 * Declared by every plugin with documents (`tags: [..., RASCUNHOS_ALHEIOS_TAG_INFO]`).
 */
export const RASCUNHOS_ALHEIOS_TAG = 40;
export const RASCUNHOS_ALHEIOS_TAG_NOME = 'Editar rascunhos de outras pessoas';
export const RASCUNHOS_ALHEIOS_TAG_INFO = { tag: RASCUNHOS_ALHEIOS_TAG, nome: RASCUNHOS_ALHEIOS_TAG_NOME } as const;

export type DocumentAuthorRole = 'autor' | 'editor' | 'remetente' | 'fonte';

/** The kinds of author that wrote the document itself (may edit its draft); 'fonte' wrote a source. */
export const DIRECT_AUTHOR_ROLES: readonly DocumentAuthorRole[] = ['autor', 'editor', 'remetente'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * SQL condition, true when the person is any kind of author (autor, editor, remetente or fonte) of
 * the document whose id is `documentIdColumn` (`usuarioId`: an id, or a uuid expression of the outer
 * query such as a candidate's `usuario_id`): e.g. `not(documentAuthorSql(requisicoes.id, ctx.user.id))`
 * in an approval queue, so the queue and the per-record check are one definition.
 */
export function documentAuthorSql(documentIdColumn: AnyPgColumn | SQL, usuarioId: string | SQL): SQL {
  const usuario = typeof usuarioId === 'string' ? sql`${usuarioId}::uuid` : usuarioId;
  return sql`exists (select 1 from ${documentoAutores} where ${documentoAutores.documentoId} = ${documentIdColumn} and ${documentoAutores.usuarioId} = ${usuario})`;
}

/** Whether the person is any kind of author (autor, editor, remetente or fonte) of the document. */
export async function isDocumentAuthor(db: DbOrTx, documentId: string, usuarioId: string): Promise<boolean> {
  if (!UUID.test(documentId) || !UUID.test(usuarioId)) return false;
  const [hit] = await db
    .select({ papel: documentoAutores.papel })
    .from(documentoAutores)
    .where(and(eq(documentoAutores.documentoId, documentId), eq(documentoAutores.usuarioId, usuarioId)))
    .limit(1);
  return hit !== undefined;
}

/** The kinds of author the person is of each document (document id → roles); absent: none. */
export async function documentAuthorRoles(db: DbOrTx, documentIds: readonly string[], usuarioId: string): Promise<Map<string, Set<DocumentAuthorRole>>> {
  const ids = [...new Set(documentIds.filter((id) => UUID.test(id)))];
  const out = new Map<string, Set<DocumentAuthorRole>>();
  if (ids.length === 0 || !UUID.test(usuarioId)) return out;
  const rows = await db
    .select({ documentoId: documentoAutores.documentoId, papel: documentoAutores.papel })
    .from(documentoAutores)
    .where(and(inArray(documentoAutores.documentoId, ids), eq(documentoAutores.usuarioId, usuarioId)));
  for (const row of rows) {
    const set = out.get(row.documentoId) ?? new Set<DocumentAuthorRole>();
    set.add(row.papel as DocumentAuthorRole);
    out.set(row.documentoId, set);
  }
  return out;
}

/** Records the person as an author of the document (idempotent), in the write's transaction. */
export async function recordDocumentAuthor(
  tx: Tx,
  entry: { entidadeId: string; documentoId: string; usuarioId: string; papel: DocumentAuthorRole },
): Promise<void> {
  await tx.insert(documentoAutores).values(entry).onConflictDoNothing();
}

/**
 * Copies every author (of any kind) of the source documents as 'fonte' authors of the document, so a
 * chain memorando → pré-requisição → requisição → cotação carries who wrote each link.
 */
export async function copySourceAuthors(tx: Tx, entidadeId: string, documentoId: string, sourceIds: readonly string[]): Promise<void> {
  const ids = [...new Set(sourceIds.filter((id) => UUID.test(id) && id !== documentoId))];
  if (ids.length === 0) return;
  await tx.execute(sql`
    insert into ${documentoAutores} (entidade_id, documento_id, usuario_id, papel)
    select distinct ${entidadeId}::uuid, ${documentoId}::uuid, ${documentoAutores.usuarioId}, 'fonte'
    from ${documentoAutores}
    where ${documentoAutores.entidadeId} = ${entidadeId} and ${inArray(documentoAutores.documentoId, ids)}
    on conflict do nothing`);
}
