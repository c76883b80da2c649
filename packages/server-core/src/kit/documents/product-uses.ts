// Which products a document uses, registered by the document kit: when the items declaration names a
// `productColumn`, every save (create, change, duplicate, create-from) replaces the document's uses with
// the distinct products of its items as saved, in the save's transaction; a deletion (none today:
// numbered documents are cancelled, never deleted) removes them. A cancelled document keeps its uses:
// it still references the products, so they cannot be deleted (only deactivated) while it exists.
// The kit does not know where uses are kept: the produtos plugin contributes the store to
// DOCUMENT_PRODUCT_USES; without a contributor (a server without produtos) nothing is recorded.
import type { ExtensionPoint } from '../../platform/contributions.js';
import { extensionPoint } from '../../platform/contributions.js';
import type { Tx } from '../../platform/db/types.js';

/** The document whose uses are registered. */
export interface DocumentProductUseDocument {
  entidadeId: string;
  /** Plugin id of the document ('memorandos'). */
  origem: string;
  /** Id of the document in that plugin. */
  documentoId: string;
  /** How people call the document: 'Memorando 12/2026'. */
  descricao: string;
}

/** Where the uses of products by documents are kept (contributed by the produtos plugin). */
export interface DocumentProductUses {
  /** The products the document uses now (replaces what it used before), inside the document's transaction. */
  set(tx: Tx, documento: DocumentProductUseDocument, produtoIds: readonly string[]): Promise<void>;
  /** The document no longer uses any product (it was deleted). */
  clear(tx: Tx, documento: { origem: string; documentoId: string }): Promise<void>;
}

/** The kit calls every contribution after each save of a document with products, and on its deletion. */
export const DOCUMENT_PRODUCT_USES: ExtensionPoint<DocumentProductUses> = extensionPoint<DocumentProductUses>('documentos.produto-usos');
