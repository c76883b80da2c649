// Statistics of a price series in exact decimals (IN 65/2021, art. 6): count, mean, median, lowest,
// highest, sample standard deviation and coefficient of variation, and the methods (média, mediana,
// menor, média saneada, intervalo da mediana). Values are canonical decimal strings; the arithmetic
// is on BigInt rationals (no float anywhere), comparisons with the standard deviation are made on
// squares (|x − média| > dp ⇔ (x − média)² > variância), and only the printed results are rounded:
// money to cents, the CV to a tenth of a percent, half away from zero.
//
// Printed values that hold a square root (the standard deviation, the CV, the bounds média ± 1 DP)
// are rounded exactly too: a value m + σ·√V (m, V rational) is compared with a candidate c without
// approximation (√V ≥ c − m ⇔ c − m ≤ 0 or V ≥ (c − m)²), so even a tie at half a cent rounds right.
//
// Média saneada with `iterar`: the first round is the rule itself (always applied, as without
// `iterar`). A further round is applied only while the coefficient of variation of what is left is
// above 25 % (compared exactly: variância > (média / 4)², no float decides), and only when it leaves
// at least MINIMO_PRECOS prices — otherwise the iteration stops and the previous round's prices stand
// (an iteration must not eat the series the law asks for). So on domain.md's example it stops after
// one round (CV 15,1 %), at 165,20. Every applied round is reported (`rodadas`: the prices it
// started with, their mean, SD and CV, the interval, what it kept and dropped) and printed in the
// memória de cálculo. A round never drops every value: Σ(x − média)² = (n − 1)·variância, so not all
// n squares can exceed the variance.
//
// Intervalo da mediana: when no price lies within median × [0,75; 1,25] (two far-apart middle values
// of an even series), nothing is dropped and the estimate is the median of all the valid prices; the
// criterio says so.
import { decimalPlaces, formatDecimal, formatMoney, fromUnits, MONEY_SCALE, parseCanonical, toUnits } from '@app/documents';
import { type Metodo, MINIMO_PRECOS } from './index.js';

/** Statistics of a series (all as canonical decimal strings, rounded only here, at the end). */
export interface Estatisticas {
  n: number;
  /** Mean, to cents. */
  media: string;
  /** Median (mean of the two middle values when n is even), to cents. */
  mediana: string;
  /** Lowest value, exact as given (normalized: '0.0125', '50'), not rounded. */
  menor: string;
  /** Highest value, exact as given (normalized), not rounded. */
  maior: string;
  /** Sample standard deviation (n − 1), to cents; '0.00' when n = 1. */
  desvioPadrao: string;
  /** Coefficient of variation in percent, one decimal ('72.2'); '0.0' when n = 1. */
  cv: string;
}

export interface ValorSerie {
  id: string;
  /** Canonical decimal string. */
  valor: string;
}

/** One applied round of the média saneada's outlier rule (média ± 1 DP of the prices it started with). */
export interface RodadaSaneamento {
  /** 1, 2, … */
  rodada: number;
  /** Statistics of the prices the round started with (n, mean, SD, CV…). */
  estatisticas: Estatisticas;
  /** média − 1 DP and média + 1 DP, to cents (the lower bound may be negative). */
  limiteInferior: string;
  limiteSuperior: string;
  /** ids kept and dropped by this round. */
  mantidos: string[];
  descartados: string[];
}

/** Why the média saneada stopped: no iteration, CV of the rest ≤ 25 %, a round dropped nothing, the
 * next round would leave fewer than MINIMO_PRECOS, or fewer than MINIMO_PRECOS were left. */
export type ParadaSaneamento = 'uma_vez' | 'cv' | 'nenhum' | 'minimo' | 'restaram';

/** Why the rounds stopped, as printed after them (mapa and memória de cálculo). */
export const PARADA_TEXTO: Record<ParadaSaneamento, string> = {
  uma_vez: 'regra aplicada uma vez (sem iteração)',
  cv: 'sem nova rodada: o CV dos restantes não passa de 25%',
  nenhum: 'a rodada seguinte não descartaria nenhum preço',
  minimo: `a rodada seguinte deixaria menos de ${MINIMO_PRECOS} preços e não foi aplicada`,
  restaram: `restaram menos de ${MINIMO_PRECOS} preços, sem nova rodada`,
};

