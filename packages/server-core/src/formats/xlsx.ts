// THE spreadsheet writers of the project (no dependency): CSV for Brazilian Excel (UTF-8 BOM, ';'
// separator, decimal comma) and XLSX (Office Open XML in a deflated ZIP), for list exports and the
// import templates alike. `pnpm bench` (scripts/bench-xlsx.mjs) measures this writer against exceljs'
// streaming WorkbookWriter on a 100 000-row export: this one is kept because it is faster and smaller
// in memory (figures in the script). exceljs stays the READER of uploaded files (spreadsheet-read.ts).
import { formatDateTime, timeParts } from '@app/br';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * An exact decimal: a numeric column's text ('1234.5', '-0.0001'). XLSX writes it as a number shown
 * with `places` decimal places and the thousands separator ('#,##0.00': 1.234,50 in a pt-BR Excel),
 * never through a float; CSV writes it with a decimal comma ('1234,50'). Text that is not a decimal
 * is written as text.
 */
export interface DecimalCell {
  decimal: string;
  /** Decimal places shown (0–6, default 2); more digits in `decimal` are kept, never rounded. */
  places?: number;
}

export type CellValue = string | number | boolean | Date | DecimalCell | null | undefined;

const DECIMAL = /^-?\d+(\.\d+)?$/;
const placesOf = (cell: DecimalCell) => Math.min(6, Math.max(0, Math.trunc(cell.places ?? 2)));

/** The decimal's text with at least `places` decimals ('1234.5', 2 → '1234.50'), or undefined when it is not a decimal. */
function decimalText(cell: DecimalCell): string | undefined {
  if (typeof cell.decimal !== 'string') return undefined;
  const text = cell.decimal.trim();
  if (!DECIMAL.test(text)) return undefined;
  const places = placesOf(cell);
  const [int, frac = ''] = text.split('.');
  return places === 0 && frac === '' ? int! : `${int}.${frac.padEnd(places, '0')}`;
}

/** Text of a cell as a person reads it: Sim/Não, dd/mm/aaaa hh:mm (America/Sao_Paulo). */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (value instanceof Date) return formatDateTime(value);
  if (typeof value === 'number') return String(value).replace('.', ',');
  if (typeof value === 'object') {
    const decimal = decimalText(value);
    return decimal !== undefined ? decimal.replace('.', ',') : typeof value.decimal === 'string' ? value.decimal : JSON.stringify(value);
  }
  return String(value);
}

/** Text starting with = + - @ (or a tab, a CR) that a spreadsheet would run as a formula (CSV injection). */
function looksLikeFormula(text: string): boolean {
  return /^[=+\-@\t\r]/.test(text) && !/^-?\d+([.,]\d+)?$/.test(text);
}

/** CSV: such text gets a leading apostrophe. */
function defuse(text: string): string {
  return looksLikeFormula(text) ? `'${text}` : text;
}

