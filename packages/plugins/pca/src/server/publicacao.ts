// The PCA's publication: `publicar` (aprovado → publicado) asks every plugin that contributes to
// PCA_PUBLICACAO to take the plan, in the same transaction (the PNCP integration enqueues its job there,
// so a refused or rolled-back publication leaves nothing behind). Without a contributor the plan is
// marked published here only (a body that publishes on the PNCP's portal by hand).
import { type AuditFn, type DbOrTx, type RequestContext, type Tx, extensionPoint } from '@app/server-core';
import { and, asc, eq, isNull, sql } from '@app/server-core/orm';
import { colunasSem, pcaContratacoes, pcaItens, pcaPlanos } from './tables.js';

/** What a publisher receives: the plan as approved (its items are frozen from then on). */
export interface PlanoPublicado {
  id: string;
  entidadeId: string;
  numero: number;
  ano: number;
  anoPca: number;
  codigoUnidade: string;
  /** A revised plan (version 2 on): why it changed, as the PNCP asks to rectify or exclude items (≤ 255 characters). */
  justificativa?: string;
}

/**
 * What the person may ask the publisher from the plan's page, with a justification ('Excluir do PNCP'): the page
 * asks for the text (up to 255 characters) and sends POST /api/`caminho` `{ justificativa }`; the answer's error
 * message is shown as is.
 */
export interface AcaoPublicacao {
  /** The button ('Excluir do PNCP'). */
  rotulo: string;
  /** The dialog's question, its explanation and the label of the text asked ('Motivo da exclusão'). */
  titulo: string;
  /** What the action does, shown in the dialog. */
  descricao: string;
  /** The label of the text asked (its error reads 'Informe o <campo> …', so a masculine noun: 'Motivo da exclusão'). */
  campo: string;
  /** Under /api, without the leading slash ('pncp/planos/<id>/excluir'). */
  caminho: string;
}

/** How the plan stands with a publisher, shown on the plan ('Publicado no PNCP: …', with a link). */
export interface SituacaoPublicacao {
  texto: string;
  tom: 'info' | 'success' | 'warning' | 'danger';
  link: { href: string; texto: string } | null;
  /** What this person may do about it from the plan (absent: nothing). */
  acao?: AcaoPublicacao;
}

/** How one plan item stands with a publisher ('Publicado no PNCP (item 3)', 'Alterado: a retificar no PNCP'). */
export interface SituacaoItemPublicado {
  texto: string;
  tom: SituacaoPublicacao['tom'] | 'neutral';
}

/**
 * An item the publisher holds or held that the plan no longer has (a revision took it out): what was last sent
 * of it and its situation ('A excluir no PNCP (item 3)' until the publication deletes it there, then
 * 'Excluído do PNCP em 05/03/2027 (item 3)'). Quantity and value are exact decimal strings, null when unknown.
 */
export interface ItemForaDoPlano {
  /** The number the publisher knows it by (never reused for another item while it holds this one). */
  numeroItem: number;
  /** As last sent (null: not known, e.g. an item found on the publisher that the plan never sent). */
  descricao: string | null;
  quantidade: string | null;
  valorTotal: string | null;
  /** Its situation in pt-BR ('A excluir no PNCP (item 3)'), and the tone it is shown in. */
  texto: string;
  tom: SituacaoItemPublicado['tom'];
}

export interface PcaPublicador {
  /** Runs inside the `publicar` transaction, after the state changed; throw an AppError to refuse it. */
  publicar(tx: Tx, plano: PlanoPublicado, ctx: RequestContext, audit: AuditFn): Promise<void>;
  /** The plan's publication as the publisher knows it (null: it never took the plan); `ctx`: who reads it (the actions she may take). */
  situacao?(db: DbOrTx, planoId: string, entidadeId: string, ctx?: RequestContext): Promise<SituacaoPublicacao | null>;
  /** Each item's situation by numeroItem (null: it never took the plan); shown in the plan's items. */
  situacaoItens?(db: DbOrTx, planoId: string, entidadeId: string): Promise<Record<number, SituacaoItemPublicado> | null>;
  /**
   * The items the publisher holds or held that the plan no longer has, in numeroItem order (null: it never took
   * the plan); shown under the plan's items, so an item a revision removed still says what became of it.
   */
  itensForaDoPlano?(db: DbOrTx, planoId: string, entidadeId: string): Promise<ItemForaDoPlano[] | null>;
  /**
   * Why the plan may not be cancelled now (the publisher still holds it: a pt-BR message saying what to do
   * first), or null. Asked inside the `cancelar` transaction, the plan locked; a message refuses it with 409.
   */
  impedeCancelamento?(tx: Tx, planoId: string, entidadeId: string): Promise<string | null>;
}

/** Extension point 'pca.publicacao': who takes an approved plan when the setor publishes it. */
export const PCA_PUBLICACAO = extensionPoint<PcaPublicador>('pca.publicacao');

/** A plan item as the PNCP takes it (§1.4 of the PCA insert), money and quantities as exact decimal strings. */
export interface ItemPublicavel {
  numeroItem: number;
  categoriaItemPca: number;
  catalogo: number;
  classificacaoCatalogo: number;
  classificacaoSuperiorCodigo: string | null;
  classificacaoSuperiorNome: string | null;
  pdmCodigo: string | null;
  pdmDescricao: string | null;
  codigoItem: string | null;
  descricao: string;
  unidadeFornecimento: string | null;
  quantidade: string;
  valorUnitario: string;
  valorTotal: string;
  dataDesejada: string | null;
  unidadeRequisitante: string | null;
  /** The contratação planejada (number and title) the item is in, or null. */
  grupoContratacaoCodigo: string | null;
  grupoContratacaoNome: string | null;
}

/**
 * Whether the plan may be sent to a publisher now: it is 'publicado' here (approved and published). A
 * publication asked before a revision or a cancellation must not send what the plan holds since (items
 * not yet approved, or a cancelled plan): publishers check it before each send and each retry.
 */
export async function planoPublicavel(db: DbOrTx, planoId: string): Promise<boolean> {
  const [row] = await db.select({ status: pcaPlanos.status }).from(pcaPlanos).where(eq(pcaPlanos.id, planoId));
  return row?.status === 'publicado';
}

/** The items of a plan in numeroItem order (read only; for the publishers). */
export function itensPublicaveis(db: DbOrTx, planoId: string): Promise<ItemPublicavel[]> {
  return (
    db
      .select({
        ...colunasSem(pcaItens, [
          'id',
          'planoId',
          'entidadeId',
          'produtoId',
          'pendencias',
          'chave',
          'contratacaoId',
          'recusaMotivo',
          'recusadoPor',
          'recusadoEm',
        ]),
        // the contratação planejada the item is in: the PNCP's "grupo de contratação"
        grupoContratacaoCodigo: sql<string | null>`${pcaContratacoes.numero}::text`,
        grupoContratacaoNome: pcaContratacoes.titulo,
      })
      .from(pcaItens)
      .leftJoin(pcaContratacoes, eq(pcaContratacoes.id, pcaItens.contratacaoId))
      // an item the autoridade refused is not sent
      .where(and(eq(pcaItens.planoId, planoId), isNull(pcaItens.recusaMotivo)))
      .orderBy(asc(pcaItens.numeroItem))
  );
}
