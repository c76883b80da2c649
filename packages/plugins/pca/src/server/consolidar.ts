// The consolidation of a plan: the lines of its live DFDs (the kit's documento_vinculos) become plan
// items, one per key (category, catálogo, classificação, Classe/Grupo, item, unit of supply): quantities
// and values summed exactly (BigInt units, 4 places: each line's value is quantidade × valor unitário
// rounded half-up to 4 places), unit value = total / quantity rounded half-up to 4 places, the earliest
// desired date, the requesting units listed; each item keeps its DFD lines (pca_item_fontes).
// A CNBS item (the product has a CATMAT/CATSER code) goes under the CNBS Classe/Grupo and PDM kept on the
// product; an own-catalogue item under its grupo. What the PNCP needs and the catalogue lacks is flagged
// on the item (`pendencias`), never invented; the plan is not sent for approval while any is left.
// Items are written anew each time; the contratação planejada an item was put in follows its key.
// The lines the setor added by hand (pca_itens_manuais) are consolidated with the DFD lines.
// A plan of 10 000 DFDs has 100 000 lines: they never travel to JavaScript. The database sums them by
// (product, category), which decides the item's key, and the items' DFD lines are written by one
// INSERT … SELECT from memorando_itens through the (product, category) → item map.
import { fromUnits, toUnits } from '@app/documents';
import { produtos } from '@app/produtos/server';
import { centrosCusto, grupos, unidades } from '@app/registros/server';
import { type DbOrTx, type Tx, documentoVinculos, liveLink } from '@app/server-core';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from '@app/server-core/orm';
import { PENDENCIA_LABEL } from '../shared/index.js';
import { colunas, pcaItens, pcaItensManuais, pcaPlanos, pcaVersoes } from './tables.js';

/** The plans' kind in documento_vinculos (defineDocumentResource's default, '<plugin><path>'). */
export const PCA_KIND = 'pca/planos';
const CHUNK = 500;
const ESCALA = 10_000n;

/** The DFDs a plan consolidates now (live links). */
export const memorandosDoPlano = (tx: Tx, planoId: string) =>
  tx
    .select({ id: documentoVinculos.fonteId })
    .from(documentoVinculos)
    .where(liveLink(PCA_KIND, { target: planoId }));

/**
 * How a line is classified, for the consolidation and for the card's Classe/Grupo filter (demandas.ts):
 * a product of the CNBS (a CATMAT/CATSER code) whose CNBS Classe/Grupo is kept goes by that Classe/Grupo,
 * any other by its own grupo.
 */
export const classificadoPelaCnbs = sql<boolean>`(${produtos.codigoCatalogo} IS NOT NULL AND ${produtos.classeCnbsCodigo} IS NOT NULL)`;

/** The catalogue's side of the products consolidated: what decides an item's key, and its pendências. */
const lerProdutos = (tx: Tx, ids: string[]) =>
  tx
    .select({
      produtoId: produtos.id,
      produtoCodigo: produtos.codigo,
      ...colunas(produtos, ['descricao', 'tipo', 'codigoCatalogo', 'classeCnbsCodigo', 'classeCnbsNome', 'pdmCodigo', 'pdmDescricao']),
      grupoCodigo: grupos.codigo,
      grupoNome: grupos.nome,
      unidade: unidades.sigla,
      cnbs: classificadoPelaCnbs,
    })
    .from(produtos)
    .leftJoin(grupos, eq(grupos.id, produtos.grupoId))
    .leftJoin(unidades, eq(unidades.id, produtos.unidadeId))
    .where(inArray(produtos.id, ids));

interface Grupo {
  item: typeof pcaItens.$inferInsert;
  quantidade: bigint;
  valor: bigint;
  centros: Set<string>;
  /** The (product, category as typed) groups of DFD lines behind the item, and the lines added by hand. */
  fontes: { produtoId: string; categoria: number | null; manualId: string | null; quantidade: bigint; valor: bigint }[];
}

/** The DFD lines of a plan's live links (its `memorando_itens`, with the documento_vinculos of the plan). */
const linhasDoPlano = (planoId: string) => sql`
  documento_vinculos JOIN memorando_itens mi ON mi.memorando_id = documento_vinculos.fonte_id AND ${liveLink(PCA_KIND, { target: planoId })}`;