/** One CSV field for Excel in pt-BR: formulas defused, quoted when it holds ';', '"' or a line break. */
export function csvField(value: CellValue): string {
  const text = defuse(cellText(value));
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (';' separated, CRLF): for exports streamed line by line. */
export function csvLine(cells: readonly CellValue[]): string {
  return `${cells.map(csvField).join(';')}\r\n`;
}

/** CSV for Excel in pt-BR: BOM, ';', CRLF, quotes doubled, formulas defused. */
export function toCsv(header: readonly string[], rows: readonly (readonly CellValue[])[]): string {
  return `\uFEFF${[header, ...rows].map(csvLine).join('')}`;
}

// ------------------------------------------------------------------------------------------ XLSX

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Text as XML character data (characters XML 1.0 forbids are dropped). */
export function xmlEscape(text: string): string {
  return (
    text
      // characters XML 1.0 forbids
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** Spreadsheet column letters of a 0-based index: 0 → A, 26 → AA. */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** UTC hour → offset of the Sao Paulo wall clock (ms); offsets only change on the hour there. */
const offsets = new Map<number, number>();

function saoPauloOffset(time: number): number {
  const hour = Math.floor(time / 3_600_000);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const at = hour * 3_600_000;
    const p = timeParts(new Date(at));
    offset = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - at;
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/** Excel serial date (days since 1899-12-30) of the Sao Paulo wall-clock time. */
function excelDate(date: Date): number {
  const time = date.getTime();
  return (time + saoPauloOffset(time)) / 86_400_000 + 25_569;
}

// Cell styles (cellXfs, by index). Every workbook carries the same stylesheet.
const S_HEADER = 1; // bold
const S_DATE_TIME = 2; // dd/mm/yyyy hh:mm
const S_TEXT = 3; // '@': what a person types stays text (leading zeros)
const S_HEADER_TEXT = 4; // bold, '@'
const S_QUOTED = 5; // text that looks like a formula: quotePrefix, as Excel does for '=1+1
const S_QUOTED_TEXT = 6; // same in a text column
const S_DECIMAL = 7; // + places (0–6): #,##0 … #,##0.000000
// Cells a person fills in a protected form sheet (unlocked, light yellow): text, dd/mm/yyyy, #,##0.00##.
const S_INPUT_TEXT = 14;
const S_INPUT_DATE = 15;
const S_INPUT_DECIMAL = 16;

const STYLES = (() => {
  const decimals = Array.from({ length: 7 }, (_, places) => (places === 0 ? '#,##0' : `#,##0.${'0'.repeat(places)}`));
  const xf = (attrs: string) => `<xf fontId="0" fillId="0" borderId="0" xfId="0" ${attrs}/>`;
  const input = (numFmtId: number) =>
    `<xf numFmtId="${numFmtId}" fontId="0" fillId="2" borderId="1" xfId="0" applyNumberFormat="1" applyFill="1" applyBorder="1" applyProtection="1"><protection locked="0"/></xf>`;
  const xfs = [
    xf('numFmtId="0"'),
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
    xf('numFmtId="164" applyNumberFormat="1"'),
    xf('numFmtId="49" applyNumberFormat="1"'),
    '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>',
    xf('numFmtId="0" quotePrefix="1"'),
    xf('numFmtId="49" applyNumberFormat="1" quotePrefix="1"'),
    ...decimals.map((_f, i) => xf(`numFmtId="${165 + i}" applyNumberFormat="1"`)),
    input(49),
    input(172),
    input(173),
  ];
  const numFmts = ['dd/mm/yyyy hh:mm', ...decimals, 'dd/mm/yyyy', '#,##0.00##'].map((code, i) => `<numFmt numFmtId="${164 + i}" formatCode="${code}"/>`);
  return (
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
    `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>' +
    '<fill><patternFill patternType="solid"><fgColor rgb="FFFFF8D6"/><bgColor indexed="64"/></patternFill></fill></fills>' +
    '<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>' +
    '<border><left style="thin"><color rgb="FFB0B7BF"/></left><right style="thin"><color rgb="FFB0B7BF"/></right>' +
    '<top style="thin"><color rgb="FFB0B7BF"/></top><bottom style="thin"><color rgb="FFB0B7BF"/></bottom><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>'
  );
})();

/** What a person types in a cell of a form sheet: text, a date (dd/mm/aaaa) or a decimal (shown with 2 to 4 places). */
export type XlsxInput = 'text' | 'date' | 'decimal';

/** One sheet of an XLSX workbook. */
export interface XlsxSheet {
  /** Tab name (characters Excel refuses are replaced, cut to 31). */
  name: string;
  /**
   * Rows above the header, e.g. the title block of a form (label in the first cell, bold; values
   * after it). The header row comes right after them, and the frozen pane and filter with it.
   */
  preamble?: readonly (readonly CellValue[])[];
  /** The header row (the first row without a preamble), bold. */
  header: readonly string[];
  rows: readonly (readonly CellValue[])[];
  /** Column widths in characters (default: the header and the first 500 rows, 8 to 60). */
  widths?: readonly number[];
  /** Header row frozen (default true). */
  freezeHeader?: boolean;
  /** Auto-filter on the header (default true). */
  autoFilter?: boolean;
  /** Every column formatted as text ('@'), so CNPJs, CEPs and codes typed later keep their leading zeros (templates). */
  textColumns?: boolean;
  /** Columns (0-based) hidden, e.g. the key of each row that an import reads back. */
  hiddenColumns?: readonly number[];
  /**
   * A form a person fills and sends back: the sheet is protected (without a password: it guards
   * against slips, it is no secret) and only these cells can be edited, shaded and formatted for what
   * is typed in them: `columns` (0-based) of every data row, and single `cells` ('B7', e.g. of the
   * preamble). Column widths and row heights stay adjustable.
   */
  inputs?: {
    columns?: Readonly<Record<number, XlsxInput>>;
    cells?: Readonly<Record<string, XlsxInput>>;
  };
}

const INPUT_STYLE: Record<XlsxInput, number> = { text: S_INPUT_TEXT, date: S_INPUT_DATE, decimal: S_INPUT_DECIMAL };

/** A cell a person fills: unlocked and shaded, holding `value` when there is one (numbers and dates as such). */
function inputCellXml(ref: string, value: CellValue, input: XlsxInput): string {
  const style = INPUT_STYLE[input];
  if (value === null || value === undefined || value === '') return `<c r="${ref}" s="${style}"/>`;
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}" s="${style}"><v>${value}</v></c>`;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return `<c r="${ref}" s="${style}"><v>${excelDate(value)}</v></c>`;
  if (typeof value === 'object' && !(value instanceof Date)) {
    const decimal = decimalText(value);
    if (decimal !== undefined) return `<c r="${ref}" s="${style}"><v>${decimal}</v></c>`;
  }
  return `<c r="${ref}" t="inlineStr" s="${style}"><is><t xml:space="preserve">${xmlEscape(cellText(value))}</t></is></c>`;
}

function cellXml(ref: string, value: CellValue, header: boolean, text: boolean): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"><v>${value}</v></c>`;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? '' : `<c r="${ref}" s="${S_DATE_TIME}"><v>${excelDate(value)}</v></c>`;
  }
  if (typeof value === 'object') {
    const decimal = decimalText(value);
    if (decimal !== undefined) return `<c r="${ref}" s="${S_DECIMAL + placesOf(value)}"><v>${decimal}</v></c>`;
  }
  const content = cellText(value);
  // an inline string is never a formula; quotePrefix keeps it text when the cell is edited in Excel
  const style = header ? (text ? S_HEADER_TEXT : S_HEADER) : looksLikeFormula(content) ? (text ? S_QUOTED_TEXT : S_QUOTED) : text ? S_TEXT : 0;
  return `<c r="${ref}" t="inlineStr"${style ? ` s="${style}"` : ''}><is><t xml:space="preserve">${xmlEscape(content)}</t></is></c>`;
}

/** The worksheet XML in chunks of about 1 MB, made as the zip asks for them (never one big string). */
function* sheetXml(sheet: XlsxSheet): Generator<Buffer> {
  const { header, rows } = sheet;
  const preamble = sheet.preamble ?? [];
  const headerRow = preamble.length + 1;
  const columns = Math.max(header.length, ...(sheet.widths ? [sheet.widths.length] : []), ...(sheet.hiddenColumns ?? []).map((c) => c + 1));
  const widths = Array.from({ length: columns }, (_, i) => {
    if (sheet.widths?.[i] !== undefined) return sheet.widths[i]!;
    let max = (header[i] ?? '').length;
    for (let r = 0; r < rows.length && r < 500; r++) max = Math.max(max, cellText(rows[r]![i]).length);
    return Math.min(60, Math.max(8, max + 2));
  });
  const text = sheet.textColumns === true;
  const hidden = new Set(sheet.hiddenColumns ?? []);
  const cols = widths
    .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"${text ? ` style="${S_TEXT}"` : ''}${hidden.has(i) ? ' hidden="1"' : ''}/>`)
    .join('');
  const pane =
    sheet.freezeHeader === false
      ? '<sheetViews><sheetView workbookViewId="0"/></sheetViews>'
      : `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${headerRow}" topLeftCell="A${headerRow + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>`;
  const inputColumns = sheet.inputs?.columns ?? {};
  const inputCells = sheet.inputs?.cells ?? {};
  const protect = sheet.inputs !== undefined;
  const names: string[] = [];
  const ref = (c: number, r: number) => {
    if (names[c] === undefined) names[c] = columnName(c);
    return `${names[c]}${r}`;
  };
  let part = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}">${pane}${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`;
  const rowXml = (row: readonly CellValue[], r: number, kind: 'preamble' | 'header' | 'data') => {
    let xml = `<row r="${r}">`;
    const width = kind === 'data' ? Math.max(row.length, columns) : row.length;
    for (let c = 0; c < width; c++) {
      const at = ref(c, r);
      const input = kind === 'data' ? inputColumns[c] : inputCells[at];
      if (input) xml += inputCellXml(at, row[c], input);
      // the preamble's labels (first cells) bold, like the header
      else xml += cellXml(at, row[c], kind === 'header' || (kind === 'preamble' && c === 0), text);
    }
    return `${xml}</row>`;
  };
  for (let r = 0; r < preamble.length; r++) part += rowXml(preamble[r]!, r + 1, 'preamble');
  part += rowXml(header, headerRow, 'header');
  for (let r = 0; r < rows.length; r++) {
    part += rowXml(rows[r]!, headerRow + 1 + r, 'data');
    if (part.length > 1 << 20) {
      yield Buffer.from(part, 'utf8');
      part = '';
    }
  }
  part += '</sheetData>';
  // no password; column widths and row heights stay adjustable
  if (protect) part += '<sheetProtection sheet="1" objects="1" scenarios="1" formatColumns="0" formatRows="0"/>';
  if (sheet.autoFilter !== false && header.length > 0) part += `<autoFilter ref="${filterRange(sheet)}"/>`;
  yield Buffer.from(`${part}</worksheet>`, 'utf8');
}

const filterRange = (sheet: XlsxSheet) => {
  const headerRow = (sheet.preamble?.length ?? 0) + 1;
  return `A${headerRow}:${columnName(sheet.header.length - 1)}${headerRow + sheet.rows.length}`;
};
const sheetName = (name: string) => name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Planilha';

/**
 * The raw deflate stream of `data` given in chunks, compressed chunk by chunk: every chunk but the
 * last ends on a sync flush (no final bit), so the pieces join into one valid stream and only one
 * chunk of the input is ever held besides the compressed output.
 */
function deflateChunks(data: Uint8Array | Iterable<Uint8Array>): { compressed: Buffer[]; size: number; crc: number } {
  const compressed: Buffer[] = [];
  let size = 0;
  let crc = 0;
  let previous: Uint8Array | undefined;
  for (const chunk of data instanceof Uint8Array ? [data] : data) {
    if (previous) compressed.push(deflateRawSync(previous, { finishFlush: constants.Z_SYNC_FLUSH }));
    crc = crc32(chunk, crc);
    size += chunk.length;
    previous = chunk;
  }
  compressed.push(deflateRawSync(previous ?? new Uint8Array(0)));
  return { compressed, size, crc };
}

/** A ZIP archive (deflate) of the given files; a file's data may come in chunks (a generator). */
export function zip(files: readonly { name: string; data: Uint8Array | Iterable<Uint8Array> }[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  // 1980-01-01 00:00 (DOS time): a fixed stamp keeps the output reproducible
  const dosTime = 0;
  const dosDate = (0 << 9) | (1 << 5) | 1;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const { compressed, size, crc } = deflateChunks(file.data);
    const compressedSize = compressed.reduce((n, b) => n + b.length, 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, name, ...compressed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(dosTime, 12);
    entry.writeUInt16LE(dosDate, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(compressedSize, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += local.length + name.length + compressedSize;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...central, end]);
}

/**
 * An XLSX workbook: each sheet with a bold header (frozen, with an auto-filter unless told
 * otherwise), numbers and exact decimals as numbers, dates as dates (Sao Paulo wall clock), Sim/Não,
 * text as inline strings (text that looks like a formula stays text, with Excel's quote prefix).
 */
export function xlsxWorkbook(sheets: readonly XlsxSheet[]): Uint8Array {
  if (sheets.length === 0) throw new Error('xlsxWorkbook: no sheet');
  const text = (s: string) => Buffer.from(s, 'utf8');
  const names = sheets.map((s) => xmlEscape(sheetName(s.name)));
  const filters = sheets
    .map((s, i) =>
      s.autoFilter !== false && s.header.length > 0
        ? `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">'${names[i]!.replace(/'/g, "''")}'!${filterRange(s).replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')}</definedName>`
        : '',
    )
    .join('');
  return zip([
    {
      name: '[Content_Types].xml',
      data: text(
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          sheets
            .map(
              (_s, i) =>
                `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
            )
            .join('') +
          '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: text(
        `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: text(
        `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
          names.map((name, i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
          `</sheets>${filters ? `<definedNames>${filters}</definedNames>` : ''}</workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: text(
        `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
          sheets.map((_s, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
          `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/styles.xml', data: text(STYLES) },
    ...sheets.map((s, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: sheetXml(s) })),
  ]);
}

/** One-sheet XLSX of a list export: bold frozen header with auto-filter, numbers as numbers, dates as dates. */
export function toXlsx(sheetName: string, header: readonly string[], rows: readonly (readonly CellValue[])[]): Uint8Array {
  return xlsxWorkbook([{ name: sheetName, header, rows }]);
}
