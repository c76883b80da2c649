// The contratações planejadas of a plan (PGC's "Criar Contratação"), children of the plan on the document
// kit (POST/PUT/DELETE /planos/:id/contratacoes[/:contratacaoId]: the plan locked in the person's scope,
// its state checked, the version, the audit under the plan). Each groups plan items of its category that
// are in no other contratação; deleting one frees its items. The calendar is drawn from their dates.
import { formatDate } from '@app/br';
import { PRIORIDADE_LABEL } from '@app/memorandos/shared';
import { type DbOrTx, type DocumentResource, type PluginRouter, type Tx, defineDocumentChildren } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import { z } from 'zod';
import { CATEGORIA_ITEM_PCA, type ContratacaoPlanejada, contratacaoSchema } from '../shared/index.js';
import { pcaContratacoes, pcaItens } from './tables.js';

type Corpo = z.output<typeof contratacaoSchema>;

/** The plan's contratações (or one), each with its items, their total and, when the process ends after an item's desired date, that date. */
export async function lerContratacoes(db: DbOrTx, planoId: string, id?: string): Promise<ContratacaoPlanejada[]> {
  const { rows } = await db.execute<ContratacaoPlanejada>(sql`
    SELECT c.id, c.numero, c.titulo, c.categoria_item_pca AS "categoriaItemPca", c.prioridade, c.inicio::text AS inicio, c.fim::text AS fim, c.version,
           coalesce(array_agg(i.numero_item ORDER BY i.numero_item) FILTER (WHERE i.id IS NOT NULL), '{}') AS "numerosItem",
           coalesce(sum(i.valor_total), 0)::numeric(17, 4)::text AS "valorTotal",
           CASE WHEN min(i.data_desejada) < c.fim THEN min(i.data_desejada)::text END AS atrasada
      FROM pca_contratacoes c LEFT JOIN pca_itens i ON i.contratacao_id = c.id
     WHERE c.plano_id = ${planoId}::uuid ${id ? sql`AND c.id = ${id}::uuid` : sql``}
     GROUP BY c.id ORDER BY c.numero`);
  return rows.map((r) => ({ ...r, numerosItem: r.numerosItem.map(Number) }));
}

/** Every item named exists in the plan, is of the contratação's category and in no other contratação. */
async function validarItens(tx: Tx, planoId: string, body: Corpo, id: string | undefined) {
  const pedidos = [...new Set(body.numerosItem)];
  const itens = await tx
    .select({ numero: pcaItens.numeroItem, categoria: pcaItens.categoriaItemPca, contratacao: pcaContratacoes.numero, contratacaoId: pcaItens.contratacaoId })
    .from(pcaItens)
    .leftJoin(pcaContratacoes, eq(pcaContratacoes.id, pcaItens.contratacaoId))
    .where(and(eq(pcaItens.planoId, planoId), inArray(pcaItens.numeroItem, pedidos)));
  const achados = new Map(itens.map((i) => [i.numero, i]));
  const erro = (message: string) => ({ numerosItem: message });
  const faltando = pedidos.find((n) => !achados.has(n));
  if (faltando !== undefined) return erro(`O plano não tem o item ${faltando}.`);
  const outra = itens.find((i) => i.categoria !== body.categoriaItemPca);
  if (outra) return erro(`O item ${outra.numero} é da categoria ${CATEGORIA_ITEM_PCA[outra.categoria]}: uma contratação agrupa itens de uma só categoria.`);
  const ocupado = itens.find((i) => i.contratacaoId && i.contratacaoId !== id);
  if (ocupado) return erro(`O item ${ocupado.numero} já está na contratação ${ocupado.contratacao}: retire-o de lá antes.`);
  return undefined;
}

/** The contratação's items are exactly `numeros`. */
async function atribuir(tx: Tx, planoId: string, id: string, numeros: number[]) {
  await tx
    .update(pcaItens)
    .set({ contratacaoId: null })
    .where(and(eq(pcaItens.contratacaoId, id), sql`${pcaItens.numeroItem} <> ALL(${`{${numeros.join(',')}}`}::int[])`));
  await tx
    .update(pcaItens)
    .set({ contratacaoId: id })
    .where(and(eq(pcaItens.planoId, planoId), inArray(pcaItens.numeroItem, numeros)));
}

