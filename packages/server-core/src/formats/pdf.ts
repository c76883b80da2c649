// Printable documents (memorandos, requisições, cotações…) as PDF, rendered on the server with
// pdfmake (tables that break across pages with the header row repeated, page numbers "n de N").
// One generic layout every document plugin calls: the plugin turns its record into a
// `PdfDocument` (texts already formatted in pt-BR) and sends the bytes as application/pdf.
//
// Fonts: the 14 standard PDF fonts (Helvetica here), nothing embedded. They are WinAnsi-encoded,
// which covers Portuguese (á, ç, ã, õ, º, ª, –, —, “”, €…); any other character is reduced to its
// base letter (ő → o) or shown as '?', never as the garbage the encoder would otherwise emit.
import { availableParallelism } from 'node:os';
import { formatCnpj, timeParts } from '@app/br';
import type { Column, Content, ContentColumns, ContentTable, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { AppError } from '../platform/errors.js';
import { toJson } from './pieces.js';
import { type WorkerPoolStats, type WorkerTaskOptions, backgroundNice, createWorkerPool } from './spreadsheet-pool.js';

export interface PdfDocumentField {
  label: string;
  value: string;
}

export interface PdfDocumentColumn {
  header: string;
  /** Numbers go right-aligned. Defaults to 'left'. */
  align?: 'left' | 'right' | 'center';
  /** Points, '*' (share of the remaining width) or 'auto' (fits its content). Defaults to '*' for
   * left-aligned columns and 'auto' for the others. */
  width?: number | '*' | 'auto';
}

/** A table of a block: like the items table; `muted` rows are printed grey (e.g. values left out of a calculation). */
export interface PdfTable {
  columns: PdfDocumentColumn[];
  /** One string per column (extra cells are dropped, missing ones left blank). */
  rows: string[][];
  total?: { label: string; value: string };
  /** A last row in bold with a cell per column (a report's totals: 'Total', '', 'R$ 1.234,56'); instead of `total`. */
  footer?: string[];
  /** Row indexes printed in grey. */
  muted?: readonly number[];
  /** Text of a table without rows (default 'Nenhum item.'). */
  empty?: string;
}

/**
 * A piece of a long document, in reading order (after the items table): a section heading (level 1)
 * or a sub-heading (level 2), a paragraph, a grid of facts, a table, or a `group` of pieces kept on
 * one page when it fits (a sub-heading with its short table).
 */
export type PdfBlock =
  | { heading: string; level?: 1 | 2 }
  | { text: string; muted?: boolean; bold?: boolean }
  | { fields: PdfDocumentField[] }
  | { table: PdfTable }
  /** A chart drawn as SVG (e.g. by ECharts' server-side renderer), scaled to the page's width; `height` in points. */
  | { svg: string; height: number }
  | { group: PdfBlock[] };

export interface PdfDocument {
  /** A4 portrait (default) or landscape, for wide tables. */
  orientation?: 'portrait' | 'landscape';
  entidade: {
    nome: string;
    /** 14 characters, unformatted (the alphanumeric CNPJ too): shown with the CNPJ mask. */
    cnpj: string;
  };
  /** e.g. 'Memorando' */
  title: string;
  /** e.g. '12/2026'; '' for what has no number (a report): the title alone. */
  numero: string;
  /** e.g. 'Enviado' */
  status?: string;
  /** A line under the title, e.g. 'Documento de Formalização da Demanda (DFD)'. */
  subtitle?: string;
  /** Header facts, already formatted in pt-BR: datas, origem, destino, solicitante, prioridade, assunto. */
  fields: PdfDocumentField[];
  items?: {
    columns: PdfDocumentColumn[];
    /** One string per column (extra cells are dropped, missing ones left blank). */
    rows: string[][];
    total?: { label: string; value: string };
  };
  /** Headings, paragraphs, facts and tables after the items (a report with several parts). */
  blocks?: PdfBlock[];
  /** Long texts, e.g. { title: 'Justificativa da necessidade', text }. */
  sections?: { title: string; text: string }[];
  /** Signature block: a line, the name and the role under it. */
  signatures?: { name: string; role: string }[];
  /** Footer: 'Gerado em dd/mm/aaaa às hh:mm' (America/Sao_Paulo) and 'Página n de N' on every page. */
  generatedAt: Date;
  /**
   * Footer line on every page: 'Código de verificação: ABCD-EFGH-JKLM — confira em <url> · SHA-256 <first
   * 16 characters of hash>'. Set by the kit (documents/verification.ts), never by a plugin.
   */
  verification?: { code: string; url: string; hash: string };
}

// --- Text: what the standard fonts can print -------------------------------------------------

/** Code points above 0xFF that WinAnsi (Windows-1252) has, in 0x80–0x9F. */
const WIN_ANSI_EXTRA = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013,
  0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);

