// The price history of one product: every unit price the person's documents hold for it, oldest first (sent
// as columns with each repeated text once, ../shared/pontos.ts: the whole history for the chart in a
// fraction of one object per price; the page's table shows it a page at a time) —
//   the prices collected in cotações (each with its source of IN 65 art. 5 and, for a supplier's quote, the
//   supplier; a price a person excluded from the calculation and the prices of cancelled cotações stay out),
//   the estimated prices of concluded cotações (the day of the conclusion) and the estimated unit values of
//   requisições past the draft (the requisição's date; cancelled ones out).
// Days in America/Sao_Paulo. Only documents of the person's centros de custo (the cotação's own centro, the
// requisição's), as in the consumption. Reads @app/cotacoes', @app/requisicoes', @app/fornecedores' and
// @app/produtos' tables, never writes them.
// Every figure is exact (integer units of the decimal strings — in doubles below 2^53, in BigInt where a
// product may pass it; never a fractional float): the median (mean of the two middle
// prices when the count is even), the variation first → last, the band of 75% to 125% of the median outside
// which a price is atypical — the cotações' 'intervalo da mediana' rule with @app/cotacoes' `aplicarMetodo`'s
// reasons, marked in one pass (atipicosDaMediana; test/server/precos.test.ts checks it against aplicarMetodo)
// — and per supplier the count, lowest, median and last price.
import { TIME_ZONE } from '@app/br';
import { cotacoes } from '@app/cotacoes/server';
import { FONTE_CURTA, type Fonte } from '@app/cotacoes/shared';
import { formatMoney, fromUnits, parseCanonical, toUnits } from '@app/documents';
import { requisicoes } from '@app/requisicoes/server';
import { AppError, type RequestContext, centroCustoScope } from '@app/server-core';
import { sql } from '@app/server-core/orm';
import { ColetorPrecos, type FiltrosPrecos, type FornecedorPrecos, type OrigemPreco, type Precos } from '../shared/index.js';
import { decimal } from './consumo.js';

const TZ = sql.raw(`'${TIME_ZONE}'`);
/** Unit values are numeric(15,4). */
const ESCALA = 4;

const ROTULO: Record<Exclude<OrigemPreco, 'coletado'>, string> = {
  estimado_cotacao: 'Preço estimado da cotação',
  estimado_requisicao: 'Valor estimado da requisição',
};

/**
 * A unit value (numeric(15,4) as text: '26.9000') in units of 10^-4, as a double: exact, every such value
 * is below 10^15 < 2^53, so the comparisons, the sort and the median's middle values need no BigInt.
 */
export function unidades(valor: string): number {
  const ponto = valor.indexOf('.');
  const fracao = ponto < 0 ? '' : valor.slice(ponto + 1);
  // anything else than digits with at most 4 places (never from the column): the exact parser
  if (fracao.length > ESCALA || !/^\d+(\.\d*)?$/.test(valor)) return Number(toUnits(parseCanonical(valor) ?? '0', ESCALA));
  return Number((ponto < 0 ? valor : valor.slice(0, ponto)) + fracao.padEnd(ESCALA, '0'));
}

/** n ÷ d rounded half away from zero (d > 0). */
function dividir(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  return (r < 0n ? -r : r) * 2n >= d ? (n < 0n ? q - 1n : q + 1n) : q;
}

/** Unit values (units of 10^-4) in ascending order. */
const ordenar = (valores: readonly number[]) => Float64Array.from(valores).sort();

/** The exact median of sorted unit values, in units of 10^-5 (the mean of two values of scale 4 needs one more place). */
function mediana5(ordenados: Float64Array): bigint {
  const meio = ordenados.length >> 1;
  return ordenados.length % 2 === 1 ? BigInt(ordenados[meio]!) * 10n : (BigInt(ordenados[meio - 1]!) + BigInt(ordenados[meio]!)) * 5n;
}

const texto = (u: bigint | number, escala: number) => decimal(fromUnits(BigInt(u), escala));

/**
 * The atypical prices by the cotações' 'intervalo da mediana' rule (@app/cotacoes' `aplicarMetodo(serie,
 * 'intervalo_mediana')`, with the same reasons word for word), in one pass over unit values (units of 10^-4)
 * given the exact median (`m5`, units of 10^-5): below 75% or above 125% of the median — and none when no
 * price lies within the band. Compared exactly on integers: p < 0,75·m ⇔ 40·p < 3·m5 ⇔ p < ⌈3·m5 ÷ 40⌉, and
 * p > 1,25·m ⇔ 40·p > 5·m5 ⇔ p > ⌊5·m5 ÷ 40⌋. The full method (statistics of all and of the kept prices,
 * sorted twice, the memória's text) is what a cotação needs; the history only needs the marks.
 */
