// The evaluation of a cotação (pure, exact decimals, the same in the browser and on the server): which
// prices count (age against the reference date, supplier quote validity, a person's decisions), the
// statistics and the estimated price per item by the cotação's method, the mapa comparativo (every
// item × every invited supplier), the winner per item and the totals. The server loads the rows and
// calls `avaliarCotacao`; the mapa, the memória de cálculo and the conclusion all read its answer.
//
// Winners: a price dropped by the method's outlier rule ('estatistica') is out of the default winner
// and of the highlighted lowest prices — IN 65 discards 'inexequíveis ou excessivamente elevados', and
// a price too low to be believed must not win by default. A person may still choose it (any valid
// supplier price of the item, outlier or not) with a reason, which is recorded and printed. A choice
// that no longer points at a valid supplier price of the item (excluded, old, expired, removed) is
// ignored and the default winner stands.
import { formatDate, today } from '@app/br';
import { decimalPlaces, fromUnits, lineTotal, MONEY_SCALE, sumMoney, toUnits } from '@app/documents';
import { aplicarMetodo, type Estatisticas, type ParadaSaneamento, type RodadaSaneamento } from './estatistica.js';
import { IDADE_MAXIMA_MESES, MINIMO_PRECOS, type Metodo } from './index.js';

/** One item of the cotação as the evaluation needs it. */
export interface ItemAvaliado {
  produtoId: string;
  ordem: number;
  codigo: string;
  descricao: string;
  unidade: string;
  /** Canonical decimal string, numeric(15,4). */
  quantidade: string;
}

/** One price (any source) as the evaluation needs it. */
export interface PrecoAvaliado {
  id: string;
  produtoId: string;
  fonte: 'painel' | 'contrato' | 'midia' | 'fornecedor' | 'nota_fiscal';
  /** Supplier of a 'fornecedor' price. */
  fornecedorId: string | null;
  /** Canonical decimal string, numeric(15,4). */
  valorUnitario: string;
  /** ISO date-time (UTC) of the collection or of the document. */
  dataColeta: string;
  /** 'aaaa-mm-dd': validity of a supplier quote (null: not stated). */
  validade: string | null;
  /** A person included the price despite its age or validity (with this reason). */
  inclusaoMotivo: string | null;
  /** A person excluded the price (with this reason). */
  exclusaoMotivo: string | null;
}

export interface FornecedorAvaliado {
  fornecedorId: string;
  nome: string;
  situacao: 'convidado' | 'respondeu' | 'nao_respondeu';
}

/** A winner chosen by a person instead of the lowest valid supplier price. */
export interface VencedorEscolhido {
  produtoId: string;
  precoId: string;
  motivo: string;
}

export interface EntradaAvaliacao {
  /** 'aaaa-mm-dd' (America/Sao_Paulo): the ages are counted back from it. */
  dataReferencia: string;
  metodo: Metodo;
  /** Whether the outlier rule of 'media_saneada' repeats while the CV of what is left is above 25 % (never below three prices). */
  iterar: boolean;
  itens: ItemAvaliado[];
  precos: PrecoAvaliado[];
  fornecedores: FornecedorAvaliado[];
  vencedores: VencedorEscolhido[];
}

/**
 * Why a price is out, in order of precedence: 'manual' (a person, `motivo` typed), 'antigo' (older
 * than its source's limit and not included), 'vencido' (a quote whose validity ended before the
 * reference date and not included), 'estatistica' (dropped by the method's outlier rule).
 */
export interface SituacaoPreco {
  precoId: string;
  /** Counts in the statistics of its item. */
  valido: boolean;
  /** Used by the method's result (valid and not dropped as an outlier). */
  usado: boolean;
  exclusao: 'manual' | 'antigo' | 'vencido' | 'estatistica' | null;
  /** pt-BR, printed in the mapa and the memória: 'Anterior a 6 meses da data de referência (12/05/2026).' */
  motivo: string | null;
  /** Old or expired but included by a person (the reason is the price's inclusaoMotivo). */
  incluidoPorDecisao: boolean;
}

