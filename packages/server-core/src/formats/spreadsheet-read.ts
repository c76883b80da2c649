// Reading spreadsheet files with bounds, runnable in a worker thread (spreadsheet-worker.ts): this
// module imports no other module of server-core, only node:zlib, papaparse and exceljs, so the worker
// bundle stays small and the source can be bundled on the fly under vitest (spreadsheet-pool.ts).
//
// Bounds (SpreadsheetLimits): data rows and uncompressed bytes. A CSV is counted while papaparse
// steps through it (aborted at the first row over the limit). An XLSX is a zip: the declared
// uncompressed sizes of its central directory are checked first, then every entry is inflated as a
// stream and its bytes COUNTED (a zip may lie about its sizes) and the rows of the sheet to read are
// counted in the XML as it comes; reading stops at the first bound passed, before exceljs ever loads
// the file. Only a file within the bounds is handed to exceljs.
import { createInflateRaw } from 'node:zlib';

/** One problem of an import, as shown to the user: 'Linha 7, coluna CNPJ: CNPJ inválido…'. */
export interface ImportError {
  /** Line of the file (1 = the header row, 2 = the first data row). */
  linha: number;
  /** Column header as written in the template ('' when the problem is the whole line or file). */
  coluna: string;
  /** pt-BR reason. */
  motivo: string;
}

/** A data row: cell text by header (as written in the file), trimmed; '' for an empty cell. */
export interface SheetRow {
  linha: number;
  cells: Record<string, string>;
}

export interface ParsedSheet {
  format: SpreadsheetFormat;
  /** Headers of the first row, trimmed, in file order. */
  headers: string[];
  /** Non-empty data rows. */
  rows: SheetRow[];
  /** Problems of the file itself (e.g. an unclosed quote). */
  errors: ImportError[];
  /**
   * With `headerFirstCell` (SpreadsheetReadOptions): the non-empty rows above the header, cell texts
   * by column (0 = A), trimmed: the title block of a form (e.g. its key, a date the person typed).
   */
  preamble?: { linha: number; values: string[] }[];
}

/** How to find the header (default: the first non-empty row). */
export interface SpreadsheetReadOptions {
  /**
   * The header is the first row whose first cell is this text (trimmed, case ignored): the rows
   * above it are a form's title block, returned in `preamble`. No such row: no header, no rows
   * (every row in `preamble`).
   */
  headerFirstCell?: string;
}

export type SpreadsheetFormat = 'csv' | 'xlsx';

// ---------------------------------------------------------------------------------------------
// Bounds

export interface SpreadsheetLimits {
  /** Data rows (the header not counted). */
  maxRows: number;
  /** Uncompressed bytes: the CSV text, or the sum of the XLSX's zip entries once inflated. */
  maxBytes: number;
}

/** 10 000 rows, 50 MB: far above a real import, far below what blocks a server. */
export const DEFAULT_SPREADSHEET_LIMITS: SpreadsheetLimits = { maxRows: 10_000, maxBytes: 50 * 1024 * 1024 };

/** How much of the file was read before an answer (tests check that a bomb was not read to the end). */
export interface SpreadsheetReadStats {
  /** Bytes declared by the zip's central directory (XLSX) or the file size (CSV). */
  declaredBytes: number;
  /** Uncompressed bytes actually produced (XLSX) or decoded (CSV) before stopping. */
  bytesRead: number;
  /** Non-empty rows seen (header included) before stopping. */
  rowsSeen: number;
}

/** A pt-BR problem of the file itself: 400 (unreadable) or 413 (over a bound). Plain data: crosses the worker boundary. */
export class SpreadsheetReadError extends Error {
  readonly status: 400 | 413;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  stats: SpreadsheetReadStats | undefined;
  constructor(status: 400 | 413, code: string, message: string, fields?: Record<string, string>, stats?: SpreadsheetReadStats) {
    super(message);
    this.name = 'SpreadsheetReadError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.stats = stats;
  }
}

const integer = (n: number) => n.toLocaleString('pt-BR');
const megabytes = (bytes: number) => `${integer(Math.round((bytes / (1024 * 1024)) * 10) / 10)} MB`;

