// Tables of a PDF or an XLSX declared by their columns: each column says its header (and width,
// alignment) and how a row fills its cell, side by side, so a wide table (a memória de cálculo's
// summary has 26 columns) reads as one list instead of a list of headers and, far below it, a list of
// cells that must stay in the same order. The result is the plain `PdfTable` / `XlsxSheet` the
// renderers take.
import type { PdfDocumentColumn, PdfTable } from './pdf.js';
import type { CellValue, XlsxSheet } from './xlsx.js';

/** A PDF column and its cell: `cell(row, index)` is the text printed (already formatted in pt-BR). */
export interface PdfColumnOf<T> extends PdfDocumentColumn {
  cell: (row: T, index: number) => string;
}

/** A `PdfTable` from `rows` and their columns; `muted(row, index)` prints a row grey. */
export function pdfTable<T>(
  rows: readonly T[],
  columns: readonly PdfColumnOf<T>[],
  options: Omit<PdfTable, 'columns' | 'rows' | 'muted'> & { muted?: (row: T, index: number) => boolean } = {},
): PdfTable {
  const { muted, ...rest } = options;
  const table: PdfTable = {
    ...rest,
    columns: columns.map(({ cell: _cell, ...column }) => column),
    rows: rows.map((row, i) => columns.map((column) => column.cell(row, i))),
  };
  if (muted) table.muted = rows.flatMap((row, i) => (muted(row, i) ? [i] : []));
  return table;
}

/** An XLSX column and its cell; `width` in characters (given on any column: the others take 12). */
export interface XlsxColumnOf<T> {
  header: string;
  width?: number;
  cell: (row: T, index: number) => CellValue;
}

/** An `XlsxSheet` from `rows` and their columns (the other options of the sheet as they are). */
export function xlsxTable<T>(sheet: Omit<XlsxSheet, 'header' | 'rows' | 'widths'> & { rows: readonly T[]; columns: readonly XlsxColumnOf<T>[] }): XlsxSheet {
  const { rows, columns, ...rest } = sheet;
  const result: XlsxSheet = {
    ...rest,
    header: columns.map((column) => column.header),
    rows: rows.map((row, i) => columns.map((column) => column.cell(row, i))),
  };
  if (columns.some((column) => column.width !== undefined)) return { ...result, widths: columns.map((column) => column.width ?? 12) };
  return result;
}