export interface ResultadoItem {
  produtoId: string;
  /** Statistics over the valid prices (before the outlier rule). null: no valid price. */
  estatisticas: Estatisticas | null;
  /** Statistics over the prices the method kept (média saneada, intervalo da mediana); else = estatisticas. */
  estatisticasFinais: Estatisticas | null;
  /** The estimated unit price rounded to cents ('165.20'); null when no valid price. */
  valorEstimado: string | null;
  /** quantidade × valorEstimado, cents; null when no estimate. */
  valorTotal: string | null;
  /** What the method did, in pt-BR ('CV dos restantes 15,1% ≤ 25%: média dos 5 preços mantidos.'). */
  criterio: string;
  /** Média saneada: each applied round (prices it started with, mean, SD, CV, kept and dropped ids). */
  rodadas: RodadaSaneamento[];
  /** Média saneada: why no further round was applied; null for the other methods. */
  parada: ParadaSaneamento | null;
  /** Fewer than MINIMO_PRECOS valid prices. */
  menosDeTres: boolean;
  /** Winner: the lowest valid supplier price, or the person's choice. */
  vencedor: { precoId: string; fornecedorId: string; valorUnitario: string; valorTotal: string; escolhido: boolean; motivo: string | null } | null;
  /** precoIds of the lowest valid supplier price(s) (ties: all highlighted). */
  menores: string[];
}

export interface TotalFornecedor {
  fornecedorId: string;
  /** Σ quantity × unit price of the items this supplier quoted validly (cents). */
  totalCotado: string;
  /** Σ of the items it wins (cents). */
  totalVencido: string;
  itensCotados: number;
  itensVencidos: number;
}

export interface Avaliacao {
  precos: SituacaoPreco[];
  itens: ResultadoItem[];
  fornecedores: TotalFornecedor[];
  /** Σ of the items' valorTotal (cents): the cotação's estimated total. */
  valorEstimadoTotal: string;
  /** Σ of the winners' totals (cents). */
  valorVencedoresTotal: string;
  /** produtoIds of the items with fewer than three valid prices. */
  itensMenosDeTres: string[];
}

/**
 * 'aaaa-mm-dd' of the oldest date still valid for a source (reference date minus its months, the day
 * clamped to the month's end: 31/08 − 6 months = 28/02 or 29/02), or null when the source has no limit.
 */
export function limiteDeIdade(dataReferencia: string, fonte: PrecoAvaliado['fonte']): string | null {
  const meses = IDADE_MAXIMA_MESES[fonte];
  if (meses === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dataReferencia);
  if (!m) throw new Error(`data de referência inválida: ${dataReferencia}`);
  const total = Number(m[1]) * 12 + (Number(m[2]) - 1) - meses;
  const ano = Math.floor(total / 12);
  const mes = total - ano * 12 + 1;
  const dia = Math.min(Number(m[3]), diasNoMes(ano, mes));
  return `${String(ano).padStart(4, '0')}-${String(mes).padStart(2, '0')}-${String(dia).padStart(2, '0')}`;
}

function diasNoMes(ano: number, mes: number): number {
  const bissexto = (ano % 4 === 0 && ano % 100 !== 0) || ano % 400 === 0;
  return [31, bissexto ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mes - 1]!;
}

/** The calendar day of a price in São Paulo: a date-only string as is, an instant on São Paulo's clock. */
function diaDoPreco(dataColeta: string): string {
  const texto = dataColeta.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(texto)) return texto;
  const instante = new Date(texto);
  if (Number.isNaN(instante.getTime())) throw new Error(`data de coleta inválida: ${dataColeta}`);
  return today(instante);
}

const prazo = (meses: number) => (meses % 12 === 0 ? (meses === 12 ? '1 ano' : `${meses / 12} anos`) : `${meses} meses`);

