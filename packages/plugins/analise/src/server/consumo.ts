// Consumption: the items of the approved requisições, by the month of their approval in America/Sao_Paulo
// (the last approval of the round that approved them, stored by @app/requisicoes as `aprovada_em`), summed by the
// database on the numeric columns. Reads @app/requisicoes', @app/registros' and @app/produtos' tables
// (read-only, never written; the row scope through @app/requisicoes' table).
import { TIME_ZONE } from '@app/br';
import { requisicoes } from '@app/requisicoes/server';
import { type RequestContext, centroCustoScope } from '@app/server-core';
import { type SQL, sql } from '@app/server-core/orm';
import type { Consumo, DocumentosConsumo, FiltrosConsumo, Serie, Valores } from '../shared/index.js';
import { mesesDoPeriodo } from '../shared/meses.js';

const TZ = sql.raw(`'${TIME_ZONE}'`);
const LIMITE_DOCUMENTOS = 500;

/** '12.5000' → '12.50', '3.3333' stays, '0' → '0.00': 2 to 4 decimals, as the figure needs (text only, no float). */
export function decimal(text: string | null | undefined): string {
  const [inteiro = '0', fracao = ''] = (text ?? '0').split('.');
  return `${inteiro}.${fracao.replace(/0+$/, '').padEnd(2, '0')}`;
}
const ZERO: Valores = { quantidade: '0.00', valor: '0.00' };

/**
 * One line per item of an approved requisição in the period, the filters and the person's centros. The
 * approval's moment is the requisição's `aprovada_em` (@app/requisicoes keeps it in the approval's
 * transaction: the last approval of its round), read from the index requisicoes_aprovada_em_idx
 * (entidade, aprovada_em) of the approved ones — not found again from the approvals history on every read.
 * The month comes from joining the period's months (São Paulo's midnights): the planner then knows there
 * are a few of them and sums the lines in a hash by centro, grupo and month instead of sorting them all
 * (see scripts/bench-analise.mjs).
 */
function itens(ctx: RequestContext, f: FiltrosConsumo): SQL {
  const opcional = (valor: string | undefined, condicao: (v: string) => SQL) => (valor ? sql` AND ${condicao(valor)}` : sql``);
  const inicio = sql`(${`${f.de}-01`}::timestamp AT TIME ZONE ${TZ})`;
  const fim = sql`((${`${f.ate}-01`}::date + interval '1 month')::timestamp AT TIME ZONE ${TZ})`;
  const meses = `{${mesesDoPeriodo(f.de, f.ate).join(',')}}`;
  return sql`SELECT requisicoes.id, requisicoes.numero, requisicoes.ano, requisicoes.data, requisicoes.centro_custo_id, p.grupo_id,
        i.quantidade, i.valor_total, requisicoes.aprovada_em AS em, m.mes
      FROM (SELECT mes, (mes || '-01')::timestamp AT TIME ZONE ${TZ} AS inicio,
                   ((mes || '-01')::date + interval '1 month')::timestamp AT TIME ZONE ${TZ} AS fim
              FROM unnest(${meses}::text[]) mes) m
      JOIN requisicoes ON requisicoes.aprovada_em >= m.inicio AND requisicoes.aprovada_em < m.fim
      JOIN requisicao_itens i ON i.requisicao_id = requisicoes.id
      JOIN produtos p ON p.id = i.produto_id
     WHERE requisicoes.entidade_id = ${ctx.entidadeId} AND requisicoes.status = 'aprovada'
       AND requisicoes.aprovada_em >= ${inicio} AND requisicoes.aprovada_em < ${fim}
       AND ${centroCustoScope(ctx, requisicoes.centroCustoId) ?? sql`true`}
       ${opcional(f.centroCustoId, (v) => sql`requisicoes.centro_custo_id = ${v}`)}
       ${opcional(f.nucleoId, (v) => sql`requisicoes.centro_custo_id IN (SELECT centro_id FROM registros_nucleo_centros WHERE nucleo_id = ${v})`)}
       ${opcional(f.grupoId, (v) => sql`p.grupo_id = ${v}`)}
       ${opcional(f.subgrupoId, (v) => sql`p.sub_grupo_id = ${v}`)}
       ${opcional(f.produtoId, (v) => sql`i.produto_id = ${v}`)}`;
}

/** The series' key and name, by `por`, over the sums per centro, grupo and month (`base`). */
function agrupar(f: FiltrosConsumo): SQL {
  if (f.por === 'grupo') return sql`SELECT b.grupo_id::text AS chave, g.nome, b.* FROM base b JOIN registros_grupos g ON g.id = b.grupo_id`;
  if (f.por === 'nucleo') {
    return sql`SELECT n.id::text AS chave, coalesce(n.nome, 'Sem núcleo de consumo') AS nome, b.* FROM base b
      LEFT JOIN registros_nucleo_centros nc ON nc.centro_id = b.centro_custo_id${f.nucleoId ? sql` AND nc.nucleo_id = ${f.nucleoId}` : sql``}
      LEFT JOIN registros_nucleos_consumo n ON n.id = nc.nucleo_id`;
  }
  return sql`SELECT b.centro_custo_id::text AS chave, c.codigo || ' – ' || c.nome AS nome, b.* FROM base b JOIN registros_centros_custo c ON c.id = b.centro_custo_id`;
}

