// Cotações at /reports (the kit's RELATORIOS point), read in the person's centros de custo (as the list):
// - 'cotacoes.cotacoes': each cotação with its items, its valid prices (the rules of avaliarCotacao in
//   SQL: not excluded by a decision, and either included by a decision or neither older than its
//   source's limit — IDADE_MAXIMA_MESES, the São Paulo day of the collection against the reference
//   date — nor a supplier quote expired before it), its items short of MINIMO_PRECOS valid prices
//   (filter 'precos=poucos', the home page's indicator) and its estimated value; the mapa comparativo and
//   the memória de cálculo of each one are downloaded from its page.
// - 'cotacoes.requisicoes-sem-cotacao' (group 'Pendências'): requisições aprovadas with no live
//   cotação (one linked by the header or by an item; a cancelled one does not count), with their age
//   in days from the requisição's date to today in America/Sao_Paulo.
import { TIME_ZONE, today } from '@app/br';
import { formatNumero } from '@app/documents';
import { centroCustoFiltro, centrosCusto } from '@app/registros/server';
import { requisicoes } from '@app/requisicoes/server';
import { centroCustoScope, defineReport } from '@app/server-core';
import { and, asc, eq, gte, lte, sql } from '@app/server-core/orm';
import { COTACOES_TAG, type CotacaoStatus, IDADE_MAXIMA_MESES, MINIMO_PRECOS, fluxoCotacao } from '../shared/index.js';
import { cotacaoItens, cotacaoPrecos, cotacoes } from './tables.js';

// Constants of the code only (never input): the age limit of each source, in months.
const ZONA = sql.raw(`'${TIME_ZONE}'`);
const LIMITE_MESES = sql.raw(
  `CASE cp.fonte ${Object.entries(IDADE_MAXIMA_MESES)
    .map(([fonte, meses]) => `WHEN '${fonte}' THEN ${meses === null ? 'NULL' : meses}`)
    .join(' ')} END`,
);

/** A price (alias cp) of the cotação that counts in the statistics (SituacaoPreco.valido). */
const precoValido = sql`coalesce(cp.exclusao_motivo, '') = ''
     AND (
       coalesce(cp.inclusao_motivo, '') <> ''
       OR (
         (${LIMITE_MESES} IS NULL
           OR (cp.data_coleta AT TIME ZONE ${ZONA})::date >= (${cotacoes.dataReferencia} - make_interval(months => ${LIMITE_MESES}))::date)
         AND NOT (cp.fonte = 'fornecedor' AND cp.validade IS NOT NULL AND cp.validade < ${cotacoes.dataReferencia})
       )
     )`;

/** Prices of the cotação's items that count in the statistics. */
const precosValidos = sql<number>`(
  SELECT count(*)::int FROM ${cotacaoPrecos} cp
   WHERE cp.cotacao_id = ${cotacoes.id}
     AND EXISTS (SELECT 1 FROM ${cotacaoItens} ci WHERE ci.cotacao_id = cp.cotacao_id AND ci.produto_id = cp.produto_id)
     AND ${precoValido}
)`;

/** Items of the cotação with fewer than MINIMO_PRECOS valid prices (avaliarCotacao's menosDeTres). */
export const itensAbaixoDoMinimo = sql<number>`(
  SELECT count(*)::int FROM ${cotacaoItens} ci
   WHERE ci.cotacao_id = ${cotacoes.id}
     AND (SELECT count(*) FROM ${cotacaoPrecos} cp WHERE cp.cotacao_id = ci.cotacao_id AND cp.produto_id = ci.produto_id AND ${precoValido}) < ${MINIMO_PRECOS}
)`;

