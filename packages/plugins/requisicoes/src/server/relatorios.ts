// Reports of requisições at /reports (the kit's RELATORIOS point): read in the person's centros de custo.
// 'Por período' lists the requisições; 'Acumulado de dispensa' sums the year's requisições em aprovação
// and aprovadas per grupo of the catalogue against the dispensa limit (./dispensa.ts).
import { today } from '@app/br';
import { fromUnits, sumMoney, toUnits } from '@app/documents';
import { centroCustoFiltro, centrosCusto, grupos } from '@app/registros/server';
import { type ReportDefinition, type ReportFilters, centroCustoScope, defineReport, searchCondition } from '@app/server-core';
import { and, asc, desc, eq, gte, lte, sql } from '@app/server-core/orm';
import { CATEGORIAS, CATEGORIA_LABEL, type Categoria, REQUISICOES_TAG, type RequisicaoStatus, fluxoRequisicao, passaDoLimite } from '../shared/index.js';
import { limiteDoAno } from './dispensa.js';
import { requisicaoGrupos, requisicaoItens, requisicoes } from './tables.js';

const SITUACOES = Object.entries(fluxoRequisicao.states).map(([value, s]) => ({ value, label: s.label }));

/** A report of the plugin (tag 39, landscape) under a heading of the catalogue. */
export const relatorio = (group: string, report: Omit<ReportDefinition, 'group' | 'tag' | 'orientation'>) =>
  defineReport({ ...report, group, tag: REQUISICOES_TAG, orientation: 'landscape' });

export const requisicoesPorPeriodo = relatorio('Requisições', {
  id: 'requisicoes.por-periodo',
  title: 'Requisições por secretaria, solicitante e período',
  description: 'Cada requisição do período com a secretaria (centro de custo), o solicitante, o objeto, os itens, a situação e o valor.',
  filters: [
    { name: 'de', label: 'Data inicial', kind: 'date' },
    { name: 'ate', label: 'Data final', kind: 'date', notBefore: 'de' },
    centroCustoFiltro,
    { name: 'situacao', label: 'Situação', kind: 'select', options: SITUACOES },
    { name: 'busca', label: 'Solicitante ou objeto contém', kind: 'text' },
  ],
  columns: [
    { key: 'numero', label: 'Número' },
    { key: 'data', label: 'Data', type: 'date' },
    { key: 'centro', label: 'Secretaria' },
    { key: 'solicitante', label: 'Solicitante' },
    { key: 'objeto', label: 'Objeto' },
    { key: 'itens', label: 'Itens', type: 'integer', total: true },
    { key: 'situacao', label: 'Situação' },
    { key: 'valor', label: 'Valor', type: 'money', total: true },
  ],
  async load(ctx, f: ReportFilters, limit) {
    const rows = await ctx.db
      .select({
        numero: requisicoes.numero,
        ano: requisicoes.ano,
        data: requisicoes.data,
        centro: centrosCusto.nome,
        solicitante: requisicoes.solicitanteNome,
        objeto: requisicoes.justificativa,
        itens: sql<number>`(SELECT count(*) FROM ${requisicaoItens} WHERE ${requisicaoItens.requisicaoId} = ${requisicoes.id})::int`,
        status: requisicoes.status,
        valor: requisicoes.valorTotal,
      })
      .from(requisicoes)
      .innerJoin(centrosCusto, eq(centrosCusto.id, requisicoes.centroCustoId))
      .where(
        and(
          eq(requisicoes.entidadeId, ctx.entidadeId),
          centroCustoScope(ctx, requisicoes.centroCustoId),
          f.de ? gte(requisicoes.data, f.de) : undefined,
          f.ate ? lte(requisicoes.data, f.ate) : undefined,
          f.centro ? eq(requisicoes.centroCustoId, f.centro) : undefined,
          f.situacao ? eq(requisicoes.status, f.situacao as never) : undefined,
          searchCondition([{ expr: requisicoes.busca, normalized: true }], f.busca),
        ),
      )
      .orderBy(desc(requisicoes.data), desc(requisicoes.ano), desc(requisicoes.numero))
      .limit(limit);
    return rows.map(({ numero, ano, status, ...r }) => ({
      ...r,
      numero: `${numero}/${ano}`,
      situacao: fluxoRequisicao.states[status as RequisicaoStatus].label,
    }));
  },
});

// ---------------------------------------------------------------------------------------------
// Acumulado de dispensa (fracionamento): the year's total of each grupo of the catalogue and category

/** Percent used, in hundredths (2 places), rounded half away from zero; null without a limit above zero. */
function percentual(total: string, limite: string): string | null {
  const l = toUnits(limite, 2);
  if (l <= 0n) return null;
  const n = toUnits(total, 2) * 10000n;
  const q = n / l;
  const r = n % l;
  return fromUnits(r * 2n >= l ? q + 1n : q, 2);
}

