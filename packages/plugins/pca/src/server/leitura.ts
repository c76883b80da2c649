// What GET /planos/:id adds to the plan: its items, each with the DFD lines it came from (the
// drill-down), and the DFDs it consolidates now.
import { memorandos } from '@app/memorandos/server';
import { centrosCusto } from '@app/registros/server';
import type { DbOrTx } from '@app/server-core';
import { asc, eq, inArray } from '@app/server-core/orm';
import { memorandosDoPlano } from './consolidar.js';
import { pcaItemFontes, pcaItens } from './tables.js';

export async function lerItens(db: DbOrTx, planoId: string) {
  const itens = await db
    .select({
      id: pcaItens.id,
      numeroItem: pcaItens.numeroItem,
      categoriaItemPca: pcaItens.categoriaItemPca,
      catalogo: pcaItens.catalogo,
      classificacaoCatalogo: pcaItens.classificacaoCatalogo,
      classificacaoSuperiorCodigo: pcaItens.classificacaoSuperiorCodigo,
      classificacaoSuperiorNome: pcaItens.classificacaoSuperiorNome,
      codigoItem: pcaItens.codigoItem,
      produtoId: pcaItens.produtoId,
      descricao: pcaItens.descricao,
      unidadeFornecimento: pcaItens.unidadeFornecimento,
      quantidade: pcaItens.quantidade,
      valorUnitario: pcaItens.valorUnitario,
      valorTotal: pcaItens.valorTotal,
      dataDesejada: pcaItens.dataDesejada,
      unidadeRequisitante: pcaItens.unidadeRequisitante,
      pendencias: pcaItens.pendencias,
    })
    .from(pcaItens)
    .where(eq(pcaItens.planoId, planoId))
    .orderBy(asc(pcaItens.numeroItem));
  if (itens.length === 0) return [];
  const fontes = await db
    .select({
      itemId: pcaItemFontes.itemId,
      memorandoId: pcaItemFontes.memorandoId,
      memorandoItemId: pcaItemFontes.memorandoItemId,
      numero: memorandos.numero,
      ano: memorandos.ano,
      origemNome: centrosCusto.nome,
      quantidade: pcaItemFontes.quantidade,
      valorTotal: pcaItemFontes.valorTotal,
    })
    .from(pcaItemFontes)
    .innerJoin(pcaItens, eq(pcaItens.id, pcaItemFontes.itemId))
    .innerJoin(memorandos, eq(memorandos.id, pcaItemFontes.memorandoId))
    .innerJoin(centrosCusto, eq(centrosCusto.id, memorandos.origemId))
    .where(eq(pcaItens.planoId, planoId))
    .orderBy(asc(memorandos.ano), asc(memorandos.numero));
  const porItem = new Map<string, typeof fontes>();
  for (const f of fontes) porItem.set(f.itemId, [...(porItem.get(f.itemId) ?? []), f]);
  return itens.map((item) => ({ ...item, fontes: (porItem.get(item.id) ?? []).map(({ itemId: _i, ...f }) => f) }));
}

export function lerMemorandos(db: DbOrTx, planoId: string) {
  return db
    .select({
      id: memorandos.id,
      numero: memorandos.numero,
      ano: memorandos.ano,
      assunto: memorandos.assunto,
      valorTotal: memorandos.valorTotal,
      origemNome: centrosCusto.nome,
    })
    .from(memorandos)
    .innerJoin(centrosCusto, eq(centrosCusto.id, memorandos.origemId))
    .where(inArray(memorandos.id, memorandosDoPlano(db as never, planoId)))
    .orderBy(asc(memorandos.ano), asc(memorandos.numero));
}