function isWinAnsi(cp: number): boolean {
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);
}

/** Characters outside WinAnsi with an obvious printable stand-in. */
const STAND_INS: Record<string, string> = {
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '–', // figure dash
  '\u2015': '—', // horizontal bar
  '\u2212': '-', // minus sign
  '\u2032': "'", // prime
  '\u2033': '"', // double prime
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff]/gu;
const ODD_SPACE = /[\u2000-\u200a\u202f\u205f\u3000]/gu;

/**
 * `value` as the standard fonts can print it: NFC, line breaks normalised to '\n', tabs as spaces,
 * control and invisible characters removed, anything outside WinAnsi reduced to its base letter or
 * replaced by '?'. Exported for tests.
 */
export function pdfSafeText(value: unknown): string {
  const text = (typeof value === 'string' ? value : value == null ? '' : String(value))
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(INVISIBLE, '')
    .replace(ODD_SPACE, ' ');
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x0a || isWinAnsi(cp)) {
      out += ch;
      continue;
    }
    const standIn = STAND_INS[ch];
    if (standIn !== undefined) {
      out += standIn;
      continue;
    }
    // ő → o, ł stays unknown: the base letter when decomposing leaves only WinAnsi.
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += base.length > 0 && [...base].every((c) => isWinAnsi(c.codePointAt(0)!)) ? base : '?';
  }
  return out;
}

