// Months of an analysis period as 'AAAA-MM' strings: pure and zod-free (the page imports it too).

const NOMES = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'] as const;
const MES = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The longest period an analysis covers, in months. */
export const MAX_MESES = 36;

/** '2026-13' and 'abc' are not months; '2026-01' is. */
export const isMes = (text: string): boolean => MES.test(text) && text >= '2000-01';

const indice = (mes: string) => Number(mes.slice(0, 4)) * 12 + Number(mes.slice(5, 7)) - 1;
const deIndice = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

/** Every month from `de` to `ate`, both included ('2026-11', '2027-01' → three months). */
export function mesesDoPeriodo(de: string, ate: string): string[] {
  const out: string[] = [];
  for (let i = indice(de); i <= indice(ate); i++) out.push(deIndice(i));
  return out;
}

/** `mes` moved by `n` months ('2026-01', -1 → '2025-12'). */
export const somarMeses = (mes: string, n: number): string => deIndice(indice(mes) + n);

/** 'jan/2026' → '2026-01' (the month a label shows; undefined for anything else). */
export function mesDoRotulo(rotulo: string): string | undefined {
  const [nome = '', ano = ''] = rotulo.split('/');
  const i = NOMES.indexOf(nome as (typeof NOMES)[number]);
  return i < 0 || !/^\d{4}$/.test(ano) ? undefined : `${ano}-${String(i + 1).padStart(2, '0')}`;
}

/** 'jan/2026' (as the tables and charts show a month). */
export const rotuloMes = (mes: string): string => `${NOMES[Number(mes.slice(5, 7)) - 1]}/${mes.slice(0, 4)}`;