export interface ResultadoMetodo {
  /** Estimated unit price to cents; null for an empty series. */
  valor: string | null;
  /** ids kept by the method (all, for média/mediana/menor). */
  mantidos: string[];
  /** ids dropped by the outlier rule, with the pt-BR reason ('Acima de média + 1 DP (R$ 358,60).'). */
  descartados: { id: string; motivo: string }[];
  /** Statistics of the whole series and of what was kept. */
  estatisticas: Estatisticas | null;
  estatisticasFinais: Estatisticas | null;
  /** What the method did, in pt-BR. */
  criterio: string;
  /** Média saneada: each applied round (empty for the other methods and when nothing was dropped). */
  rodadas: RodadaSaneamento[];
  /** Média saneada: why no further round was applied (null for the other methods). */
  parada: ParadaSaneamento | null;
}

// ---------------------------------------------------------------------------------------------
// Exact rationals on BigInt

/** A rational n/d with d > 0 (not reduced: the few operations per value keep the numbers small). */
interface Q {
  n: bigint;
  d: bigint;
}

function q(n: bigint, d = 1n): Q {
  if (d === 0n) throw new Error('division by zero');
  return d < 0n ? { n: -n, d: -d } : { n, d };
}

const add = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q): Q => q(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
const div = (a: Q, b: Q): Q => q(a.n * b.d, a.d * b.n);
const cmp = (a: Q, b: Q): number => {
  const x = a.n * b.d - b.n * a.d;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};
const HALF = q(1n, 2n);

/** floor(a) for a rational. */
function floorQ(a: Q): bigint {
  const t = a.n / a.d; // truncates toward zero
  return a.n < 0n && t * a.d !== a.n ? t - 1n : t;
}

/** floor(√x) for x ≥ 0 (Newton). */
function isqrt(x: bigint): bigint {
  if (x < 2n) return x;
  let r = 1n << BigInt((x.toString(2).length >> 1) + 1); // a power of two above the root
  while (r * r > x) r = (r + x / r) / 2n;
  return r;
}

/** Whether m + σ·√V ≥ c, exactly (V ≥ 0). */
function atLeast(m: Q, sigma: -1 | 0 | 1, v: Q, c: Q): boolean {
  const t = sub(c, m); // is σ·√V ≥ t ?
  if (sigma === 0) return t.n <= 0n;
  const vsT = cmp(v, mul(t, t));
  if (sigma === 1) return t.n <= 0n || vsT >= 0; // √V ≥ t
  return t.n <= 0n && vsT <= 0; // √V ≤ −t
}

/** floor(m + σ·√V), exactly. */
function floorExpr(m: Q, sigma: -1 | 0 | 1, v: Q): bigint {
  let j = floorQ(m) + BigInt(sigma) * isqrt(floorQ(v)); // within 2 of the answer
  while (!atLeast(m, sigma, v, q(j))) j -= 1n;
  while (atLeast(m, sigma, v, q(j + 1n))) j += 1n;
  return j;
}

/** m + σ·√V in units of 10^-scale, rounded half away from zero, exactly. */
function roundExpr(m: Q, sigma: -1 | 0 | 1, v: Q, scale: number): bigint {
  const f = 10n ** BigInt(scale);
  const ms = mul(m, q(f));
  const vs = mul(v, q(f * f));
  if (atLeast(ms, sigma, vs, q(0n))) return floorExpr(add(ms, HALF), sigma, vs);
  return -floorExpr(add(q(-ms.n, ms.d), HALF), sigma === 0 ? 0 : sigma === 1 ? -1 : 1, vs);
}

const money = (m: Q, sigma: -1 | 0 | 1 = 0, v: Q = q(0n)): string => fromUnits(roundExpr(m, sigma, v, MONEY_SCALE), MONEY_SCALE);

// ---------------------------------------------------------------------------------------------
// A series as integers of one common scale

interface Valor {
  id: string;
  /** The value in units of 10^-escala (exact). */
  x: bigint;
  texto: string;
}

/** Exact statistics of a (sub)series, as rationals in the values' unit (reais). */
interface Resumo {
  n: number;
  media: Q;
  variancia: Q;
  mediana: Q;
  menor: Valor;
  maior: Valor;
}

function ler(serie: readonly ValorSerie[]): { valores: Valor[]; escala: number } {
  const textos = serie.map((s) => {
    const canonical = parseCanonical(String(s.valor).trim());
    if (canonical === null) throw new Error(`valor inválido na série: ${s.valor}`);
    return canonical;
  });
  const escala = textos.reduce((max, t) => Math.max(max, decimalPlaces(t)), 0);
  return { escala, valores: serie.map((s, i) => ({ id: s.id, x: toUnits(textos[i]!, escala), texto: textos[i]! })) };
}

function resumir(valores: readonly Valor[], escala: number): Resumo | null {
  const n = valores.length;
  if (n === 0) return null;
  const unidade = 10n ** BigInt(escala);
  let soma = 0n;
  let quadrados = 0n;
  for (const v of valores) {
    soma += v.x;
    quadrados += v.x * v.x;
  }
  const N = BigInt(n);
  const media = q(soma, N * unidade);
  // Sample variance: (nΣx² − (Σx)²) / (n(n − 1)), in value units².
  const variancia = n < 2 ? q(0n) : q(N * quadrados - soma * soma, N * (N - 1n) * unidade * unidade);
  const ordenados = [...valores].sort((a, b) => (a.x < b.x ? -1 : a.x > b.x ? 1 : 0));
  const meio = Math.floor(n / 2);
  const mediana = n % 2 === 1 ? q(ordenados[meio]!.x, unidade) : q(ordenados[meio - 1]!.x + ordenados[meio]!.x, 2n * unidade);
  return { n, media, variancia, mediana, menor: ordenados[0]!, maior: ordenados[n - 1]! };
}

/** CV ≤ 25 % ⇔ variância ≤ (média / 4)², exactly. */
function cvAte25(r: Resumo): boolean {
  return cmp(r.variancia, mul(mul(r.media, r.media), q(1n, 16n))) <= 0;
}

function imprimir(r: Resumo | null): Estatisticas | null {
  if (!r) return null;
  // CV in percent = 100·√V / média = √(10⁴·V / média²); média > 0 for prices (0 only if all are 0).
  const cv = r.media.n === 0n ? 0n : roundExpr(q(0n), 1, div(mul(r.variancia, q(10000n)), mul(r.media, r.media)), 1);
  return {
    n: r.n,
    media: money(r.media),
    mediana: money(r.mediana),
    menor: r.menor.texto,
    maior: r.maior.texto,
    desvioPadrao: money(q(0n), 1, r.variancia),
    cv: fromUnits(cv, 1),
  };
}

/** Statistics of a series; null when empty. */
export function estatisticas(valores: readonly string[]): Estatisticas | null {
  const { valores: lidos, escala } = ler(valores.map((valor, i) => ({ id: String(i), valor })));
  return imprimir(resumir(lidos, escala));
}

// ---------------------------------------------------------------------------------------------
// Methods

const reais = (valor: string) => formatMoney(valor);
const pct = (cv: string) => `${formatDecimal(cv, { min: 1 })}%`;
const precos = (n: number) => (n === 1 ? '1 preço' : `${n} preços`);
const valido = (n: number) => (n === 1 ? 'do único preço válido' : `dos ${n} preços válidos`);
const mantidos = (n: number) => (n === 1 ? 'do único preço mantido' : `dos ${n} preços mantidos`);

/** A result that drops nothing: every value kept, the statistics of the whole series (null: an empty one). */
const semDescarte = (valores: readonly Valor[], geral: Estatisticas | null, valor: string | null, criterio: string): ResultadoMetodo => ({
  valor,
  mantidos: valores.map((v) => v.id),
  descartados: [],
  estatisticas: geral,
  estatisticasFinais: geral,
  criterio,
  rodadas: [],
  parada: null,
});

/** Applies a method to a series (the valid prices of one item). */
export function aplicarMetodo(serie: readonly ValorSerie[], metodo: Metodo, iterar: boolean): ResultadoMetodo {
  const { valores, escala } = ler(serie);
  const todos = resumir(valores, escala);
  if (!todos) return semDescarte(valores, null, null, 'Nenhum preço válido.');
  const geral = imprimir(todos)!;

  switch (metodo) {
    case 'media':
      return semDescarte(valores, geral, geral.media, `Média ${valido(todos.n)}: ${reais(geral.media)}.`);
    case 'mediana':
      return semDescarte(valores, geral, geral.mediana, `Mediana ${valido(todos.n)}: ${reais(geral.mediana)}.`);
    case 'menor': {
      const valor = money(q(todos.menor.x, 10n ** BigInt(escala)));
      return semDescarte(valores, geral, valor, `Menor ${valido(todos.n)}: ${reais(valor)}.`);
    }
    case 'media_saneada':
      return mediaSaneada(valores, escala, todos, geral, iterar);
    case 'intervalo_mediana':
      return intervaloMediana(valores, escala, todos, geral);
  }
}

function mediaSaneada(valores: Valor[], escala: number, todos: Resumo, geral: Estatisticas, iterar: boolean): ResultadoMetodo {
  const unidade = 10n ** BigInt(escala);
  const descartados: { id: string; motivo: string }[] = [];
  const rodadas: RodadaSaneamento[] = [];
  let atuais = valores;
  let resumo = todos;
  let parada: ParadaSaneamento = 'uma_vez';
  for (;;) {
    if (rodadas.length > 0) {
      // a further round: only with `iterar`, at least three prices left and their CV above 25 %
      const fim: ParadaSaneamento | null = !iterar ? 'uma_vez' : atuais.length < MINIMO_PRECOS ? 'restaram' : cvAte25(resumo) ? 'cv' : null;
      if (fim) {
        parada = fim;
        break;
      }
    }
    const { media, variancia } = resumo;
    const fora = (v: Valor) => {
      const d = sub(q(v.x, unidade), media);
      return cmp(mul(d, d), variancia) > 0;
    };
    const ficam = atuais.filter((v) => !fora(v));
    if (ficam.length === atuais.length) {
      parada = rodadas.length === 0 && !iterar ? 'uma_vez' : 'nenhum';
      break; // nothing (more) to drop
    }
    if (rodadas.length > 0 && ficam.length < MINIMO_PRECOS) {
      parada = 'minimo';
      break;
    }
    const numero = rodadas.length + 1;
    const inferior = money(media, -1, variancia);
    const superior = money(media, 1, variancia);
    const rodada = numero > 1 ? ` da ${numero}ª rodada` : '';
    const saem: string[] = [];
    for (const v of atuais) {
      if (!fora(v)) continue;
      saem.push(v.id);
      const abaixo = cmp(q(v.x, unidade), media) < 0;
      descartados.push({
        id: v.id,
        motivo: abaixo ? `Abaixo de média − 1 DP${rodada} (${reais(inferior)}).` : `Acima de média + 1 DP${rodada} (${reais(superior)}).`,
      });
    }
    rodadas.push({
      rodada: numero,
      estatisticas: imprimir(resumo)!,
      limiteInferior: inferior,
      limiteSuperior: superior,
      mantidos: ficam.map((v) => v.id),
      descartados: saem,
    });
    atuais = ficam;
    resumo = resumir(atuais, escala)!;
  }

  const finais = imprimir(resumo)!;
  const k = descartados.length;
  const n = rodadas.length;
  let parte1: string;
  if (n === 0) {
    const intervalo = `${reais(money(todos.media, -1, todos.variancia))} a ${reais(money(todos.media, 1, todos.variancia))}`;
    parte1 = `nenhum preço fora de média ± 1 DP (${intervalo})`;
  } else {
    const primeiroIntervalo = `${reais(rodadas[0]!.limiteInferior)} a ${reais(rodadas[0]!.limiteSuperior)}`;
    parte1 =
      n === 1
        ? `${k} de ${precos(todos.n)} fora de média ± 1 DP (${primeiroIntervalo}) ${k === 1 ? 'descartado' : 'descartados'}`
        : `${k} de ${precos(todos.n)} descartados em ${n} rodadas de média ± 1 DP (1ª rodada: ${primeiroIntervalo})`;
  }
  // with `iterar` (never 'uma_vez'), why the rounds stopped; 'nenhum' is said of the round not applied
  if (iterar && n > 0) parte1 += parada === 'nenhum' ? `; a ${n + 1}ª rodada não descartou nenhum` : `; ${PARADA_TEXTO[parada]}`;

  const usaMedia = cvAte25(resumo);
  const valor = usaMedia ? finais.media : finais.mediana;
  const restantes = n === 0 ? 'CV' : 'CV dos restantes';
  let cvTexto: string;
  if (usaMedia) cvTexto = `${restantes} ${pct(finais.cv)} ≤ 25%`;
  else if (finais.cv === '25.0') cvTexto = `${restantes} acima de 25% (${pct(finais.cv)} arredondado)`;
  else cvTexto = `${restantes} ${pct(finais.cv)} > 25%`;
  const parte2 = `${cvTexto}: ${usaMedia ? 'média' : 'mediana'} ${n === 0 ? valido(atuais.length) : mantidos(atuais.length)}, ${reais(valor)}.`;
  const idsDescartados = new Set(descartados.map((d) => d.id));
  return {
    valor,
    mantidos: valores.filter((v) => !idsDescartados.has(v.id)).map((v) => v.id),
    descartados,
    estatisticas: geral,
    estatisticasFinais: finais,
    criterio: `Média saneada: ${parte1}; ${parte2}`,
    rodadas,
    parada,
  };
}

function intervaloMediana(valores: Valor[], escala: number, todos: Resumo, geral: Estatisticas): ResultadoMetodo {
  const unidade = 10n ** BigInt(escala);
  const m = todos.mediana;
  const baixo = mul(m, q(3n, 4n));
  const alto = mul(m, q(5n, 4n));
  const faixa = `${reais(money(baixo))} a ${reais(money(alto))}`;
  const abaixo = (v: Valor) => cmp(q(v.x, unidade), baixo) < 0;
  const acima = (v: Valor) => cmp(q(v.x, unidade), alto) > 0;
  const ficam = valores.filter((v) => !abaixo(v) && !acima(v));
  if (ficam.length === 0) {
    const criterio = `Intervalo da mediana: nenhum preço entre 75% e 125% da mediana (${faixa}); usa-se a mediana ${valido(todos.n)}, ${reais(geral.mediana)}.`;
    return semDescarte(valores, geral, geral.mediana, criterio);
  }
  const descartados = valores
    .filter((v) => abaixo(v) || acima(v))
    .map((v) => ({
      id: v.id,
      motivo: abaixo(v) ? `Abaixo de 75% da mediana (${reais(money(baixo))}).` : `Acima de 125% da mediana (${reais(money(alto))}).`,
    }));
  const finais = imprimir(resumir(ficam, escala))!;
  const parte1 =
    descartados.length === 0
      ? `${todos.n === 1 ? 'o único preço está' : `os ${todos.n} preços estão`} entre 75% e 125% da mediana (${faixa})`
      : `${descartados.length} de ${precos(todos.n)} fora de 75% a 125% da mediana (${faixa}) ${descartados.length === 1 ? 'descartado' : 'descartados'}`;
  return {
    valor: finais.mediana,
    mantidos: ficam.map((v) => v.id),
    descartados,
    estatisticas: geral,
    estatisticasFinais: finais,
    criterio: `Intervalo da mediana: ${parte1}; mediana ${descartados.length === 0 ? valido(ficam.length) : mantidos(ficam.length)}, ${reais(finais.mediana)}.`,
    rodadas: [],
    parada: null,
  };
}
