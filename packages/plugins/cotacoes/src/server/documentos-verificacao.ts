// The cotação's own PDFs (the memória de cálculo and each supplier's blank form) carry a verification
// code like every document PDF (server-core documents/verification.ts): issued with issueVerifiedPdf,
// and read again here when someone checks a code, to say whether the document changed since.
import { AppError, type RequestContext, entidades, registerVerifiableDocument } from '@app/server-core';
import { and, eq } from '@app/server-core/orm';
import { carregarCotacao } from './carregar.js';
import { type EntidadeImpressa, formularioPdf } from './documentos-formulario.js';
import { memoriaPdf } from './documentos-memoria.js';
import { cotacaoFornecedores } from './tables.js';

/** Kinds of the cotação's PDFs in documento_verificacoes (the document id: the cotação; the invitation for a form). */
export const MEMORIA_PDF = 'cotacoes/memoria';
export const FORMULARIO_PDF = 'cotacoes/formulario';

export async function entidadeImpressa(ctx: RequestContext): Promise<EntidadeImpressa> {
  const [row] = await ctx.db.select({ nome: entidades.nome, cnpj: entidades.cnpj }).from(entidades).where(eq(entidades.id, ctx.entidadeId));
  return { nome: row?.nome ?? '', cnpj: row?.cnpj ?? '' };
}

/** A cotação that is no longer there (or out of the entidade) reads as null: 'excluído depois desta emissão'. */
async function ouNada<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

/** How the verification page reads the current content of these PDFs (what they would print now, with the checked issue's time and issuer). */
export function registrarVerificacaoDosDocumentos(): void {
  registerVerifiableDocument(MEMORIA_PDF, async (ctx, id, emissao) => {
    const mapa = await ouNada(() => carregarCotacao(ctx.db, ctx, id));
    if (!mapa) return null;
    const { generatedAt: _g, ...doc } = memoriaPdf(mapa, await entidadeImpressa(ctx), { em: emissao.em, por: emissao.por });
    return doc;
  });
  registerVerifiableDocument(FORMULARIO_PDF, async (ctx, conviteId, emissao) => {
    const [convite] = await ctx.db
      .select({ cotacaoId: cotacaoFornecedores.cotacaoId })
      .from(cotacaoFornecedores)
      .where(and(eq(cotacaoFornecedores.id, conviteId), eq(cotacaoFornecedores.entidadeId, ctx.entidadeId)));
    if (!convite) return null;
    const mapa = await ouNada(() => carregarCotacao(ctx.db, ctx, convite.cotacaoId));
    const c = mapa?.convites.find((x) => x.id === conviteId);
    if (!mapa || !c) return null;
    const { generatedAt: _g, ...doc } = formularioPdf(mapa, c, await entidadeImpressa(ctx), emissao.em);
    return doc;
  });
}
