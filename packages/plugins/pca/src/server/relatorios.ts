// The PCA at /reports (the kit's RELATORIOS point): what each year's plans set aside per category and per
// requesting unit, and the calendar of the year's items by desired date; every row in the person's plans.
import { today } from '@app/br';
import { formatNumero } from '@app/documents';
import { memorandos } from '@app/memorandos/server';
import { centrosCusto } from '@app/registros/server';
import { type ReportFilter, type ReportFilters, type RequestContext, centroCustoScope, defineReport } from '@app/server-core';
import { and, asc, count, eq, isNull, ne, sql, sum } from '@app/server-core/orm';
import { CATEGORIA_ITEM_PCA, PCA_APROVAR_TAG, PCA_TAG, type PcaStatus, fluxo } from '../shared/index.js';
import { colunas, pcaContratacoes, pcaItemFontes, pcaItens, pcaPlanos } from './tables.js';

/** The plans the person reads (the list, these reports, the home page's indicator): the autoridade competente every one, the setor those of its centros. */
export const escopoDosPlanos = (ctx: RequestContext) => (ctx.hasTag(PCA_APROVAR_TAG) ? undefined : centroCustoScope(ctx, pcaPlanos.centroCustoId));

/** Where the reports are listed, and who reads them. */
const doPca = { group: 'Plano de Contratações Anual', tag: PCA_TAG };

const anoFiltro: ReportFilter = { name: 'ano', label: 'Ano do plano', kind: 'ano', required: true, default: () => String(Number(today().slice(0, 4)) + 1) };
const situacaoFiltro: ReportFilter = {
  name: 'situacao',
  label: 'Situação do plano',
  kind: 'select',
  options: Object.entries(fluxo.states)
    .filter(([s]) => s !== 'cancelado')
    .map(([value, s]) => ({ value, label: s.label })),
};

/** The year's items that stand in the person's plans: the plan of the year, not cancelled, in the situação asked, the item not refused. */
const itensDoAno = (ctx: RequestContext, f: ReportFilters) =>
  and(
    eq(pcaPlanos.entidadeId, ctx.entidadeId),
    eq(pcaPlanos.anoPca, Number(f.ano)),
    ne(pcaPlanos.status, 'cancelado'),
    f.situacao ? eq(pcaPlanos.status, f.situacao as PcaStatus) : undefined,
    isNull(pcaItens.recusaMotivo),
    escopoDosPlanos(ctx),
  );

export const pcaPorCategoria = defineReport({
  id: 'pca.por-categoria',
  title: 'Plano de Contratações Anual por categoria',
  description: 'Itens e valor de cada plano do ano por categoria do PCA, sem os itens recusados pela autoridade nem os planos cancelados.',
  ...doPca,
  filters: [anoFiltro, situacaoFiltro],
  columns: [
    { key: 'plano', label: 'Plano' },
    { key: 'situacao', label: 'Situação' },
    { key: 'categoria', label: 'Categoria' },
    { key: 'itens', label: 'Itens', type: 'integer', total: true },
    { key: 'valor', label: 'Valor estimado', type: 'money', total: true },
  ],
  async load(ctx, f, limit) {
    const rows = await ctx.db
      .select({
        ...colunas(pcaPlanos, ['numero', 'ano', 'status']),
        categoria: pcaItens.categoriaItemPca,
        itens: count(),
        valor: sum(pcaItens.valorTotal),
      })
      .from(pcaItens)
      .innerJoin(pcaPlanos, eq(pcaPlanos.id, pcaItens.planoId))
      .where(itensDoAno(ctx, f))
      .groupBy(pcaPlanos.numero, pcaPlanos.ano, pcaPlanos.status, pcaItens.categoriaItemPca)
      .orderBy(asc(pcaPlanos.ano), asc(pcaPlanos.numero), asc(pcaItens.categoriaItemPca))
      .limit(limit);
    return rows.map((r) => ({
      plano: formatNumero(r.numero, r.ano),
      situacao: fluxo.states[r.status as PcaStatus].label,
      categoria: CATEGORIA_ITEM_PCA[r.categoria] ?? String(r.categoria),
      itens: r.itens,
      valor: r.valor ?? '0',
    }));
  },
});

// The requesting unit of each part of an item: the origin of the DFD its line came from; a line the
// setor added by hand (or an item without lines) counts for the plan's setor, as the plan's totals do.
const unidadeDaLinha = sql`coalesce(${memorandos.origemId}, ${pcaPlanos.centroCustoId})`;