export function tooManyRows(limits: SpreadsheetLimits, stats?: SpreadsheetReadStats): SpreadsheetReadError {
  const n = integer(limits.maxRows);
  const message = `A planilha tem mais de ${n} linhas: divida o arquivo (limite de ${n} linhas por importação).`;
  // the import page shows fields.arquivo under the file input: the whole message, limit included
  return new SpreadsheetReadError(413, 'planilha_linhas', message, { arquivo: message }, stats);
}

export function tooManyBytes(limits: SpreadsheetLimits, format: SpreadsheetFormat, stats?: SpreadsheetReadStats): SpreadsheetReadError {
  const mb = megabytes(limits.maxBytes);
  const message =
    format === 'xlsx'
      ? `A planilha descompactada tem mais de ${mb}: divida o arquivo (limite de ${mb} de dados por importação).`
      : `O arquivo tem mais de ${mb}: divida o arquivo (limite de ${mb} por importação).`;
  return new SpreadsheetReadError(413, 'planilha_tamanho', message, { arquivo: message }, stats);
}

export const invalidXlsx = () =>
  new SpreadsheetReadError(400, 'validation', 'O arquivo não é uma planilha .xlsx válida.', { arquivo: 'Arquivo .xlsx inválido.' });

function toBytes(input: Uint8Array | ArrayBuffer): Uint8Array {
  return input instanceof Uint8Array ? input : new Uint8Array(input);
}

// ---------------------------------------------------------------------------------------------
// CSV

/** UTF-8 (BOM removed); a file that is not valid UTF-8 is read as Windows-1252 (Excel's "CSV"). */
export function decodeText(input: string | Uint8Array | ArrayBuffer): string {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const bytes = toBytes(input);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The delimiter the header line uses most (outside quotes): ';', ',' or tab; ',' when none. */
export function guessDelimiter(text: string): ';' | ',' | '\t' {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts]++;
  }
  if (counts[';'] === 0 && counts[','] === 0 && counts['\t'] === 0) return ',';
  return counts[';'] >= counts[','] && counts[';'] >= counts['\t'] ? ';' : counts[','] >= counts['\t'] ? ',' : '\t';
}

const clean = (value: unknown) =>
  String(value ?? '')
    .replace(/\u00a0/g, ' ')
    .trim();

function toSheet(
  format: SpreadsheetFormat,
  records: { linha: number; values: string[] }[],
  errors: ImportError[],
  options: SpreadsheetReadOptions = {},
): ParsedSheet {
  const marker = options.headerFirstCell?.trim().toLowerCase();
  const first =
    marker === undefined
      ? records.findIndex((r) => r.values.some((v) => clean(v) !== ''))
      : records.findIndex((r) => clean(r.values[0]).toLowerCase() === marker);
  if (marker !== undefined) {
    const above = first < 0 ? records : records.slice(0, first);
    const preamble = above.filter((r) => r.values.some((v) => clean(v) !== '')).map((r) => ({ linha: r.linha, values: Array.from(r.values, clean) }));
    if (first < 0) return { format, headers: [], rows: [], errors, preamble };
    return { ...toSheet(format, records.slice(first), errors), preamble };
  }
  if (first < 0) return { format, headers: [], rows: [], errors };
  const headers = records[first]!.values.map(clean);
  while (headers.length && headers[headers.length - 1] === '') headers.pop();
  const rows: SheetRow[] = [];
  for (const record of records.slice(first + 1)) {
    if (!record.values.some((v) => clean(v) !== '')) continue;
    const cells: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (h !== '' && !(h in cells)) cells[h] = clean(record.values[i]);
    });
    if (record.values.slice(headers.length).some((v) => clean(v) !== '')) {
      errors.push({ linha: record.linha, coluna: '', motivo: 'A linha tem mais colunas preenchidas do que o cabeçalho.' });
    }
    rows.push({ linha: record.linha, cells });
  }
  return { format, headers, rows, errors };
}