/** `value` cut to `max` characters, with an ellipsis when cut (headers and signatures: one place, bounded). */
function clamp(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

/** A run without spaces longer than this is no word: it gets invisible break points (a URL, a pasted hash, hostile input). */
const LONG_WORD = 30;
const LONG_RUN = new RegExp(`\\S{${LONG_WORD + 1},}`, 'gu');
/**
 * An invisible break point: a space at a tenth of a point, so it neither shows nor takes room. (pdfmake's
 * own `wordBreak: 'break-all'` makes one text run per character: about 0.1 ms each, 1 s for 10 000.)
 */
const breakPoint = () => ({ text: ' ', fontSize: 0.1 });

type Inline = string | ReturnType<typeof breakPoint>;

/**
 * pdfmake text for `value`: made safe, and every run without a space longer than `longerThan` cut
 * every `chunk` characters with an invisible break point, so a column is never sized by one endless
 * word and nothing overflows its column or the page.
 */
function para(value: string, chunk = LONG_WORD, longerThan = Math.max(chunk, LONG_WORD)): string | Inline[] {
  const text = pdfSafeText(value);
  const parts: Inline[] = [];
  let last = 0;
  const runs = longerThan === LONG_WORD ? LONG_RUN : new RegExp(`\\S{${longerThan + 1},}`, 'gu');
  for (const m of text.matchAll(runs)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    // pdfSafeText leaves only WinAnsi characters: one UTF-16 unit each, slicing is safe.
    for (let i = 0; i < m[0].length; i += chunk) {
      if (i > 0) parts.push(breakPoint()); // a new object each time: pdfmake writes into them
      parts.push(m[0].slice(i, i + chunk));
    }
    last = m.index + m[0].length;
  }
  if (last === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

// --- Dates -------------------------------------------------------------------------------------

/** 'Gerado em dd/mm/aaaa às hh:mm' in the application's time zone. */
function generatedAtText(date: Date): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new RangeError('PDF: generatedAt não é uma data válida.');
  }
  const p = timeParts(date);
  return `Gerado em ${p.day}/${p.month}/${p.year} às ${p.hour}:${p.minute}`;
}

// --- Layout ------------------------------------------------------------------------------------

const FONT = 'Helvetica';
const FONTS = {
  [FONT]: { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' },
};
/** pdfmake asks the local-access policy for a font's "file": only these built-in names are allowed. */
const STANDARD_FONT_NAMES = new Set(Object.values(FONTS[FONT]));

const MARGIN_X = 40;
const MARGIN_TOP = 80;
const MARGIN_BOTTOM = 56;
const A4_WIDTH = 595.28;
const A4_HEIGHT = 841.89;
/** Width between the side margins. */
const contentWidth = (doc: Pick<PdfDocument, 'orientation'>) => (doc.orientation === 'landscape' ? A4_HEIGHT : A4_WIDTH) - 2 * MARGIN_X;

const COLOR = { text: '#1f2328', muted: '#57606a', rule: '#c8ccd1', zebra: '#f3f5f7', head: '#e4e7eb' };

function rule(width: number, color = COLOR.rule, margin: [number, number, number, number] = [0, 0, 0, 0]): Content {
  return { canvas: [{ type: 'line', x1: 0, y1: 0, x2: width, y2: 0, lineWidth: 0.75, lineColor: color }], margin };
}

/** 'Memorando nº 12/2026'; a document without a number (a report) by its title alone. */
const fullTitle = (doc: PdfDocument) => (doc.numero ? `${doc.title} nº ${doc.numero}` : doc.title);

function runningHeader(doc: PdfDocument, currentPage: number, width: number): Content {
  const nome = clamp(pdfSafeText(doc.entidade.nome).replace(/\s+/g, ' ').trim(), 110);
  const cnpj = clamp(pdfSafeText(formatCnpj(doc.entidade.cnpj)).replace(/\s+/g, ' ').trim(), 40);
  const reference = currentPage > 1 ? clamp(pdfSafeText(fullTitle(doc)), 60) : '';
  return {
    margin: [MARGIN_X, 24, MARGIN_X, 0],
    stack: [
      {
        columns: [
          {
            width: '*',
            stack: [
              { text: para(nome), bold: true, fontSize: 10 },
              { text: para(`CNPJ ${cnpj}`, 20, 20), fontSize: 8, color: COLOR.muted, margin: [0, 2, 0, 0] },
            ],
          },
          { width: 'auto', text: para(reference, 20, 20), fontSize: 8, color: COLOR.muted, alignment: 'right', margin: [12, 0, 0, 0] },
        ],
      },
      rule(width, COLOR.rule, [0, 5, 0, 0]),
    ],
  };
}

/** The verification line of the footer (one line: the code, the page's address, the start of the hash). */
function verificationText(v: NonNullable<PdfDocument['verification']>): string {
  const code = clamp(pdfSafeText(v.code).trim(), 20);
  const url = clamp(pdfSafeText(v.url).trim(), 70);
  const hash = pdfSafeText(v.hash).slice(0, 16);
  return `Código de verificação: ${code} — confira em ${url} · SHA-256 ${hash}…`;
}

function footer(generated: string, currentPage: number, pageCount: number, width: number, verification?: PdfDocument['verification']): Content {
  return {
    margin: [MARGIN_X, verification ? 12 : 18, MARGIN_X, 0],
    stack: [
      rule(width),
      {
        margin: [0, 5, 0, 0],
        fontSize: 8,
        color: COLOR.muted,
        columns: [
          { width: '*', text: generated },
          { width: 'auto', text: `Página ${currentPage} de ${pageCount}`, alignment: 'right' },
        ],
      },
      // not cut by para(): the address must come out of the PDF as printed (clamped to a line)
      ...(verification ? [{ text: verificationText(verification), fontSize: 7, color: COLOR.muted, margin: [0, 2, 0, 0] } as Content] : []),
    ],
  };
}

function titleBlock(doc: PdfDocument): Content {
  const columns: ContentColumns['columns'] = [{ width: '*', text: para(fullTitle(doc), 20, 20), fontSize: 18, bold: true }];
  const status = doc.status === undefined ? '' : clamp(pdfSafeText(doc.status).trim(), 40);
  if (status) {
    columns.push({
      width: 'auto',
      margin: [12, 3, 0, 0],
      table: { body: [[{ text: para(status, 12, 12), bold: true, fontSize: 9, margin: [4, 1, 4, 1] }]] },
      layout: {
        fillColor: () => COLOR.head,
        hLineWidth: () => 0,
        vLineWidth: () => 0,
      },
    });
  }
  if (!doc.subtitle) return { columns, margin: [0, 0, 0, 10] };
  const subtitle = clamp(pdfSafeText(doc.subtitle).replace(/\s+/g, ' ').trim(), 300);
  return { stack: [{ columns }, { text: para(subtitle), fontSize: 10.5, bold: true, color: COLOR.muted, margin: [0, 3, 0, 0] }], margin: [0, 0, 0, 10] };
}

function factsGrid(fields: PdfDocumentField[], width: number): Content | null {
  if (fields.length === 0) return null;
  const factWidth = (width - 24) / 2;
  const cell = (f: PdfDocumentField | undefined): TableCell =>
    f
      ? {
          stack: [
            { text: para(f.label), fontSize: 7.5, bold: true, color: COLOR.muted },
            { text: para(f.value), fontSize: 10, margin: [0, 1, 0, 0] },
          ],
        }
      : { text: '' };
  const body: TableCell[][] = [];
  for (let i = 0; i < fields.length; i += 2) body.push([cell(fields[i]), cell(fields[i + 1])]);
  return {
    // Fixed widths (the page less the padding, halved): long words wrap inside, never widen a column.
    table: { widths: [factWidth, factWidth], body },
    layout: {
      hLineWidth: (i, node) => (i === 0 || i === node.table.body.length ? 0 : 0.5),
      vLineWidth: () => 0,
      hLineColor: () => COLOR.rule,
      paddingLeft: (i) => (i === 0 ? 0 : 8),
      paddingRight: () => 8,
      paddingTop: () => 4,
      paddingBottom: () => 4,
    },
    margin: [0, 0, 0, 12],
  };
}

/**
 * An upper bound of the width of `text` in Helvetica (regular or bold) at `size` points: digits and
 * '$' 0.556 em, '.', ',', ':', ';' and space 0.278 em, '-' 0.333 em, anything else as wide as 'W'.
 */
function maxWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) em += /[0-9$#]/.test(ch) ? 0.556 : /[.,:; ]/.test(ch) ? 0.278 : ch === '-' ? 0.333 : 0.944;
  return em * size;
}

function itemsTable(items: PdfTable, width: number): Content | null {
  const { columns } = items;
  const n = columns.length;
  if (n === 0) return null;
  const align = (c: PdfDocumentColumn) => c.align ?? 'left';
  // Fixed widths that cannot fit the page (with the cells' padding) become shares of it.
  const fixed = columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width + 8 : 8), 0);
  const widths = columns.map((c) => {
    if (typeof c.width === 'number') return Number.isFinite(c.width) && c.width > 0 && fixed <= width ? c.width : '*';
    return c.width === '*' || c.width === 'auto' ? c.width : align(c) === 'left' ? '*' : 'auto';
  });
  // Endless words are cut into pieces that fit the column's share of the page even in bold
  // (W, the widest letter, is 0.944 em), so together the columns never outgrow the page.
  const chunk = Math.min(LONG_WORD, Math.max(2, Math.floor((width / n - 8) / (0.944 * 9))));
  const text = (value: string) => para(value, chunk, LONG_WORD);
  // Numbers (right-aligned and centred columns) stay on one line, 'R$ 1.234,56' never wraps after
  // 'R$': column by column, narrowest first, while all such columns fit in three quarters of the page.
  const headers = columns.map((c) => clamp(pdfSafeText(c.header), 60));
  const short = (value: string | undefined) => {
    const t = pdfSafeText(value ?? '');
    return t.length <= 40 && !t.includes('\n') ? t : null;
  };
  const need = columns.map((c, i) => {
    if (align(c) === 'left') return Number.POSITIVE_INFINITY;
    const values = [headers[i], ...items.rows.map((row) => row[i]), ...(i === n - 1 && items.total ? [items.total.value] : [])];
    return Math.max(0, ...values.map((v) => maxWidth(short(v) ?? '', 9)));
  });
  const oneLine = new Set<number>();
  let used = 0;
  for (const i of need.map((_, i) => i).sort((a, b) => need[a]! - need[b]!)) {
    if (used + need[i]! + 8 > 0.75 * width) break;
    used += need[i]! + 8;
    oneLine.add(i);
  }
  const cell = (value: string | undefined, column: number, extra: object = {}): TableCell => ({
    text: para(value ?? '', chunk, LONG_WORD),
    alignment: align(columns[column]!),
    ...(oneLine.has(column) && short(value) !== null ? { noWrap: true } : {}),
    ...extra,
  });
  const header: TableCell[] = headers.map((h, i) => cell(h, i, { bold: true, fontSize: 8.5 }));
  const muted = new Set(items.muted ?? []);
  const rows: TableCell[][] = items.rows.map((row, r) => columns.map((_, i) => cell(row[i], i, muted.has(r) ? { color: COLOR.muted } : {})));
  if (rows.length === 0) {
    const empty: TableCell[] = [{ text: pdfSafeText(items.empty ?? 'Nenhum item.'), italics: true, color: COLOR.muted, colSpan: n }];
    for (let i = 1; i < n; i++) empty.push({ text: '' });
    rows.push(empty);
  }
  const hasTotal = items.total !== undefined || items.footer !== undefined;
  if (items.footer) rows.push(columns.map((_, i) => cell(items.footer![i], i, { bold: true })));
  else if (items.total) {
    const { label, value } = items.total;
    if (n === 1) {
      rows.push([{ text: text(`${label}: ${value}`), bold: true, alignment: 'right' }]);
    } else {
      const total: TableCell[] = [{ text: text(label), bold: true, alignment: 'right', colSpan: n - 1 }];
      for (let i = 1; i < n - 1; i++) total.push({ text: '' });
      total.push(cell(value, n - 1, { bold: true, alignment: 'right' }));
      rows.push(total);
    }
  }
  const firstRowShort = (items.rows[0] ?? []).every((v) => typeof v !== 'string' || v.length <= 200);
  const lastRow = rows.length; // body index of the last row (the header is 0)
  const table: ContentTable = {
    // The header row repeats on every page; it is kept with the first row only when that row is
    // surely shorter than a page (pdfmake drops whatever a kept-together block puts past one page).
    table: { headerRows: 1, ...(firstRowShort ? { keepWithHeaderRows: 1 } : {}), widths, body: [header, ...rows] },
    fontSize: 9,
    layout: {
      fillColor: (i) => (i === 0 ? COLOR.head : hasTotal && i === lastRow ? null : i % 2 === 0 ? COLOR.zebra : null),
      hLineWidth: (i, node) => {
        if (i === 0 || i === node.table.body.length) return i === 0 ? 0 : 0.75;
        if (i === 1) return 0.75;
        return hasTotal && i === lastRow ? 1 : 0;
      },
      vLineWidth: () => 0,
      hLineColor: () => COLOR.muted,
      paddingLeft: () => 4,
      paddingRight: () => 4,
      paddingTop: () => 3,
      paddingBottom: () => 3,
    },
    margin: [0, 0, 0, 12],
  };
  return table;
}