/** Why a price is out before the statistics (manual, age, validity), or why it counts despite them. */
function situacaoInicial(preco: PrecoAvaliado, dataReferencia: string, diaDe: (dataColeta: string) => string): SituacaoPreco {
  const base = { precoId: preco.id, valido: true, usado: true, exclusao: null, motivo: null, incluidoPorDecisao: false } satisfies SituacaoPreco;
  const fora = { ...base, valido: false, usado: false };
  if (preco.exclusaoMotivo) return { ...fora, exclusao: 'manual', motivo: `Excluído por decisão: ${preco.exclusaoMotivo}` };
  const incluido = Boolean(preco.inclusaoMotivo);
  const limite = limiteDeIdade(dataReferencia, preco.fonte);
  const dia = limite === null ? null : diaDe(preco.dataColeta);
  const antigo = limite !== null && dia! < limite;
  const vencido = preco.fonte === 'fornecedor' && preco.validade !== null && preco.validade < dataReferencia;
  if (antigo && !incluido) {
    const meses = IDADE_MAXIMA_MESES[preco.fonte]!;
    return {
      ...fora,
      exclusao: 'antigo',
      motivo: `Preço de ${formatDate(dia!)}, anterior a ${prazo(meses)} da data de referência (${formatDate(dataReferencia)}); o mais antigo aceito é de ${formatDate(limite!)}.`,
    };
  }
  if (vencido && !incluido) {
    return {
      ...fora,
      exclusao: 'vencido',
      motivo: `Proposta válida até ${formatDate(preco.validade!)}, antes da data de referência (${formatDate(dataReferencia)}).`,
    };
  }
  return { ...base, incluidoPorDecisao: incluido && (antigo || vencido) };
}

let collator: Intl.Collator | undefined;

/** The value of `key` in `map`, made by `criar` the first time it is asked. */
function doMapa<V>(map: Map<string, V>, key: string, criar: () => V): V {
  if (!map.has(key)) map.set(key, criar());
  return map.get(key)!;
}