/** Reads a CSV (';', ',' or tab; quotes; UTF-8 with/without BOM or Windows-1252), within `limits`. */
export async function parseCsv(
  input: string | Uint8Array | ArrayBuffer,
  limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS,
  options: SpreadsheetReadOptions = {},
): Promise<ParsedSheet> {
  const { default: Papa } = await import('papaparse');
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  const stats: SpreadsheetReadStats = { declaredBytes: size, bytesRead: 0, rowsSeen: 0 };
  if (size > limits.maxBytes) throw tooManyBytes(limits, 'csv', stats);
  const text = decodeText(input);
  stats.bytesRead = size;
  const errors: ImportError[] = [];
  // The line of a record is its number counting the header as 1: what a spreadsheet program shows
  // (a quoted cell with line breaks is still one row).
  const records: { linha: number; values: string[] }[] = [];
  let over = false;
  Papa.parse<string[]>(text, {
    delimiter: guessDelimiter(text),
    skipEmptyLines: false,
    step: (result, parser) => {
      const linha = records.length + 1;
      const values = (result.data as unknown as unknown[]).map((v) => String(v ?? ''));
      records.push({ linha, values });
      for (const e of result.errors) {
        if (e.code === 'UndetectableDelimiter' || e.code === 'TooFewFields' || e.code === 'TooManyFields') continue;
        errors.push({
          linha,
          coluna: '',
          motivo: e.type === 'Quotes' ? 'Aspas não fechadas ou mal colocadas nesta linha.' : `Linha ilegível: ${e.message}`,
        });
      }
      if (values.some((v) => clean(v) !== '')) stats.rowsSeen++;
      // header + maxRows data rows at most: stop at the first one over
      if (stats.rowsSeen > limits.maxRows + 1) {
        over = true;
        parser.abort();
      }
    },
  });
  if (over) throw tooManyRows(limits, stats);
  return toSheet('csv', records, errors, options);
}

// ---------------------------------------------------------------------------------------------
// XLSX

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Text of an exceljs cell value, as a person typed it: dates dd/mm/aaaa (hh:mm when there is a
 * time), booleans Sim/Não, formulas by their result, rich text and hyperlinks by their text, whole
 * numbers without exponent (CNPJs, codes), other numbers to the 15 significant digits a spreadsheet
 * keeps (no binary residue of a formula: 0.1 + 0.2 is '0.3').
 */
export function excelCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const day = `${pad2(value.getUTCDate())}/${pad2(value.getUTCMonth() + 1)}/${value.getUTCFullYear()}`;
    const minutes = value.getUTCHours() * 60 + value.getUTCMinutes();
    return minutes ? `${day} ${pad2(value.getUTCHours())}:${pad2(value.getUTCMinutes())}` : day;
  }
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
    // 15 significant digits, as the spreadsheet shows it: a formula's 12.243000000000002 is 12.243
    return String(Number(value.toPrecision(15)));
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('result' in v) return excelCellText(v.result);
    if ('formula' in v || 'sharedFormula' in v) return '';
    if (typeof v.text === 'string') return v.text;
    if (v.text && typeof v.text === 'object') return excelCellText(v.text);
    if (typeof v.error === 'string') return v.error;
  }
  return String(value);
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** Declared: not trusted, only checked first. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** The central directory of a zip held in memory; invalid → 400. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // end of central directory: 22 bytes + a comment of at most 65 535 bytes, at the end
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalidXlsx();
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) throw invalidXlsx();
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    entries.push({
      method: view.getUint16(offset + 10, true),
      // 0xffffffff: a zip64 size (kept in an extra field): read to the end of the data, count the bytes
      compressedSize: view.getUint32(offset + 20, true) === 0xffffffff ? Number.MAX_SAFE_INTEGER : view.getUint32(offset + 20, true),
      uncompressedSize: view.getUint32(offset + 24, true) === 0xffffffff ? 0 : view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
      name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Compressed data of an entry (from its local header; a size beyond the file is cut at its end). */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw invalidXlsx();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
}

/**
 * Inflates an entry as a stream, handing each chunk to `onChunk` (false = stop). The budget is
 * shared by all entries of the file: `counter.bytes` grows as bytes come out, and inflating stops as
 * soon as it passes `limit` (the zip's declared sizes are not trusted).
 */
async function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  counter: { bytes: number; limit: number },
  onChunk: (chunk: Buffer) => boolean,
): Promise<'done' | 'stopped' | 'over'> {
  const data = entryData(bytes, entry);
  if (entry.method === 0) {
    counter.bytes += data.length;
    if (counter.bytes > counter.limit) return 'over';
    return onChunk(Buffer.from(data.buffer, data.byteOffset, data.byteLength)) ? 'done' : 'stopped';
  }
  if (entry.method !== 8) throw invalidXlsx();
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
  inflate.end(data);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      counter.bytes += chunk.length;
      if (counter.bytes > counter.limit) return 'over';
      if (!onChunk(chunk)) return 'stopped';
    }
  } catch {
    throw invalidXlsx();
  } finally {
    inflate.destroy();
  }
  return 'done';
}