/** A group is kept on one page only when it surely fits one (pdfmake drops what an unbreakable block puts past its first page). */
function fitsOnePage(blocks: PdfBlock[]): boolean {
  let lines = 0;
  for (const b of blocks) {
    if ('group' in b) return false;
    if ('table' in b) {
      lines += 2 + b.table.rows.length * 2 + (b.table.total ? 1 : 0);
      if (b.table.rows.some((row) => row.some((v) => (v ?? '').length > 160))) return false;
    } else if ('fields' in b) lines += Math.ceil(b.fields.length / 2) * 2;
    else if ('svg' in b) lines += Math.ceil(b.height / 12);
    else if ('text' in b) lines += 1 + Math.ceil(b.text.length / 100);
    else lines += 2;
  }
  return lines <= 24;
}

function blockContent(block: PdfBlock, width: number): Content | null {
  if ('svg' in block) return { svg: block.svg, fit: [width, block.height], alignment: 'center', margin: [0, 0, 0, 10] } as Content;
  if ('heading' in block) {
    return block.level === 2
      ? { text: para(block.heading), bold: true, fontSize: 10.5, margin: [0, 4, 0, 4] }
      : { stack: [{ text: para(block.heading), bold: true, fontSize: 13 }, rule(width, COLOR.rule, [0, 3, 0, 0])], margin: [0, 6, 0, 8] };
  }
  if ('text' in block) {
    return {
      text: para(block.text),
      fontSize: 9.5,
      lineHeight: 1.2,
      margin: [0, 0, 0, 6],
      ...(block.muted ? { color: COLOR.muted } : {}),
      ...(block.bold ? { bold: true } : {}),
    };
  }
  if ('fields' in block) return factsGrid(block.fields, width);
  if ('table' in block) return itemsTable(block.table, width);
  const stack = block.group.map((b) => blockContent(b, width)).filter((c): c is Content => c !== null);
  return fitsOnePage(block.group) ? { stack, unbreakable: true } : { stack };
}

