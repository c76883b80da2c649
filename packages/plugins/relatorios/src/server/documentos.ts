// The PDF and the XLSX of a report run: the same content whether it is downloaded at once (up to
// MAX_LINHAS) or made in the background (arquivos.ts), where the rows are turned into cells in chunks.
import { formatDateTime } from '@app/br';
import { type CellValue, type DocumentKind, type PdfDocument, type ReportDefinition, XLSX_CONTENT_TYPE, cleanFileName, fileNameSlug } from '@app/server-core';
import { type Coluna, type Relatorio, textoDaCelula } from '../shared/index.js';
import type { Execucao, Linha } from './executar.js';

export interface Rodado {
  report: ReportDefinition;
  relatorio: Relatorio;
  execucao: Execucao;
  linhas: Linha[];
  totais: Record<string, string>;
  geradoEm: Date;
  geradoPor: string;
}

const NUMERICAS = new Set(['integer', 'decimal', 'money']);

/** A row of the PDF's table: each cell as a person reads it. */
export const linhaPdf = (colunas: readonly Coluna[], l: Linha): string[] => colunas.map((c) => textoDaCelula(c, l[c.key]));

function celula(c: Coluna, valor: unknown): CellValue {
  if (valor === null || valor === undefined || valor === '') return null;
  if (c.type === 'money' || c.type === 'decimal') return { decimal: String(valor), places: c.type === 'money' ? 2 : (c.places ?? 2) };
  if (c.type === 'integer') return Number(valor);
  if (c.type === 'datetime') return new Date(String(valor));
  return textoDaCelula(c, valor);
}

/** A row of the workbook: numbers as numbers, money and decimals exact. */
export const linhaXlsx = (colunas: readonly Coluna[], l: Linha): CellValue[] => colunas.map((c) => celula(c, l[c.key]));

/** The PDF; `linhas` are the rows already written as text (the background job builds them in chunks). */
/** The chart of the rows; a chart that fails to draw leaves the PDF with its table (the same figures). */
function graficoDe(r: Rodado): { svg: string; height: number } | null {
  try {
    return r.report.chart?.(r.linhas, r.execucao.filtros) ?? null;
  } catch {
    return null;
  }
}

export function pdfDe(r: Rodado, entidade: PdfDocument['entidade'], linhas?: string[][]): PdfDocument {
  const { colunas } = r.relatorio;
  const rodape = colunas.some((c) => c.total) ? colunas.map((c, i) => (c.total ? textoDaCelula(c, r.totais[c.key]) : i === 0 ? 'Total' : '')) : undefined;
  // the report's chart above the table, when it draws one for these rows
  const grafico = r.linhas.length > 0 && r.report.chart ? graficoDe(r) : null;
  return {
    orientation: r.report.orientation ?? (colunas.length > 6 ? 'landscape' : 'portrait'),
    entidade,
    title: r.relatorio.title,
    numero: '',
    subtitle: r.relatorio.description,
    fields: [
      ...(r.execucao.filtrosUsados.length > 0 ? r.execucao.filtrosUsados : [{ label: 'Filtros', valor: 'Nenhum' }]).map((f) => ({
        label: f.label,
        value: f.valor,
      })),
      { label: 'Linhas', value: r.linhas.length.toLocaleString('pt-BR') },
      { label: 'Gerado por', value: `${r.geradoPor} em ${formatDateTime(r.geradoEm)}` },
    ],
    blocks: [
      ...(grafico ? [grafico] : []),
      {
        table: {
          columns: colunas.map((c) => ({ header: c.label, align: NUMERICAS.has(c.type) ? 'right' : 'left' })),
          rows: linhas ?? r.linhas.map((l) => linhaPdf(colunas, l)),
          ...(rodape ? { footer: rodape } : {}),
          empty: 'Nenhuma linha com estes filtros.',
        },
      },
    ],
    generatedAt: r.geradoEm,
  };
}

/** The workbook's sheet; `linhas` as for pdfDe. */
export function xlsxDe(r: Rodado, entidade: PdfDocument['entidade'], linhas?: CellValue[][]) {
  const { colunas } = r.relatorio;
  const rows = linhas ?? r.linhas.map((l) => linhaXlsx(colunas, l));
  if (colunas.some((c) => c.total)) rows.push(colunas.map((c, i) => (c.total ? celula(c, r.totais[c.key]) : i === 0 ? 'Total' : null)));
  return {
    name: r.relatorio.title,
    preamble: [
      [r.relatorio.title],
      [entidade.nome],
      ...r.execucao.filtrosUsados.map((f) => [f.label, f.valor]),
      ['Gerado por', `${r.geradoPor} em ${formatDateTime(r.geradoEm)}`],
      [],
    ],
    header: colunas.map((c) => c.label),
    rows,
  };
}

export const CONTENT_TYPE: Record<DocumentKind, string> = { pdf: 'application/pdf', xlsx: XLSX_CONTENT_TYPE };

/** 'requisicoes-por-periodo.xlsx'. */
export const nomeDoArquivo = (titulo: string, format: DocumentKind) => cleanFileName(`${fileNameSlug(titulo)}.${format}`, `relatorio.${format}`);

/** The file's answer: inline for a PDF, attachment for a workbook, never cached, never sniffed. */
export function respostaDoArquivo(bytes: Uint8Array, format: DocumentKind, nome: string): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': CONTENT_TYPE[format],
      'content-disposition': `${format === 'pdf' ? 'inline' : 'attachment'}; filename="${nome}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
