// Spreadsheet import for plugins: CSV (papaparse; ';', ',' or tab, quotes, UTF-8 with or without
// BOM, Windows-1252 as a fallback) and XLSX (exceljs, the first visible worksheet) are read into rows
// with their line numbers; then `importRows` validates EVERY row (zod schema, duplicates inside the
// file and against the database, lookups) and inserts all of them in ONE ctx.mutate transaction with
// one audit row per record, or nothing at all when any row has a problem. `buildTemplate` writes the
// 'Baixar modelo' file with the one XLSX writer (xlsx.ts). exceljs (reading) is imported on first use
// (it is large), papaparse too.
// Reading is bounded (spreadsheet-read.ts: 10 000 data rows, 50 MB uncompressed, 413 with a pt-BR
// message naming the limit) and, for requests, done in a worker thread (spreadsheet-pool.ts).
import { comprasBusca } from '@app/br';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { MutateFn } from '../platform/context.js';
import type { DbOrTx, Tx } from '../platform/db/types.js';
import { AppError, badRequest } from '../platform/errors.js';
import { cleanFileName } from './file-name.js';
import { readSpreadsheetInWorker } from './spreadsheet-pool.js';
import {
  DEFAULT_SPREADSHEET_LIMITS,
  type ImportError,
  type ParsedSheet,
  type SheetRow,
  type SpreadsheetFormat,
  type SpreadsheetLimits,
  SpreadsheetReadError,
  type SpreadsheetReadOptions,
  type SpreadsheetReadStats,
  readSpreadsheetBytes,
} from './spreadsheet-read.js';
import { XLSX_CONTENT_TYPE, toCsv, xlsxWorkbook } from './xlsx.js';

export {
  DEFAULT_SPREADSHEET_LIMITS,
  type ImportError,
  type ParsedSheet,
  type SheetRow,
  type SpreadsheetFormat,
  type SpreadsheetLimits,
  SpreadsheetReadError,
  type SpreadsheetReadOptions,
  type SpreadsheetReadStats,
  decodeText,
  excelCellText,
  guessDelimiter,
  parseCsv,
  parseXlsx,
  scanXlsx,
} from './spreadsheet-read.js';
export { readSpreadsheetInWorker, spreadsheetPoolStats } from './spreadsheet-pool.js';

export { XLSX_CONTENT_TYPE } from './xlsx.js';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

// ---------------------------------------------------------------------------------------------
// Reading

const invalidXlsx = () => badRequest('O arquivo não é uma planilha .xlsx válida.', { arquivo: 'Arquivo .xlsx inválido.' });

function toBytes(input: Uint8Array | ArrayBuffer): Uint8Array {
  return input instanceof Uint8Array ? input : new Uint8Array(input);
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** 'xlsx' for a zip (PK\3\4) file, 'csv' for text; throws a pt-BR 400 for other binaries (e.g. .xls). */
export function detectFormat(bytes: Uint8Array, hint?: { contentType?: string | undefined; filename?: string | undefined }): SpreadsheetFormat {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw badRequest('Arquivos .xls (Excel 97-2003) não são aceitos: salve a planilha como .xlsx ou .csv.', {
      arquivo: 'Formato .xls não aceito.',
    });
  }
  const name = hint?.filename?.toLowerCase() ?? '';
  if (name.endsWith('.xlsx') || hint?.contentType?.includes('spreadsheetml')) throw invalidXlsx();
  // text: no NUL bytes in the first KB
  if (bytes.subarray(0, 1024).includes(0)) {
    throw badRequest('Formato não suportado: envie um arquivo .csv ou .xlsx.', { arquivo: 'Formato não suportado.' });
  }
  return 'csv';
}

/** A SpreadsheetReadError (a problem of the file) as the HTTP error it stands for (400/413, pt-BR). */
export function toSpreadsheetAppError(err: SpreadsheetReadError): AppError & { stats?: SpreadsheetReadStats } {
  const app = new AppError(err.status, err.code, err.message, err.fields) as AppError & { stats?: SpreadsheetReadStats };
  if (err.stats) app.stats = err.stats;
  return app;
}

/**
 * Reads a CSV or XLSX file, detected by its first bytes, within `limits`, IN THIS THREAD (tests,
 * scripts). Requests go through readSpreadsheetUpload, which reads in a worker thread.
 */