function sectionsBlock(sections: NonNullable<PdfDocument['sections']>): Content[] {
  return sections.map((s) => ({
    stack: [
      { text: para(s.title), bold: true, fontSize: 11, margin: [0, 0, 0, 4] },
      { text: para(s.text), fontSize: 10, lineHeight: 1.25 },
    ],
    margin: [0, 0, 0, 12],
  }));
}

const SIGNATURE_WIDTH = 220;

function signatureBlock(signatures: NonNullable<PdfDocument['signatures']>): Content | null {
  if (signatures.length === 0) return null;
  const one = (s: { name: string; role: string }): Column => ({
    width: SIGNATURE_WIDTH,
    stack: [
      rule(SIGNATURE_WIDTH, COLOR.text),
      { text: para(clamp(pdfSafeText(s.name), 120)), bold: true, fontSize: 9.5, alignment: 'center', margin: [0, 4, 0, 0] },
      { text: para(clamp(pdfSafeText(s.role), 120)), fontSize: 8.5, color: COLOR.muted, alignment: 'center' },
    ],
  });
  const rows: Content[] = [];
  for (let i = 0; i < signatures.length; i += 2) {
    const pair = signatures.slice(i, i + 2).map(one);
    rows.push({
      columns: [{ width: '*', text: '' }, ...pair.flatMap((c, j) => (j === 0 ? [c] : [{ width: '*', text: '' }, c])), { width: '*', text: '' }],
      margin: [0, 44, 0, 0],
      unbreakable: true,
    });
  }
  // Kept together on one page when that fits (pdfmake drops what an unbreakable block puts beyond
  // its first page, so a long list only keeps each pair together).
  return rows.length <= 4 ? { stack: rows, unbreakable: true, margin: [0, 8, 0, 0] } : { stack: rows, margin: [0, 8, 0, 0] };
}

