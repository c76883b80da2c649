// Import files are bounded (rows, uncompressed bytes) and read in a worker thread: a 1 MB "zip bomb"
// XLSX is refused with a pt-BR 413 after reading only what the limit needs, while other requests
// are still answered.
import { Buffer } from 'node:buffer';
import { createDeflateRaw } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SPREADSHEET_LIMITS,
  defineServerPlugin,
  defineSpreadsheetImport,
  parseCsv,
  readSpreadsheetInWorker,
  scanXlsx,
  spreadsheetPoolStats,
} from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';
import { toXlsx } from '../src/formats/xlsx.js';

const ROWS_MESSAGE = 'A planilha tem mais de 10.000 linhas: divida o arquivo (limite de 10.000 linhas por importação).';
const BYTES_MESSAGE = 'A planilha descompactada tem mais de 50 MB: divida o arquivo (limite de 50 MB de dados por importação).';

/** Deflates head + unit×count + tail as a stream (the whole text never exists in memory). */
async function deflateRepeated(head: string, unit: string, count: number, tail: string): Promise<{ data: Buffer; size: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.from(unit.repeat(unit ? Math.max(1, Math.floor((256 * 1024) / unit.length)) : 0));
  const perBlock = unit ? block.length / unit.length : 1;
  deflate.write(head);
  let left = unit ? count : 0;
  while (left > 0) {
    const n = Math.min(left, perBlock);
    const ok = deflate.write(n === perBlock ? block : Buffer.from(unit.repeat(n)));
    left -= n;
    if (!ok) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end(tail);
  await done;
  return { data: Buffer.concat(chunks), size: Buffer.byteLength(head) + unit.length * count + Buffer.byteLength(tail) };
}

interface RawEntry {
  name: string;
  /** Deflated data. */
  data: Buffer;
  /** What the zip declares (may lie). */
  declaredSize: number;
}

/** A zip of already deflated entries, with the sizes we want it to declare (CRC not checked by the scan). */
function rawZip(entries: RawEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, e.data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(e.data.length, 20);
    entry.writeUInt32LE(e.declaredSize, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + e.data.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const small = async (text: string): Promise<RawEntry> => {
  const { data, size } = await deflateRepeated(text, '', 0, '');
  return { name: '', data, declaredSize: size };
};

const SHEET_HEAD = `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

/** An XLSX around an already deflated sheet, declaring `declared` bytes for it (default: a lie, 1 000). */
async function xlsxWithSheet(sheet: { data: Buffer; size: number }, declared = 1000): Promise<{ file: Uint8Array; sheetSize: number }> {
  const parts: [string, string][] = [
    [
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Dados" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ],
  ];
  const entries: RawEntry[] = [];
  for (const [name, text] of parts) entries.push({ ...(await small(text)), name });
  entries.push({ name: 'xl/worksheets/sheet1.xml', data: sheet.data, declaredSize: declared });
  return { file: rawZip(entries), sheetSize: sheet.size };
}

/** An XLSX whose sheet is `unit` repeated `count` times (the XML never exists whole in memory). */
async function bombXlsx(unit: string, count: number, declared = 1000) {
  return xlsxWithSheet(await deflateRepeated(SHEET_HEAD, unit, count, SHEET_TAIL), declared);
}

const ROW = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';
type Stats = { declaredBytes: number; bytesRead: number; rowsSeen: number };
const rejection = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as { status: number; code: string; message: string; stats?: Stats };
  }
  throw new Error('expected a rejection');
};

describe('import limits (worker thread)', () => {
  let rowsBomb: { file: Uint8Array; sheetSize: number };
  let bytesBomb: { file: Uint8Array; sheetSize: number };
  beforeAll(async () => {
    // 1 000 000 rows: ≈ 50 MB of XML in a zip of a few dozen KB
    rowsBomb = await bombXlsx(ROW, 1_000_000);
    // one 128 MB cell: 128 MB of XML, the zip declaring 1 000 bytes
    bytesBomb = await xlsxWithSheet(
      await deflateRepeated(`${SHEET_HEAD}<row><c t="inlineStr"><is><t>`, 'a', 128 * 1024 * 1024, `</t></is></c></row>${SHEET_TAIL}`),
    );
  }, 120_000);

  it('a 1 000 000-row XLSX bomb is refused for its rows after reading only the first ones', async () => {
    expect(rowsBomb.file.length).toBeLessThan(1024 * 1024);
    const err = await rejection(readSpreadsheetInWorker(rowsBomb.file, 'xlsx', DEFAULT_SPREADSHEET_LIMITS));
    expect(err).toMatchObject({ status: 413, code: 'planilha_linhas', message: ROWS_MESSAGE });
    // stopped at the first row over the limit: 10 000 data rows + the header + 1
    expect(err.stats!.rowsSeen).toBe(10_002);
    expect(err.stats!.bytesRead).toBeLessThan(rowsBomb.sheetSize / 10);
  });

  it('a zip that lies about its sizes is refused at 50 MB inflated, counted while inflating', async () => {
    const err = await rejection(readSpreadsheetInWorker(bytesBomb.file, 'xlsx', DEFAULT_SPREADSHEET_LIMITS));
    expect(err).toMatchObject({ status: 413, code: 'planilha_tamanho', message: BYTES_MESSAGE });
    expect(err.stats!.declaredBytes).toBeLessThan(10_000);
    expect(err.stats!.bytesRead).toBeGreaterThan(DEFAULT_SPREADSHEET_LIMITS.maxBytes);
    // stopped one chunk past the limit, far before the end
    expect(err.stats!.bytesRead).toBeLessThan(DEFAULT_SPREADSHEET_LIMITS.maxBytes + 1024 * 1024);
    expect(err.stats!.bytesRead).toBeLessThan(bytesBomb.sheetSize);
  });

  it('declared sizes over the limit are refused before inflating anything', async () => {
    const honest = await bombXlsx(ROW, 1_000_000, 60 * 1024 * 1024);
    const err = await rejection(scanXlsx(honest.file));
    expect(err).toMatchObject({ status: 413, message: BYTES_MESSAGE });
    expect(err.stats!.bytesRead).toBe(0);
  });

  it('a CSV over 10 000 rows is refused, stopping at the first row over', async () => {
    const csv = `Código;Nome\n${'1;x\n'.repeat(10_001)}`;
    const err = await rejection(readSpreadsheetInWorker(Buffer.from(csv), 'csv', DEFAULT_SPREADSHEET_LIMITS));
    expect(err).toMatchObject({ status: 413, code: 'planilha_linhas', message: ROWS_MESSAGE });
    expect(err.stats!.rowsSeen).toBe(10_002);
    // exactly 10 000 data rows are fine
    const ok = await parseCsv(`Código;Nome\n${'1;x\n'.repeat(10_000)}`);
    expect(ok.rows).toHaveLength(10_000);
    // and a CSV over the byte bound
    const bytes = await rejection(readSpreadsheetInWorker(Buffer.from(csv), 'csv', { maxRows: 100_000, maxBytes: 1000 }));
    expect(bytes).toMatchObject({ status: 413, message: 'O arquivo tem mais de 0 MB: divida o arquivo (limite de 0 MB por importação).' });
  });
});

const itensPlugin = defineServerPlugin({
  id: 'itens',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [{ tag: 24, nome: 'Itens' }],
  routes(router) {
    defineSpreadsheetImport(router, {
      path: '/itens',
      tag: 24,
      plural: 'itens',
      columns: { Código: 'codigo', Nome: 'nome' },
      sheetName: 'Itens',
      run: async ({ sheet, dryRun }) => ({
        ok: sheet.errors.length === 0,
        dryRun,
        total: sheet.rows.length,
        imported: 0,
        errorCount: sheet.errors.length,
        errors: sheet.errors,
      }),
    });
  },
});

describeEachDatabase('import limits over HTTP', { plugins: [itensPlugin] }, (t) => {
  let token: string;
  let rowsBomb: Uint8Array;
  let bytesBomb: Uint8Array;
  beforeAll(async () => {
    token = (await t.server.signIn()).token;
    rowsBomb = (await bombXlsx(ROW, 1_000_000)).file;
    bytesBomb = (
      await xlsxWithSheet(await deflateRepeated(`${SHEET_HEAD}<row><c t="inlineStr"><is><t>`, 'a', 128 * 1024 * 1024, `</t></is></c></row>${SHEET_TAIL}`))
    ).file;
  }, 120_000);

  const upload = (bytes: Uint8Array, filename: string, type: string) => {
    const form = new FormData();
    form.set('arquivo', new File([Buffer.from(bytes)], filename, { type }));
    return Promise.resolve(
      t.server.app.request('/api/itens/itens/importar?dryRun=true', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }),
    );
  };
  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

  it('answers 413 with the pt-BR limit message for an XLSX bomb and for a CSV over 10 000 rows', async () => {
    const xlsx = await upload(rowsBomb, 'bomba.xlsx', XLSX);
    expect(xlsx.status).toBe(413);
    expect(((await xlsx.json()) as { error: { message: string } }).error.message).toBe(ROWS_MESSAGE);
    const big = await upload(bytesBomb, 'grande.xlsx', XLSX);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toBe(BYTES_MESSAGE);
    const csv = await upload(Buffer.from(`Código;Nome\n${'1;x\n'.repeat(10_001)}`), 'itens.csv', 'text/csv');
    expect(csv.status).toBe(413);
    expect(((await csv.json()) as { error: { message: string; fields: Record<string, string> } }).error).toEqual({
      code: 'planilha_linhas',
      message: ROWS_MESSAGE,
      // the import page shows fields.arquivo under the file input
      fields: { arquivo: ROWS_MESSAGE },
    });
  });

  it('a normal file is still imported (XLSX and CSV)', async () => {
    const xlsx = await upload(
      toXlsx(
        'Itens',
        ['Código', 'Nome'],
        [
          ['1', 'Caneta'],
          ['2', 'Lápis'],
        ],
      ),
      'itens.xlsx',
      XLSX,
    );
    expect(xlsx.status).toBe(200);
    expect(await xlsx.json()).toMatchObject({ ok: true, total: 2 });
    const csv = await upload(Buffer.from(`Código;Nome\n${'1;x\n'.repeat(10_000)}`), 'itens.csv', 'text/csv');
    expect(csv.status).toBe(200);
    expect(await csv.json()).toMatchObject({ total: 10_000 });
  });

  it('while bombs are read, /api/health answers first (the request thread is free); three at once all get 413', async () => {
    const order: string[] = [];
    const imports = [bytesBomb, bytesBomb, bytesBomb].map((bomb) =>
      upload(bomb, 'grande.xlsx', XLSX).then((res) => {
        order.push('import');
        return res.status;
      }),
    );
    const health = t.server.request('/api/health').then((res) => {
      order.push('health');
      return res.status;
    });
    expect(await health).toBe(200);
    expect(await Promise.all(imports)).toEqual([413, 413, 413]);
    expect(order[0]).toBe('health');
  });
});

describe('readSpreadsheetInWorker', () => {
  it('reads a small file given as a view of a larger buffer (a pooled Buffer)', async () => {
    const sheet = await readSpreadsheetInWorker(Buffer.from('A;B\n1;2\n'), 'csv', DEFAULT_SPREADSHEET_LIMITS);
    expect(sheet).toEqual({ format: 'csv', headers: ['A', 'B'], rows: [{ linha: 2, cells: { A: '1', B: '2' } }], errors: [] });
  });

  it('a bounded queue: beyond the workers and 8 files waiting, 429 with a pt-BR message (never a 5xx)', async () => {
    const { size } = spreadsheetPoolStats();
    const csv = Buffer.from(`Código;Nome\n${'1;x\n'.repeat(10_001)}`);
    const results = await Promise.all(
      Array.from({ length: size + 8 + 3 }, () =>
        readSpreadsheetInWorker(csv, 'csv', DEFAULT_SPREADSHEET_LIMITS).then(
          () => 200,
          (err: { status: number; message: string }) => `${err.status} ${err.message}`,
        ),
      ),
    );
    expect(results.slice(0, size + 8)).toEqual(Array(size + 8).fill(`413 ${ROWS_MESSAGE}`));
    expect(results.slice(size + 8)).toEqual(Array(3).fill('429 Há muitas planilhas sendo lidas agora: tente novamente em instantes.'));
    expect(spreadsheetPoolStats()).toMatchObject({ busy: 0, queued: 0 });
  });
});