export async function parseSpreadsheet(
  input: Uint8Array | ArrayBuffer,
  hint?: { contentType?: string | undefined; filename?: string | undefined },
  limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS,
  options: SpreadsheetReadOptions = {},
): Promise<ParsedSheet> {
  const bytes = toBytes(input);
  try {
    return await readSpreadsheetBytes(bytes, detectFormat(bytes, hint), limits, options);
  } catch (err) {
    throw err instanceof SpreadsheetReadError ? toSpreadsheetAppError(err) : err;
  }
}

export interface UploadedFile {
  bytes: Uint8Array;
  filename: string | undefined;
  contentType: string | undefined;
}

/**
 * The file of an import request: multipart/form-data (field 'arquivo', or the first file) or the raw
 * body with its content type (text/csv, XLSX…). Answers 400 when no file came.
 */
export async function readUploadedFile(c: Context): Promise<UploadedFile> {
  const contentType = c.req.header('content-type') ?? '';
  const none = () => badRequest('Escolha um arquivo .csv ou .xlsx.', { arquivo: 'Escolha um arquivo .csv ou .xlsx.' });
  if (contentType.startsWith('multipart/form-data')) {
    let form: Record<string, unknown>;
    try {
      form = (await c.req.parseBody({ all: false })) as Record<string, unknown>;
    } catch {
      throw badRequest('Não foi possível ler o formulário enviado.', { arquivo: 'Envie o arquivo novamente.' });
    }
    const isFile = (v: unknown): v is File => typeof v === 'object' && v !== null && typeof (v as File).arrayBuffer === 'function';
    const file = isFile(form.arquivo) ? form.arquivo : isFile(form.file) ? form.file : Object.values(form).find(isFile);
    if (!file || file.size === 0) throw none();
    return { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name ? cleanFileName(file.name) : undefined, contentType: file.type || undefined };
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length === 0) throw none();
  const disposition = c.req.header('content-disposition') ?? '';
  const filename = c.req.header('x-filename') ?? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  let decoded: string | undefined;
  try {
    decoded = filename ? decodeURIComponent(filename) : undefined;
  } catch {
    decoded = filename;
  }
  // the name is cleaned where it enters (a NUL from '%00' would break the audit row; bidi overrides mislead)
  return { bytes, filename: decoded ? cleanFileName(decoded) : undefined, contentType: contentType || undefined };
}

/**
 * readUploadedFile + the file read in a worker thread (spreadsheet-pool.ts) within `limits`: the
 * request thread only waits, so other requests are served meanwhile. A file over a bound answers 413
 * with a pt-BR message naming the limit; too many files being read at once answers 429.
 */
export async function readSpreadsheetUpload(c: Context, limits: Partial<SpreadsheetLimits> = {}): Promise<ParsedSheet & { filename: string | undefined }> {
  const file = await readUploadedFile(c);
  const format = detectFormat(file.bytes, file);
  const sheet = await readSpreadsheetInWorker(file.bytes, format, { ...DEFAULT_SPREADSHEET_LIMITS, ...limits });
  return { ...sheet, filename: file.filename };
}

// ---------------------------------------------------------------------------------------------
// Columns and templates

export interface ImportColumnSpec {
  /** Field of the schema's input object. */
  field: string;
  /** A missing column is an error of the header (line 1). */
  required?: boolean;
  /** What to write, shown in the template's 'Instruções' sheet. */
  hint?: string;
  example?: string;
  /** Column width in the XLSX template (characters). */
  width?: number;
}

/** Header pt-BR → field (or a spec with the field): `{ 'Descrição': 'descricao', 'CNPJ/CPF': { field: 'documento', required: true } }`. */
export type ImportColumns = Record<string, string | ImportColumnSpec>;

const spec = (value: string | ImportColumnSpec): ImportColumnSpec => (typeof value === 'string' ? { field: value } : value);