function definition(doc: PdfDocument): TDocumentDefinitions {
  const generated = generatedAtText(doc.generatedAt);
  const width = contentWidth(doc);
  const content: Content[] = [titleBlock(doc)];
  const facts = factsGrid(doc.fields ?? [], width);
  if (facts) content.push(facts);
  const items = doc.items ? itemsTable(doc.items, width) : null;
  if (items) content.push(items);
  for (const block of doc.blocks ?? []) {
    const c = blockContent(block, width);
    if (c) content.push(c);
  }
  content.push(...sectionsBlock(doc.sections ?? []));
  const signatures = signatureBlock(doc.signatures ?? []);
  if (signatures) content.push(signatures);
  return {
    pageSize: 'A4',
    pageOrientation: doc.orientation === 'landscape' ? 'landscape' : 'portrait',
    pageMargins: [MARGIN_X, MARGIN_TOP, MARGIN_X, MARGIN_BOTTOM],
    info: {
      title: clamp(pdfSafeText(fullTitle(doc)), 200),
      author: clamp(pdfSafeText(doc.entidade.nome), 200),
      creator: 'Compras',
    },
    language: 'pt-BR',
    defaultStyle: { font: FONT, fontSize: 10, color: COLOR.text },
    header: (currentPage) => runningHeader(doc, currentPage, width),
    footer: (currentPage, pageCount) => footer(generated, currentPage, pageCount, width, doc.verification),
    content,
  };
}

