// The price history of one product: every unit price the person's documents hold for it, oldest first —
//   the prices collected in cotações (each with its source of IN 65 art. 5 and, for a supplier's quote, the
//   supplier; a price a person excluded from the calculation and the prices of cancelled cotações stay out),
//   the estimated prices of concluded cotações (the day of the conclusion) and the estimated unit values of
//   requisições past the draft (the requisição's date; cancelled ones out).
// Days in America/Sao_Paulo. Only documents of the person's centros de custo (the cotação's own centro, the
// requisição's), as in the consumption. Reads @app/cotacoes', @app/requisicoes', @app/fornecedores' and
// @app/produtos' tables, never writes them.
// Every figure is exact (BigInt units of the decimal strings, no float): the median (mean of the two middle
// prices when the count is even), the variation first → last, the band of 75% to 125% of the median outside
// which a price is atypical — the cotações' 'intervalo da mediana' rule, applied through @app/cotacoes' own
// `aplicarMetodo` — and per supplier the count, lowest, median and last price.
import { TIME_ZONE } from '@app/br';
import { cotacoes } from '@app/cotacoes/server';
import { FONTE_CURTA, type Fonte, aplicarMetodo } from '@app/cotacoes/shared';
import { fromUnits, parseCanonical, toUnits } from '@app/documents';
import { requisicoes } from '@app/requisicoes/server';
import { AppError, type RequestContext, centroCustoScope } from '@app/server-core';
import { sql } from '@app/server-core/orm';
import type { FiltrosPrecos, FornecedorPrecos, OrigemPreco, PontoPreco, Precos } from '../shared/index.js';
import { decimal } from './consumo.js';

const TZ = sql.raw(`'${TIME_ZONE}'`);
/** Unit values are numeric(15,4). */
const ESCALA = 4;

const ROTULO: Record<Exclude<OrigemPreco, 'coletado'>, string> = {
  estimado_cotacao: 'Preço estimado da cotação',
  estimado_requisicao: 'Valor estimado da requisição',
};

/** The value in units of 10^-4 (the column's scale: exact). */
const unidades = (valor: string) => toUnits(parseCanonical(valor) ?? '0', ESCALA);

/** n ÷ d rounded half away from zero (d > 0). */
function dividir(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  return (r < 0n ? -r : r) * 2n >= d ? (n < 0n ? q - 1n : q + 1n) : q;
}

/** The exact median of unit values, in units of 10^-5 (the mean of two values of scale 4 needs one more place). */
function mediana5(valores: readonly bigint[]): bigint {
  const v = [...valores].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const meio = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[meio]! * 10n : (v[meio - 1]! + v[meio]!) * 5n;
}

const texto = (u: bigint, escala: number) => decimal(fromUnits(u, escala));

/** The lowest (`sinal` 1) or highest (`sinal` −1) of a non-empty list (BigInt: Math.min does not take them). */
function extremo(valores: readonly bigint[], sinal: 1 | -1): bigint {
  let r = valores[0]!;
  for (const v of valores) if ((v - r) * BigInt(sinal) < 0n) r = v;
  return r;
}

type Linha = {
  origem: OrigemPreco;
  chave: string;
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
    SELECT origem, chave, data, valor, fonte, descricao, documento_id, numero, ano, fornecedor_id, fornecedor
      FROM pontos WHERE true${periodo}
     ORDER BY data, instante, origem, chave`);

  const serie = rows.map((r) => ({ id: `${r.origem}:${r.chave}`, valor: parseCanonical(r.valor) ?? '0' }));
  // the cotações' own rule: outside 75% to 125% of the median (nothing when no price lies inside the band)
  const atipicos = new Map(aplicarMetodo(serie, 'intervalo_mediana', false).descartados.map((d) => [d.id, d.motivo]));
  const pontos: PontoPreco[] = rows.map((r, i) => {
    const cotacao = r.origem !== 'estimado_requisicao';
    return {
      id: serie[i]!.id,
      data: r.data,
      valor: decimal(r.valor),
      origem: r.origem,
      fonte: r.origem === 'coletado' ? FONTE_CURTA[r.fonte as Fonte] : ROTULO[r.origem],
      descricao: r.descricao,
      documento: `${cotacao ? 'Cotação' : 'Requisição'} ${r.numero}/${r.ano}`,
      href: cotacao ? `/cotacao/edit/${r.documento_id}` : `/requisicao/edit/${r.documento_id}`,
      fornecedor: r.fornecedor,
      atipico: atipicos.get(serie[i]!.id) ?? null,
    };
  });

  const valores = rows.map((r) => unidades(r.valor));
  const n = valores.length;
  const m5 = n ? mediana5(valores) : null;
  const primeiro = valores[0];
  const ultimo = valores[n - 1];
  return {
    produto,
    de: f.de ?? null,
    ate: f.ate ?? null,
    pontos,
    resumo: {
      quantidade: n,
      mediana: m5 === null ? null : texto(m5, 5),
      menor: n ? texto(extremo(valores, 1), ESCALA) : null,
      maior: n ? texto(extremo(valores, -1), ESCALA) : null,
      primeiro: primeiro === undefined ? null : texto(primeiro, ESCALA),
      ultimo: ultimo === undefined ? null : texto(ultimo, ESCALA),
      // percent with two places: (último − primeiro) × 100 ÷ primeiro, in hundredths
      variacao: n >= 2 && primeiro! > 0n ? fromUnits(dividir((ultimo! - primeiro!) * 10000n, primeiro!), 2) : null,
      // 75% and 125% of the exact median: units of 10^-7
      faixa: m5 === null ? null : { inferior: texto(m5 * 75n, 7), superior: texto(m5 * 125n, 7) },
      atipicos: atipicos.size,
    },
    fornecedores: porFornecedor(rows, valores),
  };
}

/** Per supplier (the collected quotes): count, lowest, exact median and last price; lowest median first. */
function porFornecedor(rows: Linha[], valores: bigint[]): FornecedorPrecos[] {
  const grupos = new Map<string, { nome: string; valores: bigint[]; ultimaData: string }>();
  rows.forEach((r, i) => {
    if (!r.fornecedor_id) return;
    const g = grupos.get(r.fornecedor_id) ?? { nome: r.fornecedor ?? '', valores: [], ultimaData: r.data };
    g.valores.push(valores[i]!);
    g.ultimaData = r.data;
    grupos.set(r.fornecedor_id, g);
  });
  return [...grupos.values()]
    .map((g) => ({ g, m: mediana5(g.valores) }))
    .sort((a, b) => (a.m < b.m ? -1 : a.m > b.m ? 1 : a.g.nome.localeCompare(b.g.nome, 'pt-BR')))
    .map(({ g, m }) => ({
      nome: g.nome,
      quantidade: g.valores.length,
      menor: texto(extremo(g.valores, 1), ESCALA),
      mediana: texto(m, 5),
      ultimo: texto(g.valores[g.valores.length - 1]!, ESCALA),
      ultimaData: g.ultimaData,
    }));
}
