// Running a contributed report: its filters checked (400 naming the field, never 5xx), its rows read
// by the plugin that owns them (in the person's scope), sorted by any column, the totals summed
// exactly, and the same result handed to the page, the PDF and the XLSX.
import { parseDate } from '@app/br';
import { compareDecimal, fromUnits, toUnits } from '@app/documents';
import { type ReportDefinition, type RequestContext, badRequest, hasInvalidChars } from '@app/server-core';
import { MAX_LINHAS, type Relatorio, textoDaCelula } from '../shared/index.js';

export type Linha = Record<string, unknown>;

/** A report's declaration as the person sees it: the options of its filters computed for them. */
export async function descrever(report: ReportDefinition, ctx: RequestContext): Promise<Relatorio> {
  const filtros = await Promise.all(
    report.filters.map(async (f) => {
      const options = typeof f.options === 'function' ? await f.options(ctx) : f.options;
      const padrao = typeof f.default === 'function' ? f.default(ctx) : f.default;
      return {
        name: f.name,
        label: f.label,
        kind: f.kind,
        ...(options ? { options: [...options] } : {}),
        required: f.required === true,
        ...(padrao === undefined ? {} : { default: padrao }),
      };
    }),
  );
  const colunas = report.columns.map((c) => ({
    key: c.key,
    label: c.label,
    type: c.type ?? 'text',
    ...(c.places === undefined ? {} : { places: c.places }),
    total: c.total === true,
  }));
  return { id: report.id, title: report.title, description: report.description, group: report.group, filtros, colunas };
}

export interface Execucao {
  filtros: Record<string, string | undefined>;
  filtrosUsados: { label: string; valor: string }[];
  ordem: string | null;
  direcao: 'asc' | 'desc';
}

/** The query string checked against the declaration (unknown parameters are ignored). */
export function lerFiltros(relatorio: Relatorio, query: Record<string, string | undefined>): Execucao {
  const problemas: Record<string, string> = {};
  const filtros: Record<string, string | undefined> = {};
  const filtrosUsados: { label: string; valor: string }[] = [];
  for (const f of relatorio.filtros) {
    const bruto = (query[f.name] ?? '').trim() || f.default || '';
    if (!bruto) {
      if (f.required) problemas[f.name] = `${f.label}: informe um valor.`;
      continue;
    }
    let valor: string | null = bruto;
    let texto = bruto;
    if (f.kind === 'date') {
      valor = parseDate(bruto);
      if (valor) texto = textoDaCelula({ type: 'date' }, valor);
    } else if (f.kind === 'ano') {
      valor = /^\d{4}$/.test(bruto) && Number(bruto) >= 2000 && Number(bruto) <= 2100 ? bruto : null;
    } else if (f.kind === 'select') {
      const opcao = f.options?.find((o) => o.value === bruto);
      valor = opcao ? opcao.value : null;
      if (opcao) texto = opcao.label;
    } else if (bruto.length > 200 || hasInvalidChars(bruto)) {
      valor = null;
    }
    if (valor === null) {
      problemas[f.name] =
        f.kind === 'date'
          ? `${f.label}: data inválida (use dd/mm/aaaa).`
          : f.kind === 'ano'
            ? `${f.label}: ano inválido (de 2000 a 2100).`
            : f.kind === 'select'
              ? `${f.label}: escolha uma das opções.`
              : `${f.label}: até 200 caracteres, sem caracteres inválidos.`;
      continue;
    }
    filtros[f.name] = valor;
    filtrosUsados.push({ label: f.label, valor: texto });
  }
  const ordem = (query.ordem ?? '').trim() || null;
  if (ordem !== null && !relatorio.colunas.some((c) => c.key === ordem)) problemas.ordem = 'Ordem: escolha uma das colunas do relatório.';
  const direcao = (query.direcao ?? 'asc').trim();
  if (direcao !== 'asc' && direcao !== 'desc') problemas.direcao = "Direção: 'asc' ou 'desc'.";
  if (Object.keys(problemas).length > 0) throw badRequest(Object.values(problemas)[0], problemas);
  return { filtros, filtrosUsados, ordem, direcao: direcao as 'asc' | 'desc' };
}

/** Extra checks of the declaration: a date filter not before the one it names. */
export function conferirIntervalos(report: ReportDefinition, filtros: Record<string, string | undefined>): void {
  for (const f of report.filters) {
    const depois = f.notBefore ? filtros[f.notBefore] : undefined;
    const valor = filtros[f.name];
    if (f.notBefore && depois && valor && valor < depois) {
      const antes = report.filters.find((g) => g.name === f.notBefore)!;
      throw badRequest(`${f.label}: não pode ser antes de ${antes.label.toLocaleLowerCase('pt-BR')}.`, { [f.name]: 'anterior' });
    }
  }
}

/** A value as the files and the sort read it: dates as text, Date objects as ISO instants. */
function normalizar(valor: unknown): unknown {
  if (valor instanceof Date) return valor.toISOString();
  if (typeof valor === 'bigint') return valor.toString();
  return valor;
}

const decimal = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
// one collator for every comparison (String#localeCompare with options builds one per call)
const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/** A row as read by the report, reduced to its declared columns (values normalised). */
export function linhaDe(relatorio: Relatorio, l: Readonly<Record<string, unknown>>): Linha {
  const out: Linha = {};
  for (const c of relatorio.colunas) out[c.key] = normalizar(l[c.key]);
  return out;
}