type Linha = { conjunto: string; chave: string | null; nome: string | null; mes: string | null; q: string | null; v: string | null; mq: string; mv: string };

export async function consumo(ctx: RequestContext, f: FiltrosConsumo): Promise<Consumo> {
  const meses = mesesDoPeriodo(f.de, f.ate);
  const n = sql`${meses.length}::numeric`;
  const somas = (conjunto: string) =>
    sql`${conjunto}::text AS conjunto, sum(quantidade)::text AS q, sum(valor_total)::text AS v,
        round(coalesce(sum(quantidade), 0) / ${n}, 4)::text AS mq, round(coalesce(sum(valor_total), 0) / ${n}, 4)::text AS mv`;
  // the lines summed once per centro, grupo and month (a few thousand rows), then the series from those sums
  const { rows } = await ctx.db.execute<Linha>(sql`WITH itens AS (${itens(ctx, f)}),
      base AS (SELECT centro_custo_id, grupo_id, mes, sum(quantidade) AS quantidade, sum(valor_total) AS valor_total
                 FROM itens GROUP BY centro_custo_id, grupo_id, mes),
      serie AS (${agrupar(f)}),
      grupo AS (SELECT b.grupo_id::text AS chave, g.nome, b.* FROM base b JOIN registros_grupos g ON g.id = b.grupo_id)
    SELECT ${somas('serie')}, chave, nome, mes FROM serie GROUP BY GROUPING SETS ((chave, nome, mes), (chave, nome))
    UNION ALL SELECT ${somas('grupo')}, chave, nome, mes FROM grupo GROUP BY GROUPING SETS ((chave, nome, mes), (chave, nome))
    UNION ALL SELECT ${somas('total')}, NULL, NULL, mes FROM base GROUP BY GROUPING SETS ((mes), ())`);

  const series = new Map<string, Serie>();
  for (const r of rows) {
    const chave = `${r.conjunto}|${r.chave ?? ''}`;
    let s = series.get(chave);
    if (!s) {
      s = { id: r.chave, nome: r.nome ?? 'Total', meses: meses.map(() => ZERO), total: ZERO, media: ZERO };
      series.set(chave, s);
    }
    const valores = { quantidade: decimal(r.q), valor: decimal(r.v) };
    if (r.mes) s.meses[meses.indexOf(r.mes)] = valores;
    else Object.assign(s, { total: valores, media: { quantidade: decimal(r.mq), valor: decimal(r.mv) } });
  }
  const de = (conjunto: string) =>
    [...series.entries()]
      .filter(([k]) => k.startsWith(`${conjunto}|`))
      .map(([, s]) => s)
      // the order only: the figures stay strings
      .sort((a, b) => Number(b.total.valor) - Number(a.total.valor) || a.nome.localeCompare(b.nome, 'pt-BR'));
  const total = series.get('total|') ?? { id: null, nome: 'Total', meses: meses.map(() => ZERO), total: ZERO, media: ZERO };
  return { de: f.de, ate: f.ate, por: f.por, meses, series: de('serie'), grupos: de('grupo'), total };
}

type Documento = {
  id: string;
  numero: number;
  ano: number;
  data: string;
  aprovada: string;
  centro: string;
  q: string;
  v: string;
  tq: string;
  tv: string;
  n: number;
};

/** The requisições behind a figure: the same filters (the series' id as its filter), one month or the whole period. */
export async function documentos(ctx: RequestContext, f: FiltrosConsumo): Promise<DocumentosConsumo> {
  const { rows } = await ctx.db.execute<Documento>(sql`WITH itens AS (${itens(ctx, f)})
    SELECT b.id, b.numero, b.ano, b.data::text AS data, to_char(max(b.em) AT TIME ZONE ${TZ}, 'YYYY-MM-DD') AS aprovada,
           c.codigo || ' – ' || c.nome AS centro, sum(b.quantidade)::text AS q, sum(b.valor_total)::text AS v,
           (sum(sum(b.quantidade)) OVER ())::text AS tq, (sum(sum(b.valor_total)) OVER ())::text AS tv, (count(*) OVER ())::int AS n
      FROM itens b JOIN registros_centros_custo c ON c.id = b.centro_custo_id
     ${f.mes ? sql`WHERE b.mes = ${f.mes}` : sql``}
     GROUP BY b.id, b.numero, b.ano, b.data, c.codigo, c.nome
     ORDER BY max(b.em), b.ano, b.numero
     LIMIT ${LIMITE_DOCUMENTOS}`);
  return {
    items: rows.map((r) => ({
      id: r.id,
      numero: `${r.numero}/${r.ano}`,
      data: r.data,
      aprovadaEm: r.aprovada,
      centroCusto: r.centro,
      quantidade: decimal(r.q),
      valor: decimal(r.v),
      href: `/requisicao/edit/${r.id}`,
    })),
    total: rows[0] ? { quantidade: decimal(rows[0].tq), valor: decimal(rows[0].tv) } : ZERO,
    quantidadeDocumentos: Number(rows[0]?.n ?? 0),
  };
}
