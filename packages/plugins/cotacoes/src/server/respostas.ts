// A supplier's answer (by hand or from its filled XLSX): replaces that supplier's prices in the
// cotação with the answer's lines, marks the invitation 'respondeu' and records the quote's date and
// validity. Called inside a ctx.mutate (the answer route here, the XLSX import in documentos.ts).
import { fornecedores } from '@app/fornecedores/server';
import { type AuditFn, type RequestContext, type Tx, badRequest, notFound } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import type { Convite, RespostaInput } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { UUID, lerConvite, travarCotacao } from './comum.js';
import { conferirAprovacao } from './justificativa.js';
import { cotacaoFornecedores, cotacaoItens, cotacaoPrecos, cotacaoVencedores } from './tables.js';

/**
 * Records the answer of invitation `conviteId` of cotação `cotacaoId` (in the person's scope: 404
 * outside it; 409 unless em coleta; 400 naming `itens.N.produtoId` for a product that is not an item
 * of the cotação or comes twice). Lines without a price are items the supplier did not quote. Winners
 * chosen among the replaced prices are dropped (the answer changed; the audit row names them).
 */
export async function salvarResposta(
  tx: Tx,
  ctx: RequestContext,
  audit: AuditFn,
  cotacaoId: string,
  conviteId: string,
  input: RespostaInput,
): Promise<Convite> {
  await travarCotacao(tx, ctx, cotacaoId, 'coleta');
  if (!UUID.test(conviteId)) throw notFound();
  const [convite] = await tx
    .select({
      id: cotacaoFornecedores.id,
      fornecedorId: cotacaoFornecedores.fornecedorId,
      situacao: cotacaoFornecedores.situacao,
      dataProposta: cotacaoFornecedores.dataProposta,
      validade: cotacaoFornecedores.validade,
      nome: fornecedores.razaoSocial,
    })
    .from(cotacaoFornecedores)
    .innerJoin(fornecedores, eq(fornecedores.id, cotacaoFornecedores.fornecedorId))
    .where(and(eq(cotacaoFornecedores.id, conviteId), eq(cotacaoFornecedores.cotacaoId, cotacaoId)))
    .for('update', { of: cotacaoFornecedores });
  if (!convite) throw notFound();

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
  const vencedoresRemovidos = anteriores.length
    ? (
        await tx
          .select({ produtoId: cotacaoVencedores.produtoId })
          .from(cotacaoVencedores)
          .where(
            and(
              eq(cotacaoVencedores.cotacaoId, cotacaoId),
              inArray(
                cotacaoVencedores.precoId,
                anteriores.map((p) => p.id),
              ),
            ),
          )
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
      version: sql`${cotacaoFornecedores.version} + 1`,
    })
    .where(eq(cotacaoFornecedores.id, conviteId));

  audit({
    registro: cotacaoId,
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
  await conferirAprovacao(tx, ctx, cotacaoId, audit, carregarCotacao);
  return lerConvite(tx, cotacaoId, conviteId);
}
