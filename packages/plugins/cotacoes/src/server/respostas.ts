// A supplier's answer (by hand or from its filled XLSX): replaces that supplier's prices in the
// cotação with the answer's lines, marks the invitation 'respondeu' and records the quote's date and
// validity. The action 'resposta' of the invitations (fornecedores.ts): the kit has locked the cotação
// (em coleta) and the invitation; the XLSX import (documentos-importar.ts) performs the same action.
import { type DocumentChildContext, type Tx, badRequest } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import type { RespostaInput } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { conferirAprovacao } from './justificativa.js';
import { cotacaoFornecedores, cotacaoItens, cotacaoPrecos, cotacaoVencedores } from './tables.js';

/**
 * The answer (400 naming `itens.N.produtoId` for a product that is not an item of the cotação or comes
 * twice). Lines without a price are items the supplier did not quote. Winners chosen among the
 * replaced prices are dropped (the answer changed; the audit row names them).
 */
export async function responder(tx: Tx, c: DocumentChildContext<RespostaInput>): Promise<void> {
  const { ctx, parentId: cotacaoId, body: input } = c;
  const convite = { fornecedorId: String(c.child!.fornecedorId), situacao: c.locked!.situacao, nome: String(c.child!.fornecedorNome) };

  const itens = await tx.select({ produtoId: cotacaoItens.produtoId }).from(cotacaoItens).where(eq(cotacaoItens.cotacaoId, cotacaoId));
  const daCotacao = new Set(itens.map((i) => i.produtoId));
  const fields: Record<string, string> = {};
  const vistos = new Set<string>();
  input.itens.forEach((linha, i) => {
    if (!daCotacao.has(linha.produtoId)) fields[`itens.${i}.produtoId`] = 'Este produto não é item desta cotação.';
    else if (vistos.has(linha.produtoId)) fields[`itens.${i}.produtoId`] = 'Este item já foi informado em outra linha.';
    vistos.add(linha.produtoId);
  });
  if (Object.keys(fields).length) throw badRequest('Verifique os campos destacados.', fields);

  const onde = and(eq(cotacaoPrecos.cotacaoId, cotacaoId), eq(cotacaoPrecos.fornecedorId, convite.fornecedorId));
  const anteriores = await tx
    .select({
      id: cotacaoPrecos.id,
      produtoId: cotacaoPrecos.produtoId,
      valorUnitario: sql<string>`${cotacaoPrecos.valorUnitario}::text`,
      marca: cotacaoPrecos.marca,
    })
    .from(cotacaoPrecos)
    .where(onde);
  const ids = anteriores.map((p) => p.id);
  const vencedoresRemovidos = ids.length
    ? (
        await tx
          .select({ produtoId: cotacaoVencedores.produtoId })
          .from(cotacaoVencedores)
          .where(and(eq(cotacaoVencedores.cotacaoId, cotacaoId), inArray(cotacaoVencedores.precoId, ids)))
      ).map((v) => v.produtoId)
    : [];
  await tx.delete(cotacaoPrecos).where(onde); // the winners chosen among them go too (ON DELETE CASCADE)

  const cotados = input.itens.filter((l): l is typeof l & { valorUnitario: string } => l.valorUnitario !== null);
  if (cotados.length) {
    await tx.insert(cotacaoPrecos).values(
      cotados.map((l) => ({
        entidadeId: ctx.entidadeId,
        cotacaoId,
        produtoId: l.produtoId,
        fonte: 'fornecedor' as const,
        fornecedorId: convite.fornecedorId,
        fonteDescricao: `Proposta de ${convite.nome}`.slice(0, 500),
        valorUnitario: l.valorUnitario,
        marca: l.marca,
        dataColeta: input.dataProposta,
        validade: input.validade,
        coletadoPor: ctx.user.id,
        coletadoPorNome: ctx.user.nome,
      })),
    );
  }
  await tx
    .update(cotacaoFornecedores)
    .set({
      situacao: 'respondeu',
      dataProposta: input.dataProposta,
      validade: input.validade,
      motivoNaoResposta: null,
    })
    .where(eq(cotacaoFornecedores.id, c.key!));

  c.audit({
    acao: 'resposta_fornecedor',
    // the subject only in `depois`: fields equal on both sides are not stored
    antes: {
      situacao: convite.situacao,
      precos: anteriores.map((p) => ({ produtoId: p.produtoId, valorUnitario: p.valorUnitario, marca: p.marca })),
    },
    depois: {
      fornecedor: convite.nome,
      situacao: 'respondeu',
      dataProposta: input.dataProposta,
      validade: input.validade,
      precos: cotados.map((l) => ({ produtoId: l.produtoId, valorUnitario: l.valorUnitario, marca: l.marca })),
      ...(vencedoresRemovidos.length ? { vencedoresRemovidos } : {}),
    },
  });
  // the supplier's prices changed: an approval of the justification that covered them is voided
  await conferirAprovacao(tx, ctx, cotacaoId, c.audit, carregarCotacao);
}