const colunas = (b: Corpo) => ({ titulo: b.titulo, categoriaItemPca: b.categoriaItemPca, prioridade: b.prioridade, inicio: b.inicio, fim: b.fim });

/** What the timeline shows of a contratação: words, dates dd/mm/aaaa, the item numbers. */
const resumo = (c: ContratacaoPlanejada | Record<string, unknown> | undefined) =>
  c && {
    contratacao: `${String(c.numero)} – ${String(c.titulo)}`,
    categoria: CATEGORIA_ITEM_PCA[Number(c.categoriaItemPca)],
    prioridade: PRIORIDADE_LABEL[c.prioridade as ContratacaoPlanejada['prioridade']],
    inicio: formatDate(String(c.inicio)),
    conclusao: formatDate(String(c.fim)),
    itens: (c.numerosItem as number[]).join(', '),
  };

export function registrarContratacoes(router: PluginRouter, plano: DocumentResource, estados: readonly string[]) {
  return defineDocumentChildren(router, plano, {
    path: 'contratacoes',
    param: 'contratacaoId',
    table: pcaContratacoes,
    parentColumn: pcaContratacoes.planoId,
    version: pcaContratacoes.version,
    label: { singular: 'contratação', plural: 'contratações' },
    states: estados,
    response: z.object({}).loose(),
    read: (db, planoId, id) => lerContratacoes(db, planoId, id),
    schema: contratacaoSchema,
    list: { summary: 'Contratações planejadas do plano', description: 'Por número, com os itens, o valor e a data desejada que a conclusão ultrapassa.' },
    create: {
      summary: 'Criar uma contratação planejada',
      description: 'Agrupa itens do plano de uma categoria que não estejam em outra contratação (400 nomeando o item), com o início e a conclusão do processo.',
      validate: (tx, c) => validarItens(tx, c.parentId, c.body, undefined),
      run: async (tx, c) => {
        const [{ proximo }] = (await tx
          .select({ proximo: sql<number>`coalesce(max(${pcaContratacoes.numero}), 0)::int + 1` })
          .from(pcaContratacoes)
          .where(eq(pcaContratacoes.planoId, c.parentId))) as [{ proximo: number }];
        const [row] = await tx
          .insert(pcaContratacoes)
          .values({ ...colunas(c.body), entidadeId: c.ctx.entidadeId, planoId: c.parentId, numero: proximo })
          .returning({ id: pcaContratacoes.id });
        await atribuir(tx, c.parentId, row!.id, c.body.numerosItem);
        return row!.id;
      },
      audit: { acao: 'incluir_contratacao', depois: (c) => resumo(c.after) },
    },
    update: {
      summary: 'Alterar uma contratação planejada',
      description: 'Título, categoria, prioridade, datas e itens (a lista inteira). 409 `stale` com uma versão antiga.',
      validate: (tx, c) => validarItens(tx, c.parentId, c.body, c.key),
      run: async (tx, c) => {
        await tx.update(pcaContratacoes).set(colunas(c.body)).where(eq(pcaContratacoes.id, c.key!));
        await atribuir(tx, c.parentId, c.key!, c.body.numerosItem);
      },
      audit: { acao: 'alterar_contratacao', antes: (c) => resumo(c.child), depois: (c) => resumo(c.after) },
    },
    delete: {
      summary: 'Excluir uma contratação planejada',
      description: 'Os itens voltam a não ter contratação.',
      audit: { acao: 'excluir_contratacao', antes: (c) => resumo(c.child) },
    },
  });
}

/** A check the kit cannot make: a contratação without items left (its DFDs left the plan) is reported, not kept silently. */
export function contratacoesVazias(contratacoes: ContratacaoPlanejada[]): string | null {
  const vazias = contratacoes.filter((c) => c.numerosItem.length === 0);
  if (vazias.length === 0) return null;
  return `A contratação ${vazias.map((c) => c.numero).join(', ')} ficou sem itens: inclua itens ou exclua-a antes de enviar o plano.`;
}