/** Evaluates a whole cotação (see the module comment). */
export function avaliarCotacao(entrada: EntradaAvaliacao): Avaliacao {
  // Many prices share an instant (a supplier's answer): read each instant's São Paulo day once.
  const dias = new Map<string, string>();
  const diaDe = (dataColeta: string) => doMapa(dias, dataColeta, () => diaDoPreco(dataColeta));
  const situacoes = new Map<string, SituacaoPreco>();
  const porItem = new Map<string, PrecoAvaliado[]>();
  for (const preco of entrada.precos) {
    situacoes.set(preco.id, situacaoInicial(preco, entrada.dataReferencia, diaDe));
    doMapa(porItem, preco.produtoId, () => []).push(preco);
  }

  // Supplier prices in winning order: price, then the supplier's name (pt-BR), then ids (deterministic).
  const escala = entrada.precos.reduce((max, p) => Math.max(max, decimalPlaces(p.valorUnitario)), 0);
  const chaves = new Map(entrada.precos.map((p) => [p.id, toUnits(p.valorUnitario, escala)]));
  const nomes = new Map(entrada.fornecedores.map((f) => [f.fornecedorId, f.nome]));
  collator ??= new Intl.Collator('pt-BR');
  const porId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const ordemFornecedor = (a: PrecoAvaliado, b: PrecoAvaliado) => {
    const ka = chaves.get(a.id)!;
    const kb = chaves.get(b.id)!;
    if (ka !== kb) return ka < kb ? -1 : 1;
    return (
      collator!.compare(nomes.get(a.fornecedorId!) ?? '', nomes.get(b.fornecedorId!) ?? '') || porId(a.fornecedorId!, b.fornecedorId!) || porId(a.id, b.id)
    );
  };
  const escolhas = new Map(entrada.vencedores.map((v) => [v.produtoId, v]));

  // Supplier totals in cents.
  const totais = new Map<string, { cotado: bigint; vencido: bigint; itensCotados: number; itensVencidos: number }>();
  const totalDe = (fornecedorId: string) => doMapa(totais, fornecedorId, () => ({ cotado: 0n, vencido: 0n, itensCotados: 0, itensVencidos: 0 }));
  for (const f of entrada.fornecedores) totalDe(f.fornecedorId);

  const itens: ResultadoItem[] = [];
  for (const item of [...entrada.itens].sort((a, b) => a.ordem - b.ordem)) {
    const precos = porItem.get(item.produtoId) ?? [];
    const validos = precos.filter((p) => situacoes.get(p.id)!.valido);
    const resultado = aplicarMetodo(
      validos.map((p) => ({ id: p.id, valor: p.valorUnitario })),
      entrada.metodo,
      entrada.iterar,
    );
    for (const d of resultado.descartados) {
      const s = situacoes.get(d.id)!;
      situacoes.set(d.id, { ...s, usado: false, exclusao: 'estatistica', motivo: d.motivo });
    }

    // Supplier prices: valid ones may be chosen by a person; used ones (not outliers) compete by default.
    const validosFornecedor = validos.filter((p) => p.fonte === 'fornecedor' && p.fornecedorId !== null).sort(ordemFornecedor);
    const elegiveis = validosFornecedor.filter((p) => situacoes.get(p.id)!.usado);
    const menor = elegiveis[0];
    const menores = menor ? elegiveis.filter((p) => chaves.get(p.id) === chaves.get(menor.id)).map((p) => p.id) : [];

    const escolha = escolhas.get(item.produtoId);
    const escolhido = escolha ? validosFornecedor.find((p) => p.id === escolha.precoId) : undefined;
    const vencedorPreco = escolhido ?? menor;
    const vencedor = vencedorPreco
      ? {
          precoId: vencedorPreco.id,
          fornecedorId: vencedorPreco.fornecedorId!,
          valorUnitario: vencedorPreco.valorUnitario,
          valorTotal: lineTotal(item.quantidade, vencedorPreco.valorUnitario),
          escolhido: escolhido !== undefined,
          motivo: escolhido ? escolha!.motivo : null,
        }
      : null;

    // Per supplier: its lowest valid price of the item (one per supplier is the rule; the lowest if more).
    const cotados = new Set<string>();
    for (const p of validosFornecedor) {
      if (cotados.has(p.fornecedorId!)) continue;
      cotados.add(p.fornecedorId!);
      const t = totalDe(p.fornecedorId!);
      t.cotado += toUnits(lineTotal(item.quantidade, p.valorUnitario), MONEY_SCALE);
      t.itensCotados += 1;
    }
    if (vencedor) {
      const t = totalDe(vencedor.fornecedorId);
      t.vencido += toUnits(vencedor.valorTotal, MONEY_SCALE);
      t.itensVencidos += 1;
    }

    // the method's statistics, criterion and rounds as it gave them
    const { valor, mantidos: _mantidos, descartados: _descartados, ...metodo } = resultado;
    itens.push({
      produtoId: item.produtoId,
      ...metodo,
      valorEstimado: valor,
      valorTotal: valor === null ? null : lineTotal(item.quantidade, valor),
      menosDeTres: validos.length < MINIMO_PRECOS,
      vencedor,
      menores,
    });
  }

  return {
    precos: entrada.precos.map((p) => situacoes.get(p.id)!),
    itens,
    fornecedores: [...totais].map(([fornecedorId, t]) => ({
      fornecedorId,
      totalCotado: fromUnits(t.cotado, MONEY_SCALE),
      totalVencido: fromUnits(t.vencido, MONEY_SCALE),
      itensCotados: t.itensCotados,
      itensVencidos: t.itensVencidos,
    })),
    valorEstimadoTotal: sumMoney(itens.flatMap((i) => (i.valorTotal === null ? [] : [i.valorTotal]))),
    valorVencedoresTotal: sumMoney(itens.flatMap((i) => (i.vencedor ? [i.vencedor.valorTotal] : []))),
    itensMenosDeTres: itens.filter((i) => i.menosDeTres).map((i) => i.produtoId),
  };
}
