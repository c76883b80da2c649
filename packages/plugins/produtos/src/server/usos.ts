// Where a product is used. A used product cannot be deleted nor have its descrição changed.
// Other plugins tell it in one of two ways:
//  1. rows of `produto_usos`, kept in the document's own transaction with setProdutoUsos() /
//     clearProdutoUsos() (cheap to ask, works for any number of plugins);
//  2. a checker registered with registerProdutoUsage('memorandos', async (db, p) => ['Memorando 12/2026'])
//     that looks at the plugin's own tables.
// Foreign keys to produtos(id) from other tables (with a 'singular|plural' table comment) count too.
import { type DbOrTx, type Tx, describeReferences } from '@app/server-core';
import { and, asc, eq, inArray, sql } from '@app/server-core/orm';
import { produtoUsos, produtos } from './tables.js';

/** Describes the documents of one plugin that use a product ('Memorando 12/2026'), none → []. */
export type ProdutoUsageChecker = (db: DbOrTx, produto: { id: string; entidadeId: string }) => Promise<string[]>;

const checkers = new Map<string, ProdutoUsageChecker>();

/** Registers (or replaces) the checker of a plugin; returns a function that removes it. */
export function registerProdutoUsage(origem: string, checker: ProdutoUsageChecker): () => void {
  checkers.set(origem, checker);
  return () => {
    if (checkers.get(origem) === checker) checkers.delete(origem);
  };
}

export interface ProdutoUsoDocumento {
  entidadeId: string;
  /** Plugin id, e.g. 'memorandos'. */
  origem: string;
  /** Id of the document in that plugin. */
  documentoId: string;
  /** How people call the document: 'Memorando 12/2026'. */
  descricao: string;
}

/**
 * The products a document uses now (replaces what it used before). Call it inside the document's
 * ctx.mutate, with `tx`.
 */
export async function setProdutoUsos(tx: Tx, documento: ProdutoUsoDocumento, produtoIds: readonly string[]): Promise<void> {
  await tx
    .delete(produtoUsos)
    .where(and(eq(produtoUsos.origem, documento.origem), eq(produtoUsos.documentoId, documento.documentoId)));
  const ids = [...new Set(produtoIds)];
  if (ids.length === 0) return;
  await tx.insert(produtoUsos).values(ids.map((produtoId) => ({ ...documento, produtoId })));
}

/** The document no longer uses any product (e.g. it was deleted). */
export async function clearProdutoUsos(tx: Tx, documento: { origem: string; documentoId: string }): Promise<void> {
  await tx
    .delete(produtoUsos)
    .where(and(eq(produtoUsos.origem, documento.origem), eq(produtoUsos.documentoId, documento.documentoId)));
}

/** Every document that uses the product: recorded uses, then registered checkers. */
export async function listProdutoUsos(db: DbOrTx, produto: { id: string; entidadeId: string }): Promise<{ origem: string; descricao: string }[]> {
  const rows = await db
    .select({ origem: produtoUsos.origem, descricao: produtoUsos.descricao })
    .from(produtoUsos)
    .where(and(eq(produtoUsos.produtoId, produto.id), eq(produtoUsos.entidadeId, produto.entidadeId)))
    .orderBy(asc(produtoUsos.createdAt), asc(produtoUsos.descricao));
  const out = [...rows];
  for (const [origem, checker] of checkers) {
    for (const descricao of await checker(db, produto)) out.push({ origem, descricao });
  }
  return out;
}

/** How many products (of `ids`) are in use, by id: for lists that show a 'Em uso' mark. */
export async function produtosEmUso(db: DbOrTx, entidadeId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: produtoUsos.produtoId })
    .from(produtoUsos)
    .where(and(eq(produtoUsos.entidadeId, entidadeId), inArray(produtoUsos.produtoId, [...ids])));
  return new Set(rows.map((r) => r.id));
}

function joinPt(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} e ${parts[parts.length - 1]}`;
}

/** 'Memorando 12/2026, Requisição 3/2026 e mais 4 documentos' (at most 5 named). */
export function describeUsos(usos: readonly { descricao: string }[]): string {
  const names = [...new Set(usos.map((u) => u.descricao))];
  if (names.length <= 5) return joinPt(names);
  const rest = names.length - 4;
  return `${names.slice(0, 4).join(', ')} e mais ${rest} ${rest === 1 ? 'documento' : 'documentos'}`;
}

/**
 * 'Usado em Memorando 12/2026 e Requisição 3/2026', or null when nothing uses the product
 * (foreign keys of other tables to produtos included).
 */
export async function produtoUsadoEm(db: DbOrTx, produto: { id: string; entidadeId: string }): Promise<string | null> {
  const usos = await listProdutoUsos(db, produto);
  if (usos.length) return `Usado em ${describeUsos(usos)}`;
  return describeReferences(db, produtos, produto.id);
}

/** Locks nothing; answers whether the product row exists in the entidade. */
export async function produtoExiste(db: DbOrTx, id: string, entidadeId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`1` })
    .from(produtos)
    .where(and(eq(produtos.id, id), eq(produtos.entidadeId, entidadeId)))
    .limit(1);
  return Boolean(row);
}