export function atipicosDaMediana(valores: readonly number[], m5: bigint): { motivos: (string | null)[]; quantidade: number } {
  const abaixoDe = Number((3n * m5 + 39n) / 40n);
  const acimaDe = Number((5n * m5) / 40n);
  let fora = 0;
  for (const v of valores) if (v < abaixoDe || v > acimaDe) fora += 1;
  if (fora === 0 || fora === valores.length) return { motivos: valores.map(() => null), quantidade: 0 };
  // the reasons as the cotações print them: the bound rounded to cents (half away from zero), in reais
  const abaixo = `Abaixo de 75% da mediana (${formatMoney(fromUnits(dividir(3n * m5, 4000n), 2))}).`;
  const acima = `Acima de 125% da mediana (${formatMoney(fromUnits(dividir(5n * m5, 4000n), 2))}).`;
  return { motivos: valores.map((v) => (v < abaixoDe ? abaixo : v > acimaDe ? acima : null)), quantidade: fora };
}

type Linha = {
  origem: OrigemPreco;
  data: string;
  valor: string;
  fonte: Fonte | null;
  descricao: string | null;
  documento_id: string;
  numero: number;
  ano: number;
  fornecedor_id: string | null;
  fornecedor: string | null;
};

export async function precos(ctx: RequestContext, f: FiltrosPrecos): Promise<Precos> {
  const ent = ctx.entidadeId;
  const { rows: produtos } = await ctx.db.execute<{ id: string; nome: string; unidade: string | null }>(sql`
    SELECT p.id::text, p.codigo || ' – ' || p.descricao AS nome, u.sigla AS unidade
      FROM produtos p LEFT JOIN registros_unidades u ON u.id = p.unidade_id
     WHERE p.id = ${f.produtoId} AND p.entidade_id = ${ent}`);
  const produto = produtos[0];
  if (!produto) throw new AppError(404, 'not_found', 'Produto ou serviço não encontrado.');

  const escopoCotacao = centroCustoScope(ctx, cotacoes.centroCustoId) ?? sql`true`;
  const escopoRequisicao = centroCustoScope(ctx, requisicoes.centroCustoId) ?? sql`true`;
  const periodo = sql`${f.de ? sql` AND data >= ${f.de}` : sql``}${f.ate ? sql` AND data <= ${f.ate}` : sql``}`;
  const { rows } = await ctx.db.execute<Linha>(sql`WITH pontos AS (
      SELECT 'coletado' AS origem, p.id::text AS chave, to_char(p.data_coleta AT TIME ZONE ${TZ}, 'YYYY-MM-DD') AS data, p.data_coleta AS instante,
             p.valor_unitario::text AS valor, p.fonte, p.fonte_descricao AS descricao, cotacoes.id::text AS documento_id, cotacoes.numero, cotacoes.ano,
             p.fornecedor_id::text AS fornecedor_id, f.razao_social AS fornecedor
        FROM cotacao_precos p JOIN cotacoes ON cotacoes.id = p.cotacao_id
        LEFT JOIN fornecedores f ON f.id = p.fornecedor_id
       WHERE cotacoes.entidade_id = ${ent} AND p.produto_id = ${f.produtoId} AND cotacoes.status <> 'cancelada' AND p.exclusao_motivo IS NULL
         AND ${escopoCotacao}
      UNION ALL
      SELECT 'estimado_cotacao', i.id::text, to_char(cotacoes.concluida_em AT TIME ZONE ${TZ}, 'YYYY-MM-DD'), cotacoes.concluida_em,
             i.valor_unitario::text, NULL, NULL, cotacoes.id::text, cotacoes.numero, cotacoes.ano, NULL, NULL
        FROM cotacao_itens i JOIN cotacoes ON cotacoes.id = i.cotacao_id
       WHERE cotacoes.entidade_id = ${ent} AND i.produto_id = ${f.produtoId} AND cotacoes.status = 'concluida'
         AND cotacoes.concluida_em IS NOT NULL AND i.valor_unitario > 0 AND ${escopoCotacao}
      UNION ALL
      SELECT 'estimado_requisicao', i.id::text, requisicoes.data::text, requisicoes.created_at,
             i.valor_unitario::text, NULL, NULL, requisicoes.id::text, requisicoes.numero, requisicoes.ano, NULL, NULL
        FROM requisicao_itens i JOIN requisicoes ON requisicoes.id = i.requisicao_id
       WHERE requisicoes.entidade_id = ${ent} AND i.produto_id = ${f.produtoId} AND requisicoes.status NOT IN ('rascunho', 'cancelada')
         AND i.valor_unitario > 0 AND ${escopoRequisicao}
    )
    SELECT origem, data, valor, fonte, descricao, documento_id, numero, ano, fornecedor_id, fornecedor
      FROM pontos WHERE true${periodo}
     ORDER BY data, instante, origem, chave`);

  const valores = rows.map((r) => unidades(r.valor));
  const n = valores.length;
  const ordenados = ordenar(valores);
  const m5 = n ? mediana5(ordenados) : null;
  // the cotações' own rule: outside 75% to 125% of the median (nothing when no price lies inside the band)
  const atipicos = m5 === null ? { motivos: [], quantidade: 0 } : atipicosDaMediana(valores, m5);
  // the prices as columns, each repeated text once (../shared/pontos.ts): a fraction of one object per price
  const coletor = new ColetorPrecos();
  rows.forEach((r, i) => {
    const cotacao = r.origem !== 'estimado_requisicao';
    coletor.add({
      data: r.data,
      valor: decimal(r.valor),
      origem: r.origem,
      fonte: r.origem === 'coletado' ? FONTE_CURTA[r.fonte as Fonte] : ROTULO[r.origem],
      descricao: r.descricao,
      documento: `${cotacao ? 'Cotação' : 'Requisição'} ${r.numero}/${r.ano}`,
      href: cotacao ? `/cotacao/edit/${r.documento_id}` : `/requisicao/edit/${r.documento_id}`,
      fornecedor: r.fornecedor,
      atipico: atipicos.motivos[i] ?? null,
    });
  });

  const primeiro = valores[0];
  const ultimo = valores[n - 1];
  return {
    produto,
    de: f.de ?? null,
    ate: f.ate ?? null,
    pontos: coletor.colunas,
    dicionarios: coletor.dicionarios,
    resumo: {
      quantidade: n,
      mediana: m5 === null ? null : texto(m5, 5),
      menor: n ? texto(ordenados[0]!, ESCALA) : null,
      maior: n ? texto(ordenados[n - 1]!, ESCALA) : null,
      primeiro: primeiro === undefined ? null : texto(primeiro, ESCALA),
      ultimo: ultimo === undefined ? null : texto(ultimo, ESCALA),
      // percent with two places: (último − primeiro) × 100 ÷ primeiro, in hundredths
      variacao: n >= 2 && primeiro! > 0 ? fromUnits(dividir((BigInt(ultimo!) - BigInt(primeiro!)) * 10000n, BigInt(primeiro!)), 2) : null,
      // 75% and 125% of the exact median: units of 10^-7
      faixa: m5 === null ? null : { inferior: texto(m5 * 75n, 7), superior: texto(m5 * 125n, 7) },
      atipicos: atipicos.quantidade,
    },
    fornecedores: porFornecedor(rows, valores),
  };
}