export const pcaPorUnidade = defineReport({
  id: 'pca.por-unidade',
  title: 'PCA por unidade requisitante',
  description:
    'Itens, contratações planejadas e valor estimado que cada unidade requisitante pediu nos planos do ano (pelas linhas dos DFD), sem os itens recusados nem os planos cancelados. Um item pedido por duas unidades conta em cada uma, com a parte dela.',
  ...doPca,
  filters: [anoFiltro, situacaoFiltro],
  // the value is the one total: an item (and its contratação) asked by two units is in both rows, so the
  // sum of these counts would overstate the plan's; the values are each unit's part and add up to the plans'
  columns: [
    { key: 'unidade', label: 'Unidade requisitante' },
    { key: 'itens', label: 'Itens', type: 'integer' },
    { key: 'contratacoes', label: 'Contratações planejadas', type: 'integer' },
    { key: 'valor', label: 'Valor estimado', type: 'money', total: true },
  ],
  async load(ctx, f, limit) {
    const valor = sql<string>`sum(coalesce(${pcaItemFontes.valorTotal}, ${pcaItens.valorTotal}))`;
    const rows = await ctx.db
      .select({
        codigo: centrosCusto.codigo,
        nome: centrosCusto.nome,
        itens: sql<number>`count(DISTINCT ${pcaItens.id})::int`,
        contratacoes: sql<number>`count(DISTINCT ${pcaItens.contratacaoId})::int`,
        valor: sql<string | null>`${valor}::text`,
      })
      .from(pcaItens)
      .innerJoin(pcaPlanos, eq(pcaPlanos.id, pcaItens.planoId))
      .leftJoin(pcaItemFontes, eq(pcaItemFontes.itemId, pcaItens.id))
      .leftJoin(memorandos, eq(memorandos.id, pcaItemFontes.memorandoId))
      .innerJoin(centrosCusto, eq(centrosCusto.id, unidadeDaLinha))
      .where(itensDoAno(ctx, f))
      .groupBy(centrosCusto.id, centrosCusto.codigo, centrosCusto.nome)
      .orderBy(asc(centrosCusto.codigo), asc(centrosCusto.nome))
      .limit(limit);
    return rows.map((r) => ({
      unidade: `${r.codigo} – ${r.nome}`,
      itens: Number(r.itens),
      contratacoes: Number(r.contratacoes),
      valor: r.valor ?? '0',
    }));
  },
});

const MESES = ['Janeiro', 'Fevereiro', 'Março', 'Abril', 'Maio', 'Junho', 'Julho', 'Agosto', 'Setembro', 'Outubro', 'Novembro', 'Dezembro'];

export const pcaCalendario = defineReport({
  id: 'pca.calendario',
  title: 'Calendário de contratações do PCA',
  description:
    'Os itens dos planos do ano pela data desejada, com a categoria, o objeto, as unidades requisitantes, o valor estimado e a contratação planejada em que estão (início e conclusão do processo), sem os itens recusados nem os planos cancelados.',
  ...doPca,
  orientation: 'landscape',
  filters: [
    anoFiltro,
    { name: 'mes', label: 'Mês da data desejada', kind: 'select', options: MESES.map((label, i) => ({ value: String(i + 1), label })) },
    situacaoFiltro,
  ],
  columns: [
    { key: 'dataDesejada', label: 'Data desejada', type: 'date' },
    { key: 'plano', label: 'Plano' },
    { key: 'item', label: 'Item', type: 'integer' },
    { key: 'categoria', label: 'Categoria' },
    { key: 'objeto', label: 'Objeto' },
    { key: 'unidade', label: 'Unidade requisitante' },
    { key: 'contratacao', label: 'Contratação planejada' },
    { key: 'inicio', label: 'Início do processo', type: 'date' },
    { key: 'conclusao', label: 'Conclusão do processo', type: 'date' },
    { key: 'valor', label: 'Valor estimado', type: 'money', total: true },
  ],
  async load(ctx, f, limit) {
    const rows = await ctx.db
      .select({
        dataDesejada: pcaItens.dataDesejada,
        numero: pcaPlanos.numero,
        ano: pcaPlanos.ano,
        item: pcaItens.numeroItem,
        categoria: pcaItens.categoriaItemPca,
        objeto: pcaItens.descricao,
        unidade: pcaItens.unidadeRequisitante,
        contratacaoNumero: pcaContratacoes.numero,
        contratacaoTitulo: pcaContratacoes.titulo,
        inicio: pcaContratacoes.inicio,
        conclusao: pcaContratacoes.fim,
        valor: pcaItens.valorTotal,
      })
      .from(pcaItens)
      .innerJoin(pcaPlanos, eq(pcaPlanos.id, pcaItens.planoId))
      .leftJoin(pcaContratacoes, eq(pcaContratacoes.id, pcaItens.contratacaoId))
      .where(and(itensDoAno(ctx, f), f.mes ? sql`extract(month FROM ${pcaItens.dataDesejada}) = ${Number(f.mes)}` : undefined))
      // an item without a desired date (a pendência the plan is not sent with) comes last
      .orderBy(sql`${pcaItens.dataDesejada} ASC NULLS LAST`, asc(pcaPlanos.ano), asc(pcaPlanos.numero), asc(pcaItens.numeroItem))
      .limit(limit);
    return rows.map((r) => ({
      dataDesejada: r.dataDesejada,
      plano: formatNumero(r.numero, r.ano),
      item: r.item,
      categoria: CATEGORIA_ITEM_PCA[r.categoria] ?? String(r.categoria),
      objeto: r.objeto,
      unidade: r.unidade ?? '',
      contratacao: r.contratacaoNumero === null ? '' : `${r.contratacaoNumero} – ${r.contratacaoTitulo}`,
      inicio: r.inicio,
      conclusao: r.conclusao,
      valor: r.valor,
    }));
  },
});