/**
 * Counts the non-empty rows of a worksheet's XML as it streams: a <row> with a value (<v>, <is> or
 * <t> inside) counts; tags may be prefixed (x:row) and split across chunks.
 */
class RowCounter {
  rows = 0;
  /** Stops counting (mid-chunk) at the first row over `max`. */
  over = false;
  constructor(private readonly max: number) {}
  private inRow = false;
  private hasValue = false;
  private tail = '';

  push(chunk: Buffer): void {
    const text = this.tail + chunk.toString('latin1');
    const cut = text.lastIndexOf('<');
    // a tag name may be cut at the end of the chunk: keep it for the next one
    const end = cut >= 0 && text.length - cut < 16 && text.indexOf('>', cut) < 0 ? cut : text.length;
    this.tail = text.slice(end);
    let i = text.indexOf('<');
    while (i >= 0 && i < end && !this.over) {
      let j = i + 1;
      const closing = text.charCodeAt(j) === 47; // '/'
      if (closing) j++;
      let k = j;
      while (k < text.length) {
        const c = text.charCodeAt(k);
        // name ends at whitespace, '>' or '/'
        if (c === 32 || c === 9 || c === 10 || c === 13 || c === 62 || c === 47) break;
        k++;
      }
      let name = text.slice(j, k);
      const colon = name.indexOf(':');
      if (colon >= 0) name = name.slice(colon + 1);
      if (name === 'row') {
        if (closing) this.endRow();
        else {
          this.endRow();
          this.inRow = true;
          this.hasValue = false;
          // <row …/>: an empty row
          const close = text.indexOf('>', k);
          if (close > 0 && text.charCodeAt(close - 1) === 47) this.inRow = false;
        }
      } else if (!closing && this.inRow && (name === 'v' || name === 'is' || name === 't')) {
        this.hasValue = true;
      } else if (closing && name === 'sheetData') this.endRow();
      i = text.indexOf('<', k);
    }
  }

  private endRow(): void {
    if (this.inRow && this.hasValue && ++this.rows > this.max) this.over = true;
    this.inRow = false;
    this.hasValue = false;
  }
}

const attr = (tag: string, name: string) => new RegExp(`\\s(?:[\\w-]+:)?${name}="([^"]*)"`).exec(tag)?.[1];

