// What GET /planos/:id adds to the plan: its items (with how many DFD lines each; the lines themselves per
// item, the drill-down), the DFDs it consolidates now, and its totals by category and by requesting unit.
import { memorandos } from '@app/memorandos/server';
import { centrosCusto } from '@app/registros/server';
import type { DbOrTx } from '@app/server-core';
import { and, asc, desc, eq, inArray, sql } from '@app/server-core/orm';
import { memorandosDoPlano } from './consolidar.js';
import { colunas, colunasSem, pcaItemFontes, pcaItens, pcaItensManuais, pcaPlanos } from './tables.js';

/** A DFD without a desired date, where an item's pendência `data_desejada` is fixed. */
type SemData = { id: string; numero: number; ano: number };

/**
 * The plan's items, each with how many DFD lines it came from (`dfds`) and, for an item without a desired
 * date, a DFD without one (`semData`, where that pendência is fixed). The lines themselves are read per
 * item (lerFontes): a plan of 10 000 DFDs has 100 000 of them.
 */
export async function lerItens(db: DbOrTx, planoId: string) {
  // its DFD lines and the lines the setor added by hand (without DFD), counted in one probe of the item's
  // lines (LATERAL: per item whatever the statistics say, and a plan just consolidated has none), not
  // two correlated subqueries (5 000 items: 10 000 probes). Qualified by hand: drizzle names the
  // column bare, which inside the subquery would be f.id
  const linhas = db
    .select({ dfds: sql<number>`count(f.memorando_item_id)::int`.as('dfds'), manuais: sql<number>`count(f.manual_id)::int`.as('manuais') })
    .from(sql`pca_item_fontes f`)
    .where(sql`f.item_id = "pca_itens"."id"`)
    .as('linhas');
  const lidos = await db
    .select({
      ...colunasSem(pcaItens, ['planoId', 'entidadeId', 'pdmCodigo', 'pdmDescricao', 'chave']),
      dfds: linhas.dfds,
      manuais: linhas.manuais,
    })
    .from(pcaItens)
    .leftJoinLateral(linhas, sql`true`)
    .where(eq(pcaItens.planoId, planoId))
    .orderBy(asc(pcaItens.numeroItem));
  // semData set on the rows just read (a copy of each, 5 000 of them, costs more than the statement)
  const itens = lidos as ((typeof lidos)[number] & { semData: SemData | null })[];
  const semData = itens.some((i) => i.pendencias.includes('data_desejada'))
    ? new Map(
        (
          await db.execute<{ item_id: string; id: string; numero: number; ano: number }>(sql`
            SELECT DISTINCT ON (f.item_id) f.item_id, m.id, m.numero, m.ano
              FROM pca_item_fontes f JOIN pca_itens i ON i.id = f.item_id JOIN memorandos m ON m.id = f.memorando_id
             WHERE i.plano_id = ${planoId}::uuid AND m.data_desejada IS NULL
             ORDER BY f.item_id, m.ano, m.numero`)
        ).rows.map((r) => [r.item_id, { id: r.id, numero: Number(r.numero), ano: Number(r.ano) }]),
      )
    : null;
  for (const i of itens) i.semData = semData?.get(i.id) ?? null;
  return itens;
}

/** The lines one item came from (the drill-down): its DFD lines by DFD, then those the setor added by hand with their justification. */
export function lerFontes(db: DbOrTx, planoId: string, numeroItem: number) {
  return db
    .select({
      memorandoId: pcaItemFontes.memorandoId,
      memorandoItemId: pcaItemFontes.memorandoItemId,
      manualId: pcaItemFontes.manualId,
      numero: memorandos.numero,
      ano: memorandos.ano,
      origemNome: centrosCusto.nome,
      dataDesejada: sql<string | null>`coalesce(${memorandos.dataDesejada}, ${pcaItensManuais.dataDesejada})`,
      justificativa: pcaItensManuais.justificativa,
      quantidade: pcaItemFontes.quantidade,
      valorTotal: pcaItemFontes.valorTotal,
    })
    .from(pcaItemFontes)
    .innerJoin(pcaItens, eq(pcaItens.id, pcaItemFontes.itemId))
    .innerJoin(pcaPlanos, eq(pcaPlanos.id, pcaItens.planoId))
    .leftJoin(memorandos, eq(memorandos.id, pcaItemFontes.memorandoId))
    .leftJoin(pcaItensManuais, eq(pcaItensManuais.id, pcaItemFontes.manualId))
    .innerJoin(centrosCusto, eq(centrosCusto.id, sql`coalesce(${memorandos.origemId}, ${pcaPlanos.centroCustoId})`))
    .where(and(eq(pcaItens.planoId, planoId), eq(pcaItens.numeroItem, numeroItem)))
    .orderBy(sql`${memorandos.ano} NULLS LAST`, asc(memorandos.numero), asc(pcaItemFontes.id));
}