/** At 80 % of the limit the purchase of the grupo needs attention; above the limit (not at it) it needs a licitação. */
export const SITUACAO_DISPENSA = {
  acima: 'Acima do limite',
  perto: '80 % ou mais do limite',
  abaixo: 'Abaixo de 80 % do limite',
  semLimite: 'Sem limite para o ano',
} as const;

function situacaoDispensa(total: string, limite: string | null): string {
  if (limite === null) return SITUACAO_DISPENSA.semLimite;
  if (passaDoLimite(total, limite)) return SITUACAO_DISPENSA.acima;
  // total ≥ 80 % of the limit, exactly: total × 100 ≥ limite × 80
  return toUnits(total, 2) * 100n >= toUnits(limite, 2) * 80n ? SITUACAO_DISPENSA.perto : SITUACAO_DISPENSA.abaixo;
}

export const dispensaAcumulado = relatorio('Requisições', {
  id: 'requisicoes.dispensa-acumulado',
  title: 'Acumulado de dispensa por grupo e ano',
  description:
    'Por grupo do catálogo e categoria, a soma do ano das requisições em aprovação e aprovadas, o limite de dispensa (art. 75 da Lei 14.133/2021), o saldo e o percentual usado. ' +
    'Quem vê todos os centros de custo vê o total da entidade, que é o que a lei considera; quem vê só alguns centros vê a soma das requisições dos seus centros, comparada ao mesmo limite.',
  filters: [
    { name: 'ano', label: 'Ano', kind: 'ano', required: true, default: () => today().slice(0, 4) },
    { name: 'categoria', label: 'Categoria', kind: 'select', options: CATEGORIAS.map((value) => ({ value, label: CATEGORIA_LABEL[value] })) },
    {
      name: 'situacao',
      label: 'Situação',
      kind: 'select',
      options: Object.values(SITUACAO_DISPENSA).map((label) => ({ value: label, label })),
    },
  ],
  columns: [
    { key: 'grupo', label: 'Grupo do catálogo' },
    { key: 'categoria', label: 'Categoria' },
    { key: 'requisicoes', label: 'Requisições', type: 'integer', total: true },
    { key: 'total', label: 'Total no ano', type: 'money', total: true },
    { key: 'limite', label: 'Limite', type: 'money' },
    { key: 'saldo', label: 'Saldo', type: 'money' },
    { key: 'percentual', label: 'Usado (%)', type: 'decimal', places: 2 },
    { key: 'situacao', label: 'Situação' },
  ],
  async load(ctx, f, limit) {
    const ano = Number(f.ano);
    const rows = await ctx.db
      .select({
        codigo: grupos.codigo,
        nome: grupos.nome,
        categoria: requisicaoGrupos.categoria,
        requisicoes: sql<number>`count(DISTINCT ${requisicaoGrupos.requisicaoId})::int`,
        total: sql<string>`sum(${requisicaoGrupos.valor})::text`,
      })
      .from(requisicaoGrupos)
      .innerJoin(requisicoes, eq(requisicoes.id, requisicaoGrupos.requisicaoId))
      .innerJoin(grupos, eq(grupos.id, requisicaoGrupos.grupoId))
      .where(
        and(
          eq(requisicaoGrupos.entidadeId, ctx.entidadeId),
          eq(requisicaoGrupos.ano, ano),
          eq(requisicaoGrupos.conta, true),
          f.categoria ? eq(requisicaoGrupos.categoria, f.categoria as Categoria) : undefined,
          // the entidade's total for whoever sees every centro; else only the person's centros' requisições
          centroCustoScope(ctx, requisicoes.centroCustoId),
        ),
      )
      .groupBy(grupos.codigo, grupos.nome, requisicaoGrupos.categoria)
      .orderBy(asc(grupos.codigo), asc(requisicaoGrupos.categoria));
    const limites = new Map<Categoria, string | null>();
    for (const categoria of CATEGORIAS) limites.set(categoria, (await limiteDoAno(ctx.db, ctx.entidadeId, ano, categoria))?.valor ?? null);
    const linhas = rows.map((r) => {
      const total = sumMoney([r.total]);
      const limite = limites.get(r.categoria) ?? null;
      return {
        grupo: `${r.codigo} – ${r.nome}`,
        categoria: CATEGORIA_LABEL[r.categoria],
        requisicoes: r.requisicoes,
        total,
        limite: limite === null ? null : sumMoney([limite]),
        saldo: limite === null ? null : fromUnits(toUnits(limite, 2) - toUnits(total, 2), 2),
        percentual: limite === null ? null : percentual(total, limite),
        situacao: situacaoDispensa(total, limite),
      };
    });
    return linhas.filter((l) => !f.situacao || l.situacao === f.situacao).slice(0, limit);
  },
});