let pdfMakeModule: Promise<typeof import('pdfmake')> | undefined;

/** pdfmake (with pdfkit and fontkit) loads on the first PDF in the worker, not with every server and test that imports server-core. */
function loadPdfMake(): Promise<typeof import('pdfmake')> {
  pdfMakeModule ??= import('pdfmake').then((m) => ((m as { default?: typeof import('pdfmake') }).default ?? m) as typeof import('pdfmake'));
  return pdfMakeModule;
}

/**
 * The PDF rendered in this thread: what pdf-worker.ts runs. The pdfmake definition (with its header,
 * footer and table-layout functions, which cannot cross threads) is built here from the plain
 * `PdfDocument`. Servers call renderDocumentPdf, never this.
 */
export async function renderDocumentPdfInThisThread(doc: PdfDocument): Promise<Uint8Array> {
  const dd = definition(doc);
  const pdfMake = await loadPdfMake();
  // pdfmake is one shared instance: set what this render needs right before creating it (the
  // printer captures fonts and policies synchronously). No URL is fetched, no file is read except
  // the built-in font metrics.
  pdfMake.setFonts(FONTS);
  pdfMake.setUrlAccessPolicy(() => false);
  pdfMake.setLocalAccessPolicy((path) => STANDARD_FONT_NAMES.has(path));
  const buffer = await pdfMake.createPdf(dd).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// --- The worker pool ---------------------------------------------------------------------------
// pdfmake lays out and writes the whole document synchronously (a 400-page report takes seconds):
// it runs in worker threads (pdf-worker.ts), so the server keeps answering everyone else meanwhile.
// COMPRAS_PDF_WORKERS workers (default 1 on a 2-core machine, at most 2), a queue of at most 16
// documents (more answers 429), each worker's heap capped and a document taking more than a minute
// abandoned (413); background jobs' documents in a lane of their own (below). A document whose request was abandoned (its AbortSignal) leaves the queue, or has
// its worker terminated. How many documents ONE person may have in the making is bounded by the
// routes (document-jobs.ts).

type PdfAnswer = { id: number; ok: true; bytes: ArrayBuffer } | { id: number; ok: false; message: string };

const pdfError = (message: string) => new AppError(413, 'pdf_grande', message);

/** A positive integer from the environment, or `fallback`. */
const fromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** The time limit of a PDF a person waits for (a request): a minute. */
export const PDF_TIMEOUT_MS = 60_000;

/** A document for the worker: as it is (cloned by postMessage), or as JSON text written by pieces (pieces.ts). */
type PdfTaskInput = { doc: PdfDocument } | { json: string };

function createPdfPool(size: number, timeoutMs: number, heapMb: number, nice = 0) {
  return createWorkerPool<PdfTaskInput, Uint8Array>({
    worker: 'pdf-worker',
    nice,
    size,
    maxQueue: 16,
    timeoutMs,
    heapMb,
    // structured clone: strings, arrays and the Date (or one string)
    message: (id, input) => ({ message: { id, ...input } }),
    answer(message) {
      const answer = message as PdfAnswer;
      return answer.ok ? { ok: true, value: new Uint8Array(answer.bytes) } : { ok: false, error: new Error(`PDF: ${answer.message}`) };
    },
    errors: {
      busy: () =>
        new AppError(429, 'pdf_ocupado', 'Há muitos documentos sendo gerados agora: tente novamente em instantes.', undefined, { 'Retry-After': '5' }),
      timeout: () => pdfError('O documento é grande demais para gerar o PDF: demorou demais.'),
      outOfMemory: () => pdfError('O documento é grande demais para gerar o PDF.'),
      crashed: () => new Error('PDF: o gerador de PDF falhou.'),
      exited: () => new Error('PDF: o gerador de PDF parou durante o documento.'),
    },
  });
}

const pdfPool = createPdfPool(
  Math.max(1, Number(process.env.COMPRAS_PDF_WORKERS) || Math.min(2, Math.max(1, availableParallelism() - 1))),
  PDF_TIMEOUT_MS,
  768,
);

// The background lane: documents of background jobs (a report of 50 000 rows: about a minute and
// 1.5 GB in pdfmake) have worker(s) of their own, so the PDFs people wait for never queue behind
// one, with a longer time limit and a larger heap. Its worker starts on demand and exits after
// 30 s without work (its memory goes with it).
/** The time limit of a background job's PDF: COMPRAS_PDF_BACKGROUND_MINUTES (default 20). */
export const PDF_BACKGROUND_TIMEOUT_MS = fromEnv('COMPRAS_PDF_BACKGROUND_MINUTES', 20) * 60_000;

const pdfBackgroundPool = createPdfPool(
  fromEnv('COMPRAS_PDF_BACKGROUND_WORKERS', 1),
  PDF_BACKGROUND_TIMEOUT_MS,
  fromEnv('COMPRAS_PDF_BACKGROUND_HEAP_MB', 3072),
  // below the request thread's priority: the other people's requests do not wait behind the job's CPU
  backgroundNice(),
);

/** Options of one PDF: the request's signal, or a background job's lane; `timeoutMs` overrides the lane's limit. */
export interface PdfRenderOptions extends WorkerTaskOptions {
  /**
   * A document made by a background job (never one a person waits for): rendered in the background
   * lane, COMPRAS_PDF_BACKGROUND_WORKERS workers (default 1) with a heap of
   * COMPRAS_PDF_BACKGROUND_HEAP_MB (default 3072) and a time limit of COMPRAS_PDF_BACKGROUND_MINUTES
   * (default 20) instead of a minute.
   */
  background?: boolean;
}

/**
 * The document as a PDF (A4 portrait, or landscape): entidade and CNPJ on every page, title and
 * number, status, a two-column grid of facts, the items table (header repeated on each page, total at
 * the end), the blocks (headings, paragraphs, facts, tables), long texts, signatures, and a footer
 * with the generation time and 'Página n de N'. Rendered in a worker thread (the request thread stays
 * free); rejects with a 429 AppError when too many documents wait, 413 when one is too big to render,
 * and the clientGone() error (499) once `options.signal` (the request's, `c.req.raw.signal`) is aborted:
 * the document is then dropped from the queue, or its render stopped.
 */
export async function renderDocumentPdf(doc: PdfDocument, options: PdfRenderOptions = {}): Promise<Uint8Array> {
  generatedAtText(doc.generatedAt); // an invalid date is the caller's RangeError, here
  const { background, ...task } = options;
  if (!background) return pdfPool.run({ doc }, task);
  // a background job's document is big: written as JSON by pieces here, so handing it over does not hold this thread
  return pdfBackgroundPool.run({ json: await toJson(doc) }, task);
}

/** PDF workers alive, busy, documents waiting, and counters (for benchmarks and tests); `background`: the background lane's. */
export function pdfPoolStats(options: { background?: boolean } = {}): WorkerPoolStats {
  return (options.background ? pdfBackgroundPool : pdfPool).stats();
}
