// Where a product is used. A used product cannot be deleted nor have its descrição changed.
// Other plugins tell it in one of two ways:
//  1. rows of `produto_usos`, kept in the document's own transaction: the document kit writes them
//     for every document whose items name a product (produtos contributes setProdutoUsos() /
//     clearProdutoUsos() to the kit's DOCUMENT_PRODUCT_USES); seeds and other writers call them directly.
//     A cancelled document keeps its rows: it still references the product.
//  2. a checker contributed to the PRODUTO_USOS extension point that looks at the plugin's own tables:
//       defineServerPlugin({ …, contributes: [contribute(PRODUTO_USOS, async (db, p) => ['Memorando 12/2026'])] })
//     read per server from `ctx.contributions(PRODUTO_USOS)` (only enabled plugins count).
// Foreign keys to produtos(id) from other tables (with a 'singular|plural' table comment) count too.
import { type Contribution, type DbOrTx, type PluginContext, type Tx, describeReferences, extensionPoint } from '@app/server-core';
import { and, asc, eq } from '@app/server-core/orm';
import { produtoUsos, produtos } from './tables.js';

/** Describes the documents of one plugin that use a product ('Memorando 12/2026'), none → []. */
export type ProdutoUsageChecker = (db: DbOrTx, produto: { id: string; entidadeId: string }) => Promise<string[]>;

/**
 * Where other plugins contribute a {@link ProdutoUsageChecker}; the contributing plugin's id is the
 * `origem` of what it answers.
 */
export const PRODUTO_USOS = extensionPoint<ProdutoUsageChecker>('produtos.usos');

/** What the usage functions read the contributed checkers from: a plugin, request or seed context. */
export type ProdutoUsosContext = Pick<PluginContext, 'contributions'>;

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
  await tx.delete(produtoUsos).where(and(eq(produtoUsos.origem, documento.origem), eq(produtoUsos.documentoId, documento.documentoId)));
  const ids = [...new Set(produtoIds)];
  if (ids.length === 0) return;
  await tx.insert(produtoUsos).values(ids.map((produtoId) => ({ ...documento, produtoId })));
}

/** The document no longer uses any product (e.g. it was deleted). */
export async function clearProdutoUsos(tx: Tx, documento: { origem: string; documentoId: string }): Promise<void> {
  await tx.delete(produtoUsos).where(and(eq(produtoUsos.origem, documento.origem), eq(produtoUsos.documentoId, documento.documentoId)));
}

/**
 * Every document that uses the product: recorded uses, then the checkers the enabled plugins contribute
 * to {@link PRODUTO_USOS} (read from `ctx`).
 */
export async function listProdutoUsos(
  db: DbOrTx,
  produto: { id: string; entidadeId: string },
  ctx: ProdutoUsosContext,
): Promise<{ origem: string; descricao: string }[]> {
  const rows = await db
    .select({ origem: produtoUsos.origem, descricao: produtoUsos.descricao })
    .from(produtoUsos)
    .where(and(eq(produtoUsos.produtoId, produto.id), eq(produtoUsos.entidadeId, produto.entidadeId)))
    .orderBy(asc(produtoUsos.createdAt), asc(produtoUsos.descricao));
  const out = [...rows];
  const checkers: readonly Contribution<ProdutoUsageChecker>[] = ctx.contributions(PRODUTO_USOS);
  for (const { plugin, value: checker } of checkers) {
    for (const descricao of await checker(db, produto)) out.push({ origem: plugin, descricao });
  }
  return out;
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
export async function produtoUsadoEm(db: DbOrTx, produto: { id: string; entidadeId: string }, ctx: ProdutoUsosContext): Promise<string | null> {
  const usos = await listProdutoUsos(db, produto, ctx);
  if (usos.length) return `Usado em ${describeUsos(usos)}`;
  return describeReferences(db, produtos, produto.id);
}