export async function consolidar(tx: Tx, planoId: string, entidadeId: string): Promise<void> {
  // the DFD lines summed by (product, category as typed): each such group goes whole into one item;
  // round(q × vu, 4) is the line's value rounded half-up (positive numbers), the sums exact NUMERIC;
  // in the order of their first line (DFD year, number, line), so an item is named after its first product
  const { rows: somas } = await tx.execute<{
    produtoId: string;
    categoria: number | null;
    quantidade: string;
    valor: string;
    dataDesejada: string | null;
    origens: string[];
  }>(sql`
    SELECT mi.produto_id AS "produtoId", mi.categoria_item_pca AS categoria, sum(mi.quantidade)::text AS quantidade,
           sum(round(mi.quantidade * mi.valor_unitario, 4))::text AS valor, min(m.data_desejada)::text AS "dataDesejada",
           array_agg(DISTINCT m.origem_id)::text[] AS origens
      FROM ${linhasDoPlano(planoId)}
      JOIN memorandos m ON m.id = mi.memorando_id
     GROUP BY mi.produto_id, mi.categoria_item_pca
     ORDER BY min(ARRAY[m.ano, m.numero, mi.ordem])`);
  // the lines the setor added by hand: the plan's setor is their requesting unit
  const [{ setor } = { setor: '' }] = await tx.select({ setor: pcaPlanos.centroCustoId }).from(pcaPlanos).where(eq(pcaPlanos.id, planoId));
  const manuais = await tx
    .select({
      manualId: pcaItensManuais.id,
      quantidade: pcaItensManuais.quantidade,
      valorUnitario: pcaItensManuais.valorUnitario,
      categoria: pcaItensManuais.categoriaItemPca,
      produtoId: pcaItensManuais.produtoId,
      dataDesejada: pcaItensManuais.dataDesejada,
    })
    .from(pcaItensManuais)
    .where(eq(pcaItensManuais.planoId, planoId))
    .orderBy(asc(pcaItensManuais.id));
  const todas = [
    ...somas.map((g) => ({ ...g, quantidade: toUnits(g.quantidade, 4), valor: toUnits(g.valor, 4), manualId: null as string | null })),
    ...manuais.map((m) => {
      const quantidade = toUnits(String(m.quantidade), 4);
      const valor = (quantidade * toUnits(String(m.valorUnitario), 4) + ESCALA / 2n) / ESCALA;
      return { ...m, categoria: m.categoria as number | null, quantidade, valor, origens: [setor] };
    }),
  ];
  const produtoIds = [...new Set(todas.map((l) => l.produtoId))];
  const produtoDe = new Map<string, Awaited<ReturnType<typeof lerProdutos>>[number]>();
  for (let i = 0; i < produtoIds.length; i += CHUNK * 10)
    for (const r of await lerProdutos(tx, produtoIds.slice(i, i + CHUNK * 10))) produtoDe.set(r.produtoId, r);
  const centros = await tx.select({ id: centrosCusto.id, nome: centrosCusto.nome }).from(centrosCusto).where(eq(centrosCusto.entidadeId, entidadeId));
  const centroDe = new Map(centros.map((c) => [c.id, c.nome]));

  const grupos_ = new Map<string, Grupo>();
  for (const linha of todas) {
    const l = { ...linha, ...produtoDe.get(linha.produtoId)! };
    const categoria = l.categoria ?? (l.tipo === 'servico' ? 2 : 1);
    const catalogo = l.codigoCatalogo ? 1 : 2;
    const classificacao = l.tipo === 'servico' ? 2 : 1;
    const codigoItem = l.codigoCatalogo ?? l.produtoCodigo;
    const { cnbs } = l;
    const superior = cnbs ? { codigo: l.classeCnbsCodigo, nome: l.classeCnbsNome } : { codigo: l.grupoCodigo, nome: l.grupoNome };
    const key = [categoria, catalogo, classificacao, superior.codigo ?? '', codigoItem, l.unidade ?? ''].join('|');
    const { quantidade, valor } = l;
    let g = grupos_.get(key);
    if (!g) {
      const pendencias = [...(catalogo === 1 && !cnbs ? ['classe_cnbs'] : []), ...(superior.codigo ? [] : ['grupo']), ...(l.unidade ? [] : ['unidade'])];
      g = {
        item: {
          planoId,
          entidadeId,
          numeroItem: 0,
          categoriaItemPca: categoria,
          catalogo,
          classificacaoCatalogo: classificacao,
          classificacaoSuperiorCodigo: superior.codigo,
          classificacaoSuperiorNome: superior.nome,
          pdmCodigo: catalogo === 1 ? l.pdmCodigo : null,
          pdmDescricao: catalogo === 1 ? l.pdmDescricao : null,
          codigoItem,
          produtoId: l.produtoId,
          descricao: l.descricao,
          unidadeFornecimento: l.unidade,
          dataDesejada: l.dataDesejada,
          pendencias,
          chave: key,
          quantidade: '0',
          valorUnitario: '0',
          valorTotal: '0',
        },
        quantidade: 0n,
        valor: 0n,
        centros: new Set(),
        fontes: [],
      };
      grupos_.set(key, g);
    }
    g.quantidade += quantidade;
    g.valor += valor;
    for (const origem of l.origens) g.centros.add(centroDe.get(origem) ?? '');
    if (l.dataDesejada && (!g.item.dataDesejada || l.dataDesejada < g.item.dataDesejada)) g.item.dataDesejada = l.dataDesejada;
    g.fontes.push({ produtoId: l.produtoId, categoria: linha.categoria, manualId: l.manualId, quantidade, valor });
  }

  // items numbered by category, Classe/Grupo and description (the order of the PGC's consolidation)
  const lista = [...grupos_.values()].sort(
    (a, b) =>
      a.item.categoriaItemPca - b.item.categoriaItemPca ||
      String(a.item.classificacaoSuperiorCodigo ?? '').localeCompare(String(b.item.classificacaoSuperiorCodigo ?? '')) ||
      a.item.descricao.localeCompare(b.item.descricao, 'pt-BR'),
  );
  // once a version was approved, an item keeps its number in the next ones (the PNCP knows it by it): the
  // items of the last approved version keep theirs, new ones come after the highest; an excluded one leaves a gap
  const [ultima] = await tx
    .select({ itens: pcaVersoes.itens })
    .from(pcaVersoes)
    .where(eq(pcaVersoes.planoId, planoId))
    .orderBy(desc(pcaVersoes.versao))
    .limit(1);
  const numeroDe = new Map((ultima?.itens ?? []).map((i) => [i.chave, i.numeroItem]));
  let proximo = Math.max(0, ...numeroDe.values());
  lista.forEach((g, i) => {
    g.item.numeroItem = ultima ? (numeroDe.get(String(g.item.chave)) ?? ++proximo) : i + 1;
    g.item.quantidade = fromUnits(g.quantidade, 4);
    g.item.valorTotal = fromUnits(g.valor, 4);
    g.item.valorUnitario = fromUnits((2n * g.valor * ESCALA + g.quantidade) / (2n * g.quantidade), 4);
    g.item.unidadeRequisitante = [...g.centros]
      .sort((a, b) => a.localeCompare(b, 'pt-BR'))
      .join('; ')
      .slice(0, 255);
    if (!g.item.dataDesejada) g.item.pendencias = [...(g.item.pendencias ?? []), 'data_desejada'];
  });

  // the contratação planejada each item was put in, and the autoridade's refusal, follow its key into the new items
  const anteriores = new Map(
    (
      await tx
        .select(colunas(pcaItens, ['chave', 'contratacaoId', 'recusaMotivo', 'recusadoPor', 'recusadoEm']))
        .from(pcaItens)
        .where(and(eq(pcaItens.planoId, planoId), or(isNotNull(pcaItens.contratacaoId), isNotNull(pcaItens.recusaMotivo))))
    ).map(({ chave, ...resto }) => [chave, resto]),
  );
  for (const g of lista) Object.assign(g.item, anteriores.get(g.item.chave ?? null));
  await tx.delete(pcaItens).where(eq(pcaItens.planoId, planoId));
  const itemIds = new Map<number, string>();
  for (let start = 0; start < lista.length; start += CHUNK) {
    const ids = await tx
      .insert(pcaItens)
      .values(lista.slice(start, start + CHUNK).map((g) => g.item))
      .returning({ id: pcaItens.id, numeroItem: pcaItens.numeroItem });
    for (const r of ids) itemIds.set(r.numeroItem, r.id);
  }
  // the DFD lines behind the items, written by the database from memorando_itens through the
  // (product, category as typed) → item map; the lines added by hand from what was read
  const mapa = lista.flatMap((g) =>
    g.fontes.filter((f) => f.manualId === null).map((f) => ({ p: f.produtoId, c: f.categoria ?? 0, i: itemIds.get(g.item.numeroItem)! })),
  );
  if (mapa.length) {
    await tx.execute(sql`
      INSERT INTO pca_item_fontes (entidade_id, item_id, memorando_id, memorando_item_id, quantidade, valor_total)
      SELECT ${entidadeId}::uuid, k.i, mi.memorando_id, mi.id, mi.quantidade, round(mi.quantidade * mi.valor_unitario, 4)
        FROM ${linhasDoPlano(planoId)}
        JOIN jsonb_to_recordset(${JSON.stringify(mapa)}::jsonb) AS k(p uuid, c smallint, i uuid)
          ON k.p = mi.produto_id AND k.c = coalesce(mi.categoria_item_pca, 0)`);
  }
  const aMao = lista.flatMap((g) =>
    g.fontes
      .filter((f) => f.manualId !== null)
      .map((f) => ({ i: itemIds.get(g.item.numeroItem)!, x: f.manualId, q: fromUnits(f.quantidade, 4), v: fromUnits(f.valor, 4) })),
  );
  if (aMao.length) {
    await tx.execute(sql`
      INSERT INTO pca_item_fontes (entidade_id, item_id, manual_id, quantidade, valor_total)
      SELECT ${entidadeId}::uuid, r.i, r.x, r.q, r.v FROM jsonb_to_recordset(${JSON.stringify(aMao)}::jsonb) AS r(i uuid, x uuid, q numeric, v numeric)`);
  }
  await totalizar(tx, planoId);
}