export function lerMemorandos(db: DbOrTx, planoId: string) {
  return db
    .select({ ...colunas(memorandos, ['id', 'numero', 'ano', 'assunto', 'valorTotal']), origemNome: centrosCusto.nome })
    .from(memorandos)
    .innerJoin(centrosCusto, eq(centrosCusto.id, memorandos.origemId))
    .where(inArray(memorandos.id, memorandosDoPlano(db as never, planoId)))
    .orderBy(asc(memorandos.ano), asc(memorandos.numero));
}

/** One line of the plan's totals: how many items, and their value (exact, 4 places, as text). */
export interface TotalDoPlano {
  rotulo: string;
  itens: number;
  valor: string;
}

/**
 * The plan's totals by PCA category (its items) and by requesting unit (the DFD lines consolidated, by the
 * DFD's origin: an item asked by two units counts in both, with each one's part), summed by the database.
 */
export async function lerTotais(db: DbOrTx, planoId: string, categorias: Record<number, string>) {
  const porCategoria = await db
    .select({ categoria: pcaItens.categoriaItemPca, itens: sql<number>`count(*)::int`, valor: sql<string>`sum(${pcaItens.valorTotal})::text` })
    .from(pcaItens)
    .where(eq(pcaItens.planoId, planoId))
    .groupBy(pcaItens.categoriaItemPca)
    .orderBy(asc(pcaItens.categoriaItemPca));
  // The lines summed by requesting unit (its id) and item first, the units' names joined to those few
  // rows after: joined to the 100 000 lines of a big plan, the names were compared line by line and
  // the lines sorted on disk (a plan just consolidated has no statistics yet: 0,9 s on PGlite).
  const linhas = db.$with('linhas').as(
    db
      .select({
        // a line added by hand counts for the plan's setor
        centroId: sql<string>`coalesce(${memorandos.origemId}, (SELECT p.centro_custo_id FROM pca_planos p WHERE p.id = ${planoId}))`.as('centro_id'),
        itemId: pcaItemFontes.itemId,
        valor: sql<string>`sum(${pcaItemFontes.valorTotal})`.as('valor'),
      })
      .from(pcaItemFontes)
      .innerJoin(pcaItens, eq(pcaItens.id, pcaItemFontes.itemId))
      .leftJoin(memorandos, eq(memorandos.id, pcaItemFontes.memorandoId))
      .where(eq(pcaItens.planoId, planoId))
      .groupBy(sql`1`, pcaItemFontes.itemId),
  );
  const valorUnidade = sql<string>`sum(${linhas.valor})`;
  const porUnidade = await db
    .with(linhas)
    .select({ rotulo: centrosCusto.nome, itens: sql<number>`count(DISTINCT ${linhas.itemId})::int`, valor: sql<string>`${valorUnidade}::text` })
    .from(linhas)
    .innerJoin(centrosCusto, eq(centrosCusto.id, linhas.centroId))
    .groupBy(centrosCusto.nome)
    .orderBy(desc(valorUnidade), asc(centrosCusto.nome));
  return {
    porCategoria: porCategoria.map((c): TotalDoPlano => ({ rotulo: categorias[c.categoria] ?? String(c.categoria), itens: c.itens, valor: c.valor })),
    porUnidade: porUnidade as TotalDoPlano[],
  };
}