/** The comparison of the asked column (decimal order for numbers, pt-BR order for text; empty cells last), or null (no sort). */
function comparador(relatorio: Relatorio, execucao: Pick<Execucao, 'ordem' | 'direcao'>): ((a: Linha, b: Linha) => number) | null {
  const coluna = relatorio.colunas.find((c) => c.key === execucao.ordem);
  if (!coluna) return null;
  const numerica = ['integer', 'decimal', 'money'].includes(coluna.type);
  const sinal = execucao.direcao === 'desc' ? -1 : 1;
  const comparar = (a: unknown, b: unknown): number => {
    const x = decimal(a);
    const y = decimal(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1; // empty cells last, whatever the direction
    return sinal * (numerica ? compareDecimal(x, y) : collator.compare(x, y));
  };
  return (a, b) => comparar(a[coluna.key], b[coluna.key]);
}

/** Sorts the rows in place by the asked column (decimal order for numbers, pt-BR order for text; empty cells last). */
export function ordenar(linhas: Linha[], relatorio: Relatorio, execucao: Pick<Execucao, 'ordem' | 'direcao'>): void {
  const comparar = comparador(relatorio, execucao);
  if (comparar) linhas.sort(comparar);
}

/** Rows handled between two pauses by the background job's sort and sums. */
const BLOCO = 2_000;

/**
 * ordenar, with `pausa()` between pieces of work (the background job: sorting 200 000 rows at once would
 * hold the thread for seconds): runs of BLOCO rows sorted, then merged pairwise, stable as Array#sort.
 */
export async function ordenarAosPoucos(
  linhas: Linha[],
  relatorio: Relatorio,
  execucao: Pick<Execucao, 'ordem' | 'direcao'>,
  pausa: () => Promise<unknown>,
): Promise<void> {
  const comparar = comparador(relatorio, execucao);
  if (!comparar || linhas.length < 2) return;
  let runs: Linha[][] = [];
  for (let i = 0; i < linhas.length; i += BLOCO) {
    runs.push(linhas.slice(i, i + BLOCO).sort(comparar));
    await pausa();
  }
  while (runs.length > 1) {
    const next: Linha[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r]!;
      const b = runs[r + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      const out: Linha[] = new Array(a.length + b.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < a.length || j < b.length) {
        // the left run first on a tie: stable
        out[k++] = j >= b.length || (i < a.length && comparar(a[i]!, b[j]!) <= 0) ? a[i++]! : b[j++]!;
        if (k % BLOCO === 0) await pausa();
      }
      next.push(out);
    }
    runs = next;
  }
  const ordenadas = runs[0]!;
  for (let i = 0; i < ordenadas.length; i++) linhas[i] = ordenadas[i]!;
}

/** The exact sums of the columns with a total (a loop, not a spread: 200 000 rows are too many arguments). */
export function somar(linhas: readonly Linha[], relatorio: Relatorio): Record<string, string> {
  const totais: Record<string, string> = {};
  for (const c of relatorio.colunas) {
    if (!c.total) continue;
    let escala = c.type === 'integer' ? 0 : 2;
    for (const l of linhas) escala = Math.max(escala, (decimal(l[c.key])?.split('.')[1] ?? '').length);
    let soma = 0n;
    for (const l of linhas) {
      const v = decimal(l[c.key]);
      if (v !== null) soma += toUnits(v, escala);
    }
    totais[c.key] = fromUnits(soma, escala);
  }
  return totais;
}

/** somar, with `pausa()` every BLOCO rows (the background job); the same sums. */
export async function somarAosPoucos(linhas: readonly Linha[], relatorio: Relatorio, pausa: () => Promise<unknown>): Promise<Record<string, string>> {
  const totais: Record<string, string> = {};
  for (const c of relatorio.colunas) {
    if (!c.total) continue;
    let escala = c.type === 'integer' ? 0 : 2;
    for (let i = 0; i < linhas.length; i++) {
      escala = Math.max(escala, (decimal(linhas[i]![c.key])?.split('.')[1] ?? '').length);
      if (i % BLOCO === BLOCO - 1) await pausa();
    }
    let soma = 0n;
    for (let i = 0; i < linhas.length; i++) {
      const v = decimal(linhas[i]![c.key]);
      if (v !== null) soma += toUnits(v, escala);
      if (i % BLOCO === BLOCO - 1) await pausa();
    }
    totais[c.key] = fromUnits(soma, escala);
  }
  return totais;
}

/** The 400 of a report too large for the page and the direct files (`fields.linhas = 'demais'`: the page offers the background). */
export const grandeDemais = (limite: number) =>
  badRequest(`O relatório passa de ${limite.toLocaleString('pt-BR')} linhas: restrinja o período ou os filtros, ou gere o PDF ou o XLSX em segundo plano.`, {
    linhas: 'demais',
  });

/**
 * Reads the rows (at most `limite`, MAX_LINHAS or the lower RELATORIOS_MAX_LINHAS: beyond, a 400 asking for
 * narrower filters or the background), sorts, sums.
 */
export async function executar(report: ReportDefinition, relatorio: Relatorio, ctx: RequestContext, execucao: Execucao, limite = MAX_LINHAS) {
  conferirIntervalos(report, execucao.filtros);
  const lidas = await report.load(ctx, execucao.filtros, limite + 1);
  if (lidas.length > limite) throw grandeDemais(limite);
  const linhas: Linha[] = lidas.map((l) => linhaDe(relatorio, l));
  ordenar(linhas, relatorio, execucao);
  return { linhas, totais: somar(linhas, relatorio) };
}