export const cotacoesRelatorio = defineReport({
  id: 'cotacoes.cotacoes',
  title: 'Cotações: mapa comparativo e memória de cálculo',
  description:
    'Cada cotação do período com a secretaria, o objeto, a situação, os itens, os preços válidos (os que entram no cálculo) e o valor estimado. O mapa comparativo e a memória de cálculo de cada cotação são baixados na página da cotação.',
  group: 'Cotações',
  tag: COTACOES_TAG,
  filters: [
    { name: 'de', label: 'Data inicial', kind: 'date' },
    { name: 'ate', label: 'Data final', kind: 'date', notBefore: 'de' },
    centroCustoFiltro,
    { name: 'situacao', label: 'Situação', kind: 'select', options: Object.entries(fluxoCotacao.states).map(([value, s]) => ({ value, label: s.label })) },
    { name: 'precos', label: 'Preços válidos', kind: 'select', options: [{ value: 'poucos', label: `Com item abaixo de ${MINIMO_PRECOS} preços válidos` }] },
  ],
  columns: [
    { key: 'numero', label: 'Número' },
    { key: 'data', label: 'Data', type: 'date' },
    { key: 'secretaria', label: 'Secretaria' },
    { key: 'objeto', label: 'Objeto' },
    { key: 'situacao', label: 'Situação' },
    { key: 'itens', label: 'Itens', type: 'integer', total: true },
    { key: 'precosValidos', label: 'Preços válidos', type: 'integer', total: true },
    { key: 'itensAbaixo', label: `Itens com menos de ${MINIMO_PRECOS} preços`, type: 'integer', total: true },
    { key: 'valor', label: 'Valor estimado', type: 'money', total: true },
  ],
  orientation: 'landscape',
  async load(ctx, f, limit) {
    const rows = await ctx.db
      .select({
        numero: cotacoes.numero,
        ano: cotacoes.ano,
        data: cotacoes.data,
        secretaria: centrosCusto.nome,
        objeto: cotacoes.objeto,
        status: cotacoes.status,
        itens: sql<number>`(SELECT count(*)::int FROM ${cotacaoItens} ci WHERE ci.cotacao_id = ${cotacoes.id})`,
        precosValidos,
        itensAbaixo: itensAbaixoDoMinimo,
        valor: sql<string>`${cotacoes.valorTotal}::text`,
      })
      .from(cotacoes)
      .innerJoin(centrosCusto, eq(centrosCusto.id, cotacoes.centroCustoId))
      .where(
        and(
          eq(cotacoes.entidadeId, ctx.entidadeId),
          centroCustoScope(ctx, cotacoes.centroCustoId),
          f.de ? gte(cotacoes.data, f.de) : undefined,
          f.ate ? lte(cotacoes.data, f.ate) : undefined,
          f.centro ? eq(cotacoes.centroCustoId, f.centro) : undefined,
          f.situacao ? eq(cotacoes.status, f.situacao as CotacaoStatus) : undefined,
          f.precos === 'poucos' ? sql`${itensAbaixoDoMinimo} > 0` : undefined,
        ),
      )
      .orderBy(asc(cotacoes.data), asc(cotacoes.ano), asc(cotacoes.numero))
      .limit(limit);
    return rows.map(({ numero, ano, status, ...r }) => ({
      ...r,
      numero: formatNumero(numero, ano),
      situacao: fluxoCotacao.states[status].label,
      itens: Number(r.itens),
      precosValidos: Number(r.precosValidos),
      itensAbaixo: Number(r.itensAbaixo),
    }));
  },
});

export const requisicoesSemCotacao = defineReport({
  id: 'cotacoes.requisicoes-sem-cotacao',
  title: 'Requisições aprovadas sem cotação',
  description:
    'Requisições aprovadas que ainda não têm cotação (uma cancelada não conta), com a idade em dias desde a data da requisição; as dos seus centros de custo.',
  group: 'Pendências',
  tag: COTACOES_TAG,
  filters: [centroCustoFiltro],
  columns: [
    { key: 'documento', label: 'Documento' },
    { key: 'data', label: 'Data', type: 'date' },
    { key: 'secretaria', label: 'Secretaria' },
    { key: 'solicitante', label: 'Solicitante' },
    { key: 'objeto', label: 'Objeto' },
    { key: 'situacao', label: 'Situação' },
    { key: 'idade', label: 'Idade (dias)', type: 'integer' },
  ],
  orientation: 'landscape',
  async load(ctx, f, limit) {
    const rows = await ctx.db
      .select({
        numero: requisicoes.numero,
        ano: requisicoes.ano,
        data: requisicoes.data,
        secretaria: centrosCusto.nome,
        solicitante: requisicoes.solicitanteNome,
        objeto: requisicoes.justificativa,
        idade: sql<number>`(${today()}::date - ${requisicoes.data})::int`,
      })
      .from(requisicoes)
      .innerJoin(centrosCusto, eq(centrosCusto.id, requisicoes.centroCustoId))
      .where(
        and(
          eq(requisicoes.entidadeId, ctx.entidadeId),
          eq(requisicoes.status, 'aprovada'),
          centroCustoScope(ctx, requisicoes.centroCustoId),
          f.centro ? eq(requisicoes.centroCustoId, f.centro) : undefined,
          sql`NOT EXISTS (
            SELECT 1 FROM ${cotacoes} c
             WHERE c.status <> 'cancelada'
               AND (c.requisicao_id = ${requisicoes.id}
                 OR EXISTS (SELECT 1 FROM ${cotacaoItens} ci JOIN requisicao_itens ri ON ri.id = ci.requisicao_item_id
                             WHERE ci.cotacao_id = c.id AND ri.requisicao_id = ${requisicoes.id})))`,
        ),
      )
      .orderBy(asc(requisicoes.data), asc(requisicoes.ano), asc(requisicoes.numero))
      .limit(limit);
    return rows.map(({ numero, ano, ...r }) => ({ ...r, documento: formatNumero(numero, ano), situacao: 'Aprovada, sem cotação', idade: Number(r.idade) }));
  },
});
