// The lines the setor de contratações adds to the plan without a DFD, each with its justification:
// children of the plan on the document kit (GET/POST /planos/:id/itens-manuais, PUT/DELETE …/:manualId;
// the plan locked in the person's scope, editable states only, the product checked against the
// entidade, audited under the plan). Every change consolidates the plan again: the line joins the
// plan item of its key (the plan's setor is its requesting unit).
import { formatDate } from '@app/br';
import { formatDecimal, formatMoney } from '@app/documents';
import { produtos } from '@app/produtos/server';
import { type DbOrTx, type DocumentResource, type PluginRouter, defineDocumentChildren } from '@app/server-core';
import { asc, eq } from '@app/server-core/orm';
import { z } from 'zod';
import { CATEGORIA_ITEM_PCA, itemManualSchema } from '../shared/index.js';
import { consolidar } from './consolidar.js';
import { colunasSem, pcaItensManuais } from './tables.js';

/** The plan's lines added by hand (or one), with the product's code and description. */
export function lerManuais(db: DbOrTx, planoId: string, id?: string) {
  return db
    .select({ ...colunasSem(pcaItensManuais, ['entidadeId', 'planoId']), produtoCodigo: produtos.codigo, produtoDescricao: produtos.descricao })
    .from(pcaItensManuais)
    .innerJoin(produtos, eq(produtos.id, pcaItensManuais.produtoId))
    .where(id ? eq(pcaItensManuais.id, id) : eq(pcaItensManuais.planoId, planoId))
    .orderBy(asc(produtos.descricao), asc(pcaItensManuais.id));
}

/** What the timeline shows of a line: the product by name, quantities and money as people read them. */
const resumo = (l: Record<string, unknown> | undefined) =>
  l && {
    produto: `${String(l.produtoCodigo)} – ${String(l.produtoDescricao)}`,
    categoria: CATEGORIA_ITEM_PCA[Number(l.categoriaItemPca)],
    quantidade: formatDecimal(String(l.quantidade)),
    valorUnitario: formatMoney(String(l.valorUnitario), 4),
    dataDesejada: formatDate(String(l.dataDesejada)),
    justificativa: l.justificativa,
  };

export function registrarManuais(router: PluginRouter, plano: DocumentResource, estados: readonly string[]) {
  const reconsolidar = (tx: Parameters<typeof consolidar>[0], c: { parentId: string; ctx: { entidadeId: string } }) =>
    consolidar(tx, c.parentId, c.ctx.entidadeId);
  return defineDocumentChildren(router, plano, {
    path: 'itens-manuais',
    param: 'manualId',
    table: pcaItensManuais,
    parentColumn: pcaItensManuais.planoId,
    version: pcaItensManuais.version,
    label: { singular: 'item sem DFD', plural: 'itens sem DFD' },
    states: estados,
    response: z.object({}).loose(),
    read: (db, planoId, id) => lerManuais(db, planoId, id),
    references: { produtoId: { table: produtos, message: 'Escolha um produto ou serviço do catálogo.' } },
    schema: itemManualSchema,
    list: { summary: 'Itens incluídos no plano sem DFD', description: 'Com a justificativa de cada um.' },
    create: {
      summary: 'Incluir um item no plano sem DFD',
      description: 'Com a justificativa (impressa no plano); o plano é consolidado de novo e a linha entra no item da sua chave.',
      audit: { acao: 'incluir_item_sem_dfd', depois: (c) => resumo(c.after) },
      afterWrite: reconsolidar,
    },
    update: {
      summary: 'Alterar um item incluído sem DFD',
      audit: { acao: 'alterar_item_sem_dfd', antes: (c) => resumo(c.child), depois: (c) => resumo(c.after) },
      afterWrite: reconsolidar,
    },
    delete: {
      summary: 'Excluir um item incluído sem DFD',
      audit: { acao: 'excluir_item_sem_dfd', antes: (c) => resumo(c.child) },
      afterWrite: reconsolidar,
    },
  });
}