/** The plan's total again: its items but those the autoridade refused (summed by the database, exactly). */
export const totalizar = (tx: Tx, planoId: string) =>
  tx
    .update(pcaPlanos)
    .set({
      valorTotal: sql`(SELECT coalesce(sum(${pcaItens.valorTotal}), 0) FROM ${pcaItens} WHERE ${and(eq(pcaItens.planoId, planoId), isNull(pcaItens.recusaMotivo))})`,
    })
    .where(eq(pcaPlanos.id, planoId));

/** The plan's items that lack what the PNCP requires (by number). */
export const itensPendentes = (db: DbOrTx, planoId: string) =>
  db
    .select({ numeroItem: pcaItens.numeroItem, descricao: pcaItens.descricao, pendencias: pcaItens.pendencias })
    .from(pcaItens)
    .where(and(eq(pcaItens.planoId, planoId), sql`cardinality(${pcaItens.pendencias}) > 0`))
    .orderBy(asc(pcaItens.numeroItem));

/** 'O plano não pode ser enviado: 2 itens sem o que o PNCP exige — item 1 (Papel): …; item 3 (…): ….' (the first 5 named). */
export function mensagemPendencias(itens: { numeroItem: number; descricao: string; pendencias: string[] }[]): string {
  const MAX = 5;
  // 'Produto…' → 'produto…' after the colon; 'DFD…' stays
  const minuscula = (t: string) => (/^\p{Lu}\p{Ll}/u.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t);
  const nomeados = itens
    .slice(0, MAX)
    .map((i) => `item ${i.numeroItem} (${i.descricao}): ${i.pendencias.map((p) => minuscula(PENDENCIA_LABEL[p] ?? p)).join(', ')}`);
  const mais = itens.length > MAX ? `; e mais ${itens.length - MAX}` : '';
  const quantos = itens.length === 1 ? '1 item' : `${itens.length} itens`;
  return `O plano não pode ser enviado para aprovação: ${quantos} sem o que o PNCP exige — ${nomeados.join('; ')}${mais}. Corrija o produto ou o DFD e envie de novo.`;
}