/** Header comparison ignores case, accents, spaces and a trailing '*' ('Descricao *' = 'Descrição'). */
export function normalizeHeader(header: string): string {
  return comprasBusca(
    header
      .normalize('NFC')
      .replace(/\*+\s*$/, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

export interface TemplateOptions {
  columns: ImportColumns;
  format: SpreadsheetFormat;
  /** Name of the data sheet (XLSX), default 'Dados'. */
  sheetName?: string;
  /** Lines written on top of the 'Instruções' sheet. */
  instructions?: string[];
}

/**
 * The 'Baixar modelo' file: the header row only. XLSX has a 'Dados' sheet (columns formatted as
 * text, so CNPJs, CEPs and codes keep their leading zeros) and an 'Instruções' sheet (each column:
 * required or not, how to fill it, an example); CSV is UTF-8 with BOM, separated by ';'.
 */
export function buildTemplate(options: TemplateOptions): { body: Uint8Array; contentType: string; extension: string } {
  const entries = Object.entries(options.columns).map(([header, value]) => ({ header, ...spec(value) }));
  if (options.format === 'csv') {
    const text = toCsv(
      entries.map((e) => e.header),
      [],
    );
    return { body: new TextEncoder().encode(text), contentType: CSV_CONTENT_TYPE, extension: 'csv' };
  }
  const notes = [
    `Preencha a planilha "${options.sheetName ?? 'Dados'}" a partir da linha 2, sem mudar os títulos da linha 1.`,
    'Valide o arquivo antes de importar: nada é importado enquanto houver erros.',
    ...(options.instructions ?? []),
  ];
  const body = xlsxWorkbook([
    {
      name: options.sheetName ?? 'Dados',
      header: entries.map((e) => e.header),
      rows: [],
      widths: entries.map((e) => e.width ?? Math.max(14, e.header.length + 4)),
      autoFilter: false,
      textColumns: true,
    },
    {
      name: 'Instruções',
      header: ['Coluna', 'Obrigatória', 'Como preencher', 'Exemplo'],
      rows: [...entries.map((e) => [e.header, e.required ? 'Sim' : 'Não', e.hint ?? '', e.example ?? '']), [], ...notes.map((line) => [line])],
      widths: [28, 12, 80, 40],
      freezeHeader: false,
      autoFilter: false,
    },
  ]);
  return { body, contentType: XLSX_CONTENT_TYPE, extension: 'xlsx' };
}

/** Answers a template (or any generated file) as a download. */
export function fileResponse(c: Context, file: { body: Uint8Array; contentType: string }, filename: string): Response {
  return c.body(file.body as never, 200, {
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
  });
}

// ---------------------------------------------------------------------------------------------
// Importing

/**
 * The SQL function compras_busca(text) in JavaScript (lower case, Portuguese/Latin-1 accents
 * removed): keys of `importRows` unique checks compare with `compras_busca(column)` in the database.
 * The one implementation is @app/br's (isomorphic); re-exported here for server plugins.
 */
export { comprasBusca } from '@app/br';

/** A row that passed the schema, with its line. */
export interface ValidRow<T> {
  linha: number;
  data: T;
}

/** A problem found by a check: `coluna` may be a field name (translated to its header) or a header. */
export interface RowProblem {
  linha: number;
  coluna?: string;
  motivo: string;
}

export interface ImportUniqueKey<T> {
  /** Field whose value must be unique (in the file and in the database). */
  field: keyof T & string;
  /** Value compared (default: String(value)); rows whose key is '' are not compared. */
  key?: (row: T) => string;
  /** Keys (as `key` computes them) already in the database, among `keys`. */
  existing?: (db: DbOrTx, keys: string[]) => Promise<Iterable<string>>;
  /** Reason when two rows of the file share the key (default 'Valor repetido no arquivo (já aparece na linha N).'). */
  fileMessage?: (firstLine: number) => string;
  /** Reason when the database already has it (default 'Já existe um registro com este valor.'). */
  databaseMessage?: string;
}

export interface ImportRowsOptions<T> {
  /** The route's ctx (or a seed context): ctx.db for checks, ctx.mutate for the insert. */
  ctx: { db: DbOrTx; mutate: MutateFn };
  /** Rows of `parseSpreadsheet` (or a ParsedSheet: headers and file errors are checked too). */
  rows: readonly SheetRow[] | ParsedSheet;
  /** Headers of the file (checked against `columns`); default: those of `rows`. */
  headers?: readonly string[];
  /** Validates one row's input `{ field: string | undefined }` (empty cells are undefined). */
  schema: z.ZodType<T>;
  columns: ImportColumns;
  dryRun: boolean;
  /** Unique keys, checked inside the file and (with `existing`) against the database. */
  unique?: ImportUniqueKey<T>[];
  /**
   * Checks that need the database (lookups by code or name, cross-row rules). Runs on the rows that
   * passed the schema; may complete `data` in place (e.g. set grupoId from the grupo's code).
   */
  check?: (db: DbOrTx, rows: ValidRow<T>[]) => Promise<RowProblem[]>;
  /**
   * Inserts every row (called once, inside the transaction); returns the stored records with their id.
   * Not needed to validate only (`dryRun: true`): a plugin that saves the rows its own way (e.g. a
   * supplier's answer replacing the previous one) validates here and writes in its own ctx.mutate.
   */
  insert?: (tx: Tx, rows: T[]) => Promise<{ id: string | number }[]>;
  /** Audit action of each imported record (default 'importar'). */
  acao?: string;
  /** Name of the uploaded file (recorded in the audit). */
  filename?: string | undefined;
  /** Rows accepted in one file (default 5000). */
  maxRows?: number;
  /** Errors returned at most (every row is still validated; `errorCount` has the total). */
  maxErrors?: number;
}

export interface ImportResult {
  /** True when the file has no problem (and, without dryRun, was imported). */
  ok: boolean;
  dryRun: boolean;
  /** Data rows in the file. */
  total: number;
  /** Rows inserted (0 on a dry run or when there were errors). */
  imported: number;
  errors: ImportError[];
  /** Number of problems found (errors may be truncated to maxErrors). */
  errorCount: number;
}

class ImportRejected extends Error {
  constructor(readonly errors: ImportError[]) {
    super('import rejected');
  }
}

/**
 * Validates every row and imports all of them or none. Problems are `{ linha, coluna, motivo }`
 * with the column's header as written in the file; the insert runs in ONE transaction with one audit
 * row per record (`acao` 'importar'), after checking uniqueness and lookups again inside it.
 */
export async function importRows<T>(options: ImportRowsOptions<T>): Promise<ImportResult> {
  const sheet = Array.isArray(options.rows) ? undefined : (options.rows as ParsedSheet);
  const rows: readonly SheetRow[] = sheet ? sheet.rows : (options.rows as readonly SheetRow[]);
  const headersInFile = options.headers ?? sheet?.headers ?? [...new Set(rows.flatMap((r) => Object.keys(r.cells)))];
  const maxRows = options.maxRows ?? 5000;
  const maxErrors = options.maxErrors ?? 1000;
  const result = (errors: ImportError[], imported = 0): ImportResult => {
    errors.sort((a, b) => a.linha - b.linha || order(a.coluna) - order(b.coluna));
    return {
      ok: errors.length === 0,
      dryRun: options.dryRun,
      total: rows.length,
      imported,
      errors: errors.slice(0, maxErrors),
      errorCount: errors.length,
    };
  };

  // columns: header (normalised) → spec, and field → header for messages
  const specs = Object.entries(options.columns).map(([header, value]) => ({ header, ...spec(value) }));
  const byNormal = new Map(specs.map((s) => [normalizeHeader(s.header), s]));
  const headerOfField = new Map(specs.map((s) => [s.field, s.header]));
  const order = (coluna: string) => {
    const i = specs.findIndex((s) => s.header === coluna);
    return i < 0 ? -1 : i;
  };
  const columnName = (coluna: string | undefined) => (coluna === undefined ? '' : (headerOfField.get(coluna) ?? coluna));

  // 1. the file and its header
  const errors: ImportError[] = [...(sheet?.errors ?? [])];
  const fileHeaderToSpec = new Map<string, ImportColumnSpec & { header: string }>();
  const seen = new Set<string>();
  for (const h of headersInFile) {
    if (h === '') continue;
    const s = byNormal.get(normalizeHeader(h));
    if (!s) {
      errors.push({
        linha: 1,
        coluna: h,
        motivo: `Coluna desconhecida. Use os títulos do modelo: ${specs.map((x) => x.header).join(', ')}.`,
      });
    } else if (seen.has(s.field)) {
      errors.push({ linha: 1, coluna: h, motivo: 'Coluna repetida no cabeçalho.' });
    } else {
      seen.add(s.field);
      fileHeaderToSpec.set(h, s);
    }
  }
  for (const s of specs) {
    if (s.required && !seen.has(s.field)) errors.push({ linha: 1, coluna: s.header, motivo: 'Coluna obrigatória ausente no cabeçalho.' });
  }
  if (errors.some((e) => e.linha === 1)) return result(errors);
  if (rows.length === 0) return result([...errors, { linha: 2, coluna: '', motivo: 'O arquivo não tem linhas de dados.' }]);
  if (rows.length > maxRows) {
    return result([
      ...errors,
      { linha: rows[maxRows]!.linha, coluna: '', motivo: `O arquivo tem ${rows.length} linhas: importe no máximo ${maxRows} por vez.` },
    ]);
  }

  // 2. every row against the schema
  const valid: ValidRow<T>[] = [];
  for (const row of rows) {
    const input: Record<string, string | undefined> = {};
    for (const [h, s] of fileHeaderToSpec) {
      const v = row.cells[h] ?? '';
      input[s.field] = v === '' ? undefined : v;
    }
    const parsed = options.schema.safeParse(input);
    if (parsed.success) {
      valid.push({ linha: row.linha, data: parsed.data });
      continue;
    }
    const fields = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = issue.path.length ? String(issue.path[0]) : '';
      if (fields.has(field)) continue;
      fields.add(field);
      errors.push({ linha: row.linha, coluna: columnName(field || undefined), motivo: issue.message });
    }
  }

  // 3. duplicates inside the file
  const keyed = (options.unique ?? []).map((u) => ({
    ...u,
    keyOf: u.key ?? ((row: T) => String((row as Record<string, unknown>)[u.field] ?? '')),
  }));
  for (const u of keyed) {
    const first = new Map<string, number>();
    for (const row of valid) {
      const k = u.keyOf(row.data);
      if (k === '') continue;
      const at = first.get(k);
      if (at === undefined) first.set(k, row.linha);
      else {
        errors.push({
          linha: row.linha,
          coluna: columnName(u.field),
          motivo: u.fileMessage?.(at) ?? `Valor repetido no arquivo (já aparece na linha ${at}).`,
        });
      }
    }
  }

  // 4. checks against the database (run again inside the transaction before inserting)
  const databaseChecks = async (db: DbOrTx): Promise<ImportError[]> => {
    const found: ImportError[] = [];
    for (const u of keyed) {
      if (!u.existing) continue;
      const keys = [...new Set(valid.map((r) => u.keyOf(r.data)).filter((k) => k !== ''))];
      if (keys.length === 0) continue;
      const existing = new Set(await u.existing(db, keys));
      for (const row of valid) {
        if (existing.has(u.keyOf(row.data))) {
          found.push({
            linha: row.linha,
            coluna: columnName(u.field),
            motivo: u.databaseMessage ?? 'Já existe um registro com este valor.',
          });
        }
      }
    }
    if (options.check && valid.length) {
      for (const p of await options.check(db, valid)) found.push({ linha: p.linha, coluna: columnName(p.coluna), motivo: p.motivo });
    }
    return found;
  };

  if (errors.length > 0 || options.dryRun) {
    return result([...errors, ...(await databaseChecks(options.ctx.db))]);
  }

  const insert = options.insert;
  if (!insert) throw new Error('importRows: `insert` is required to import (dryRun: false).');
  try {
    const imported = await options.ctx.mutate(async (tx, audit) => {
      const found = await databaseChecks(tx);
      if (found.length) throw new ImportRejected(found);
      const data = valid.map((r) => r.data);
      const stored = await insert(tx, data);
      for (const record of stored) audit({ registro: record.id, acao: options.acao ?? 'importar', depois: record });
      audit({ acao: 'importar_arquivo', depois: { arquivo: options.filename ?? null, linhas: stored.length } });
      return stored.length;
    });
    return result([], imported);
  } catch (err) {
    if (err instanceof ImportRejected) return result(err.errors);
    throw err;
  }
}

/** Query of the import routes: `?dryRun=true|false` (default true: validate only). */
export function parseDryRun(value: string | undefined): boolean {
  return !/^(false|0|nao|não|no)$/i.test(value ?? 'true');
}