/** Zip path of the worksheet exceljs will read: the first visible one of workbook.xml (or the first). */
async function targetSheetPath(bytes: Uint8Array, entries: ZipEntry[], counter: { bytes: number; limit: number }): Promise<string | undefined> {
  const read = async (name: string): Promise<string | undefined> => {
    const entry = entries.find((e) => e.name === name);
    if (!entry) return undefined;
    const parts: Buffer[] = [];
    const status = await inflateEntry(bytes, entry, counter, (chunk) => {
      parts.push(chunk);
      return true;
    });
    if (status === 'over') return undefined;
    return Buffer.concat(parts).toString('utf8');
  };
  const workbook = await read('xl/workbook.xml');
  const rels = await read('xl/_rels/workbook.xml.rels');
  if (!workbook || !rels) return undefined;
  const sheets = [...workbook.matchAll(/<(?:\w+:)?sheet\s[^>]*>/g)].map((m) => m[0]);
  const sheet = sheets.find((s) => (attr(s, 'state') ?? 'visible') === 'visible') ?? sheets[0];
  const id = sheet ? attr(sheet, 'id') : undefined;
  const rel = [...rels.matchAll(/<(?:\w+:)?Relationship\s[^>]*>/g)].map((m) => m[0]).find((r) => attr(r, 'Id') === id);
  const target = rel ? attr(rel, 'Target') : undefined;
  if (!target) return undefined;
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`.replace(/\/\.\//g, '/');
}

/**
 * Checks an XLSX against the bounds without loading it: declared sizes first, then every entry
 * inflated as a stream with its bytes counted, the rows of the sheet to read counted on the way (that
 * sheet first, so a long sheet is refused for its rows before its size). Throws at the first bound
 * passed; returns the stats when the file is within them.
 */
export async function scanXlsx(input: Uint8Array | ArrayBuffer, limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS): Promise<SpreadsheetReadStats> {
  const bytes = toBytes(input);
  const entries = zipEntries(bytes);
  const stats: SpreadsheetReadStats = { declaredBytes: entries.reduce((n, e) => n + e.uncompressedSize, 0), bytesRead: 0, rowsSeen: 0 };
  if (stats.declaredBytes > limits.maxBytes) throw tooManyBytes(limits, 'xlsx', stats);
  const counter = { bytes: 0, limit: limits.maxBytes };
  const over = () => {
    stats.bytesRead = counter.bytes;
    return tooManyBytes(limits, 'xlsx', stats);
  };
  const target = await targetSheetPath(bytes, entries, counter);
  if (counter.bytes > counter.limit) throw over();
  const rest = entries.filter((e) => e.name !== 'xl/workbook.xml' && e.name !== 'xl/_rels/workbook.xml.rels');
  const ordered = [...rest.filter((e) => e.name === target), ...rest.filter((e) => e.name !== target)];
  for (const entry of ordered) {
    // header + maxRows data rows at most
    const rows = entry.name === target ? new RowCounter(limits.maxRows + 1) : undefined;
    let tooMany = false;
    const status = await inflateEntry(bytes, entry, counter, (chunk) => {
      if (!rows) return true;
      rows.push(chunk);
      stats.rowsSeen = rows.rows;
      tooMany = rows.over;
      return !tooMany;
    });
    stats.bytesRead = counter.bytes;
    if (status === 'over') throw over();
    if (tooMany) throw tooManyRows(limits, stats);
  }
  return stats;
}

/** Reads the first visible worksheet of an XLSX file (its first non-empty row = header), within `limits`. */
export async function parseXlsx(
  input: Uint8Array | ArrayBuffer,
  limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS,
  options: SpreadsheetReadOptions = {},
): Promise<ParsedSheet> {
  const bytes = toBytes(input);
  const stats = await scanXlsx(bytes, limits);
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as never);
  } catch {
    throw invalidXlsx();
  }
  const sheet = workbook.worksheets.find((ws) => ws.state === 'visible' || ws.state === undefined) ?? workbook.worksheets[0];
  // a zip without worksheets (a .docx, a damaged file) is not a spreadsheet
  if (!sheet) throw invalidXlsx();
  const records: { linha: number; values: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      values[col - 1] = excelCellText(cell.value);
    });
    records.push({ linha: row.number, values: Array.from(values, (v) => v ?? '') });
  });
  const parsed = toSheet('xlsx', records, [], options);
  // the scan counts rows in the XML; exceljs has the last word (e.g. a row of spaces)
  if (parsed.rows.length > limits.maxRows) throw tooManyRows(limits, { ...stats, rowsSeen: parsed.rows.length + 1 });
  return parsed;
}

/** Reads a CSV or XLSX whose format is known (detectFormat), within `limits`. */
export function readSpreadsheetBytes(
  bytes: Uint8Array,
  format: SpreadsheetFormat,
  limits: SpreadsheetLimits,
  options: SpreadsheetReadOptions = {},
): Promise<ParsedSheet> {
  return format === 'xlsx' ? parseXlsx(bytes, limits, options) : parseCsv(bytes, limits, options);
}