/** Per supplier (the collected quotes): count, lowest, exact median and last price; lowest median first. */
function porFornecedor(rows: Linha[], valores: number[]): FornecedorPrecos[] {
  const grupos = new Map<string, { nome: string; valores: number[]; ultimaData: string }>();
  rows.forEach((r, i) => {
    if (!r.fornecedor_id) return;
    let g = grupos.get(r.fornecedor_id);
    if (!g) {
      g = { nome: r.fornecedor ?? '', valores: [], ultimaData: r.data };
      grupos.set(r.fornecedor_id, g);
    }
    g.valores.push(valores[i]!);
    g.ultimaData = r.data;
  });
  return [...grupos.values()]
    .map((g) => {
      const ordenados = ordenar(g.valores);
      return { g, ordenados, m: mediana5(ordenados) };
    })
    .sort((a, b) => (a.m < b.m ? -1 : a.m > b.m ? 1 : a.g.nome.localeCompare(b.g.nome, 'pt-BR')))
    .map(({ g, ordenados, m }) => ({
      nome: g.nome,
      quantidade: g.valores.length,
      menor: texto(ordenados[0]!, ESCALA),
      mediana: texto(m, 5),
      ultimo: texto(g.valores[g.valores.length - 1]!, ESCALA),
      ultimaData: g.ultimaData,
    }));
}
