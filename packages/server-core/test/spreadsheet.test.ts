import { crc32, inflateRawSync } from 'node:zlib';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildTemplate,
  decodeText,
  excelCellText,
  defineServerPlugin,
  fileResponse,
  guessDelimiter,
  importRows,
  normalizeHeader,
  parseCsv,
  parseDryRun,
  parseSpreadsheet,
  parseXlsx,
  readSpreadsheetUpload,
  XLSX_CONTENT_TYPE,
} from '../src/index.js';
import { toCsv, toXlsx, xlsxWorkbook, zip } from '../src/formats/xlsx.js';
import { describeEachDatabase } from '../src/testing.js';

describe('parseCsv', () => {
  it("reads ';' and ',' files, with or without BOM, quoted cells, and numbers lines like a spreadsheet", async () => {
    const semicolon = await parseCsv('\ufeffCódigo;Descrição;Unidade\r\n001;"Papel A4 75 g/m², resma 500 folhas";RESMA\r\n\r\n002;"Caneta ""azul""";UN\r\n');
    expect(semicolon.format).toBe('csv');
    expect(semicolon.headers).toEqual(['Código', 'Descrição', 'Unidade']);
    expect(semicolon.rows).toEqual([
      { linha: 2, cells: { Código: '001', Descrição: 'Papel A4 75 g/m², resma 500 folhas', Unidade: 'RESMA' } },
      { linha: 4, cells: { Código: '002', Descrição: 'Caneta "azul"', Unidade: 'UN' } },
    ]);
    const comma = await parseCsv(new TextEncoder().encode('Código,Descrição\n7,"Clipe 2/0, caixa 500 g"\n'));
    expect(comma.rows).toEqual([{ linha: 2, cells: { Código: '7', Descrição: 'Clipe 2/0, caixa 500 g' } }]);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8 (Excel "CSV")', async () => {
    const latin1 = Uint8Array.from([0x43, 0xf3, 0x64, 0x69, 0x67, 0x6f, 0x3b, 0x41, 0x0a, 0x31, 0x3b, 0xe7, 0xe3, 0x6f, 0x0a]);
    expect(decodeText(latin1)).toBe('Código;A\n1;ção\n');
    const sheet = await parseCsv(latin1);
    expect(sheet.rows[0]?.cells).toEqual({ Código: '1', A: 'ção' });
  });

  it('reports cells beyond the header and unclosed quotes', async () => {
    const sheet = await parseCsv('A;B\n1;2;3\n"aberto;2\n');
    expect(sheet.errors.map((e) => e.linha)).toContain(2);
    expect(sheet.errors.some((e) => /Aspas/.test(e.motivo))).toBe(true);
  });

  it('guesses the delimiter from the header line', () => {
    expect(guessDelimiter('a;b,c;d\n1,2')).toBe(';');
    expect(guessDelimiter('a,b\n1;2;3;4')).toBe(',');
    expect(guessDelimiter('a\tb\tc')).toBe('\t');
    expect(guessDelimiter('"a;b",c,d')).toBe(',');
    expect(guessDelimiter('sozinha')).toBe(',');
  });
});

const enc = (text: string) => new TextEncoder().encode(text);

/** One file of a ZIP the writer made (deflate, sizes in the local headers), its CRC and size checked. */
function unzipText(bytes: Uint8Array, name: string): string {
  const buf = Buffer.from(bytes);
  for (let offset = 0; buf.readUInt32LE(offset) === 0x04034b50; ) {
    const size = buf.readUInt32LE(offset + 18);
    const nameLength = buf.readUInt16LE(offset + 26);
    const start = offset + 30 + nameLength + buf.readUInt16LE(offset + 28);
    if (buf.subarray(offset + 30, offset + 30 + nameLength).toString('utf8') === name) {
      const data = inflateRawSync(buf.subarray(start, start + size));
      expect([crc32(data), data.length]).toEqual([buf.readUInt32LE(offset + 14), buf.readUInt32LE(offset + 22)]);
      return data.toString('utf8');
    }
    offset = start + size;
  }
  throw new Error(`${name} not in the zip`);
}

/** A workbook as a person leaves it: a hidden first sheet, rich text, a date, booleans, a formula. */
async function excelLikeWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const hidden = wb.addWorksheet('Oculta', { state: 'hidden' });
  hidden.addRow(['Errada']);
  const ws = wb.addWorksheet('Dados');
  ws.addRow(['Código', 'Descrição', 'Data', 'Ativo', 'Total']);
  ws.addRow([
    '0012',
    { richText: [{ font: { bold: true }, text: 'Papel ' }, { text: 'A4 & “75 g”' }] },
    new Date(Date.UTC(2026, 2, 5)),
    true,
    { formula: '1+1', result: 2 },
  ]);
  ws.addRow([]);
  ws.addRow([12345678000195, { text: 'Caneta', hyperlink: 'https://example.com' }, null, false, 3.5]);
  ws.getCell('C2').numFmt = 'dd/mm/yyyy';
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('parseXlsx and templates', () => {
  it('reads the first visible sheet: rich text, numbers, dates, booleans, hyperlinks, formula results', async () => {
    const sheet = await parseSpreadsheet(await excelLikeWorkbook());
    expect(sheet.format).toBe('xlsx');
    expect(sheet.headers).toEqual(['Código', 'Descrição', 'Data', 'Ativo', 'Total']);
    expect(sheet.rows).toEqual([
      { linha: 2, cells: { Código: '0012', Descrição: 'Papel A4 & “75 g”', Data: '05/03/2026', Ativo: 'Sim', Total: '2' } },
      { linha: 4, cells: { Código: '12345678000195', Descrição: 'Caneta', Data: '', Ativo: 'Não', Total: '3.5' } },
    ]);
    expect(sheet.errors).toEqual([]);
  });

  it('reads back what the list export (toXlsx) writes', async () => {
    const bytes = toXlsx(
      'Produtos',
      ['Código', 'Descrição', 'Ativo', 'Criado em'],
      [
        ['001', 'Papel <A4>', true, new Date(Date.UTC(2026, 0, 2, 15, 30))],
        [2, 'Clipe', false, null],
      ],
    );
    expect((await parseXlsx(bytes)).rows).toEqual([
      { linha: 2, cells: { Código: '001', Descrição: 'Papel <A4>', Ativo: 'Sim', 'Criado em': '02/01/2026 12:30' } },
      { linha: 3, cells: { Código: '2', Descrição: 'Clipe', Ativo: 'Não', 'Criado em': '' } },
    ]);
  });

  it('list export read back by exceljs: dates, exact decimals as numbers in pt-BR format, Sim/Não, formulas kept as text', async () => {
    const header = ['Código', 'Descrição', 'Valor', 'Quantidade', 'Atualizado em', 'Ativo'];
    const bytes = toXlsx('Produtos: 2026/1', header, [
      ['001', '=1+1', { decimal: '1234.5' }, 3, new Date(Date.UTC(2026, 0, 2, 15, 30)), true],
      ['002', '+55 11 9999-0000', { decimal: '-0.0001', places: 4 }, 2.5, new Date(Date.UTC(2016, 0, 2, 15, 30)), false],
      ['003', '@soma', { decimal: '12345678901234.56' }, null, null, null],
      ['004', '-10', { decimal: '10,5' }, 0, undefined, ''],
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as never);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Produtos  2026 1');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBe('A1:F5');
    expect(ws.getCell('A1').font?.bold).toBe(true);
    const values = (r: number) => (ws.getRow(r).values as unknown[]).slice(1);
    expect(values(1)).toEqual(header);
    // São Paulo wall clock: 15:30 UTC is 12:30 (UTC−3), and 13:30 in the summer time of 2016 (UTC−2)
    expect(values(2)).toEqual(['001', '=1+1', 1234.5, 3, new Date(Date.UTC(2026, 0, 2, 12, 30)), 'Sim']);
    expect(values(3)).toEqual(['002', '+55 11 9999-0000', -0.0001, 2.5, new Date(Date.UTC(2016, 0, 2, 13, 30)), 'Não']);
    expect(values(4)).toEqual(['003', '@soma', 12345678901234.56]);
    expect(values(5)).toEqual(['004', '-10', '10,5', 0]);
    // text that looks like a formula is a string, never a formula
    for (const ref of ['B2', 'B3', 'B4']) expect(ws.getCell(ref).type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell('C2').numFmt).toBe('#,##0.00');
    expect(ws.getCell('C3').numFmt).toBe('#,##0.0000');
    expect(ws.getCell('E2').numFmt).toBe('dd/mm/yyyy hh:mm');
    // the decimal is written as it is stored (no float on the way), and formula-like text carries Excel's quote prefix
    const sheet = unzipText(bytes, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<c r="C2" s="9"><v>1234.50</v></c>');
    expect(sheet).toContain('<c r="C4" s="9"><v>12345678901234.56</v></c>');
    const styles = unzipText(bytes, 'xl/styles.xml');
    const xfs = [...styles.matchAll(/<xf [^>]*\/>/g)].map((m) => m[0]).slice(1); // after cellStyleXfs
    const quoted = /<c r="B2" t="inlineStr" s="(\d+)">/.exec(sheet)![1]!;
    expect(xfs[Number(quoted)]).toContain('quotePrefix="1"');
    expect(sheet).not.toContain('<c r="B5" t="inlineStr" s='); // '-10' is a number as text, not a formula
    // and the import reads the export back as a person typed it
    expect((await parseXlsx(bytes)).rows[0]?.cells).toEqual({
      Código: '001',
      Descrição: '=1+1',
      Valor: '1234.5',
      Quantidade: '3',
      'Atualizado em': '02/01/2026 12:30',
      Ativo: 'Sim',
    });
  });

  it('CSV of the same cells: decimal comma, formulas defused', () => {
    expect(
      toCsv(
        ['Valor', 'Texto'],
        [
          [{ decimal: '1234.5' }, '=1+1'],
          [{ decimal: '-0.0001', places: 4 }, '-10'],
          [{ decimal: '7', places: 0 }, null],
        ],
      ),
    ).toBe("\uFEFFValor;Texto\r\n1234,50;'=1+1\r\n-0,0001;-10\r\n7;\r\n");
  });

  it('a sheet of several MB is compressed in pieces that join into one valid deflate stream', async () => {
    const long = 'Descrição longa de um item do catálogo, com acentuação: ç ã õ é ü; '.repeat(16);
    const rows = Array.from({ length: 3000 }, (_, i) => [String(i + 1).padStart(5, '0'), `${long}${i}`]);
    const bytes = toXlsx('Itens', ['Código', 'Descrição'], rows);
    const sheet = unzipText(bytes, 'xl/worksheets/sheet1.xml'); // one stream, its CRC and size as declared
    expect(sheet.length).toBeGreaterThan(3 * (1 << 20));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as never);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(3001);
    expect(ws.getCell('A3001').value).toBe('03000');
    expect(ws.getCell('B3001').value).toBe(`${long}2999`);
    expect(ws.getCell('B1500').value).toBe(`${long}1498`);
  });

  it('xlsxWorkbook: several sheets, text columns, no filter or frozen header when asked', async () => {
    const bytes = xlsxWorkbook([
      { name: 'Dados', header: ['CNPJ'], rows: [], widths: [20], textColumns: true, autoFilter: false },
      { name: 'Ajuda', header: ['Linha'], rows: [['a'], [], ['b']], freezeHeader: false, autoFilter: false },
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Dados', 'Ajuda']);
    const [dados, ajuda] = wb.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet];
    expect(dados.getColumn(1).numFmt).toBe('@');
    expect(dados.getColumn(1).width).toBe(20);
    expect(dados.autoFilter).toBeUndefined();
    expect(ajuda.views[0]?.state).not.toBe('frozen');
    expect(ajuda.getColumn(1).values).toEqual([undefined, 'Linha', 'a', undefined, 'b']);
    expect(() => xlsxWorkbook([])).toThrow();
  });

  it('a form sheet: title block above the header, hidden key column, protected but for the input cells; read back by its header', async () => {
    const bytes = xlsxWorkbook([
      {
        name: 'Proposta',
        preamble: [['Cotação', '12/2026', null, 'chave-do-formulario'], [], ['Validade da proposta', null]],
        header: ['Nº', 'Descrição', 'Preço', 'Chave'],
        rows: [
          ['1', 'Papel', null, 'id-1'],
          ['2', 'Caneta', { decimal: '1.5', places: 2 }, 'id-2'],
        ],
        hiddenColumns: [3],
        freezeHeader: false,
        autoFilter: false,
        inputs: { columns: { 2: 'decimal' }, cells: { B3: 'date' } },
      },
    ]);
    const sheetXml = unzipText(bytes, 'xl/worksheets/sheet1.xml');
    expect(sheetXml).toContain('<sheetProtection sheet="1" objects="1" scenarios="1" formatColumns="0" formatRows="0"/>');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getColumn(4).hidden).toBe(true);
    expect(ws.getColumn(3).hidden).toBe(false);
    // the header comes after the title block, bold like its labels
    expect(ws.getCell('A4').value).toBe('Nº');
    expect(ws.getCell('A4').font?.bold).toBe(true);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('B1').font?.bold).toBeFalsy();
    // input cells (even empty ones) are unlocked and formatted; everything else stays locked
    expect(ws.getCell('C5').protection?.locked).toBe(false);
    expect(ws.getCell('C5').numFmt).toBe('#,##0.00##');
    expect(ws.getCell('C6').value).toBe(1.5);
    expect(ws.getCell('B3').protection?.locked).toBe(false);
    expect(ws.getCell('B3').numFmt).toBe('dd/mm/yyyy');
    for (const ref of ['A5', 'B5', 'D5', 'B1', 'C4']) expect(ws.getCell(ref).protection?.locked, ref).not.toBe(false);

    // a person fills it and sends it back
    ws.getCell('C5').value = 10.1234;
    ws.getCell('B3').value = new Date(Date.UTC(2026, 5, 30));
    const filled = new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
    const sheet = await parseXlsx(filled, undefined, { headerFirstCell: 'nº' });
    expect(sheet.headers).toEqual(['Nº', 'Descrição', 'Preço', 'Chave']);
    expect(sheet.rows).toEqual([
      { linha: 5, cells: { Nº: '1', Descrição: 'Papel', Preço: '10.1234', Chave: 'id-1' } },
      { linha: 6, cells: { Nº: '2', Descrição: 'Caneta', Preço: '1.5', Chave: 'id-2' } },
    ]);
    expect(sheet.preamble).toEqual([
      { linha: 1, values: ['Cotação', '12/2026', '', 'chave-do-formulario'] },
      { linha: 3, values: ['Validade da proposta', '30/06/2026'] },
    ]);
    expect(sheet.errors).toEqual([]);
    // without the option the first non-empty row is the header, as before
    expect((await parseXlsx(filled)).headers[0]).toBe('Cotação');
    // no row starts with the marker: no header, every row in the preamble
    const other = await parseXlsx(filled, undefined, { headerFirstCell: 'Item' });
    expect([other.headers, other.rows, other.preamble?.length]).toEqual([[], [], 5]);
    // the same option for a CSV
    const csv = await parseCsv('Título;x\n\nNº;Preço\n1;2,5\n', undefined, { headerFirstCell: 'Nº' });
    expect(csv.preamble).toEqual([{ linha: 1, values: ['Título', 'x'] }]);
    expect(csv.rows).toEqual([{ linha: 4, cells: { Nº: '1', Preço: '2,5' } }]);
  });

  it('excelCellText: hyperlinks, errors, shared formulas, big integers', () => {
    expect(excelCellText({ text: 'site', hyperlink: 'https://example.com' })).toBe('site');
    expect(excelCellText({ error: '#N/A' })).toBe('#N/A');
    expect(excelCellText({ sharedFormula: 'A1', result: 'x' })).toBe('x');
    expect(excelCellText(1e20)).toBe('100000000000000000000');
    expect(excelCellText(0.1 + 0.2)).toBe('0.3');
    expect(excelCellText(10.1 * 1.1)).toBe('11.11');
    expect(excelCellText(1234.5678)).toBe('1234.5678');
    expect(excelCellText(-0.0001)).toBe('-0.0001');
    expect(excelCellText(new Date(Date.UTC(2026, 2, 5, 12, 0)))).toBe('05/03/2026 12:00');
    expect(excelCellText(undefined)).toBe('');
  });

  it('refuses .xls, broken zips and binary files with a pt-BR message', async () => {
    await expect(parseSpreadsheet(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]))).rejects.toThrow(/\.xls/);
    await expect(parseSpreadsheet(Uint8Array.from([1, 0, 2, 0]))).rejects.toThrow(/Formato não suportado/);
    await expect(parseXlsx(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2]))).rejects.toThrow(/não é uma planilha .xlsx válida/);
    await expect(parseXlsx(zip([{ name: 'x.txt', data: enc('x') }]))).rejects.toThrow(/não é uma planilha .xlsx válida/);
  });

  it('builds an XLSX template (Dados + Instruções) and a CSV template that read back as the header', async () => {
    const columns = { Código: 'codigo', Descrição: { field: 'descricao', required: true, hint: 'Texto livre', example: 'Papel' } };
    const xlsx = buildTemplate({ columns, format: 'xlsx', instructions: ['Uma linha por produto.'] });
    expect(xlsx.contentType).toBe(XLSX_CONTENT_TYPE);
    const back = await parseSpreadsheet(xlsx.body);
    expect(back.headers).toEqual(['Código', 'Descrição']);
    expect(back.rows).toEqual([]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Dados', 'Instruções']);
    const help = wb.getWorksheet('Instruções')!;
    expect(help.getRow(3).values).toEqual([undefined, 'Descrição', 'Sim', 'Texto livre', 'Papel']);
    expect(help.getColumn(1).values).toContain('Uma linha por produto.');
    expect(wb.getWorksheet('Dados')!.getColumn(1).numFmt).toBe('@');
    const csv = buildTemplate({ columns, format: 'csv' });
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(csv.body)).toBe('\ufeffCódigo;Descrição\r\n');
  });

  it('normalises headers: case, accents, spaces, trailing *', () => {
    expect(normalizeHeader('  Descricao  * ')).toBe(normalizeHeader('Descrição'));
    expect(normalizeHeader('SUB-GRUPO')).toBe('sub-grupo');
  });

  it('importRows validates without an insert (dryRun: the caller saves its own way) and refuses to import without one', async () => {
    const schema = z.object({ codigo: z.string({ error: 'Informe o código.' }), preco: z.coerce.number().positive('Maior que zero.').optional() });
    const sheet = await parseCsv('Código;Preço\nA1;10\n;-1\n');
    const ctx = {
      db: undefined as never,
      mutate: () => {
        throw new Error('no transaction in a validation');
      },
    };
    const checked = await importRows({ ctx, rows: sheet, schema, columns: { Código: 'codigo', Preço: 'preco' }, dryRun: true });
    expect(checked.ok).toBe(false);
    expect(checked.errors).toEqual([
      { linha: 3, coluna: 'Código', motivo: 'Informe o código.' },
      { linha: 3, coluna: 'Preço', motivo: 'Maior que zero.' },
    ]);
    const clean = await parseCsv('Código;Preço\nA1;10\n');
    expect((await importRows({ ctx, rows: clean, schema, columns: { Código: 'codigo', Preço: 'preco' }, dryRun: true })).ok).toBe(true);
    await expect(importRows({ ctx, rows: clean, schema, columns: { Código: 'codigo', Preço: 'preco' }, dryRun: false })).rejects.toThrow(/insert/);
  });

  it('parseDryRun defaults to true', () => {
    expect(parseDryRun(undefined)).toBe(true);
    expect(parseDryRun('true')).toBe(true);
    expect(parseDryRun('false')).toBe(false);
    expect(parseDryRun('0')).toBe(false);
  });
});

// --- importRows against a real database, through a route -------------------------------------

const livros = pgTable('teste_livros', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  isbn: text('isbn').notNull(),
  titulo: text('titulo').notNull(),
  paginas: integer('paginas').notNull(),
  autor: text('autor'),
});

const livroSchema = z.object({
  isbn: z.string({ error: 'Informe o ISBN.' }).regex(/^\d{13}$/, 'O ISBN tem 13 dígitos.'),
  titulo: z.string({ error: 'Informe o título.' }).min(2, 'Título curto demais.'),
  paginas: z.coerce.number({ error: 'Informe o número de páginas.' }).int('Número inteiro.').positive('Maior que zero.'),
  autor: z.string().optional(),
});
type Livro = z.output<typeof livroSchema> & { autorId?: string };

const COLUMNS = {
  ISBN: { field: 'isbn', required: true },
  Título: { field: 'titulo', required: true },
  Páginas: { field: 'paginas', required: true },
  Autor: 'autor',
};

const livrosPlugin = defineServerPlugin({
  id: 'livros',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [{ tag: 24, nome: 'Livros' }],
  routes(router) {
    router.route({
      method: 'post',
      path: '/livros/importar',
      tag: 24,
      summary: 'Importar livros',
      handler: async (c, ctx) => {
        const sheet = await readSpreadsheetUpload(c);
        const result = await importRows<Livro>({
          ctx,
          rows: sheet,
          filename: sheet.filename,
          schema: livroSchema,
          columns: COLUMNS,
          dryRun: parseDryRun(c.req.query('dryRun')),
          unique: [
            {
              field: 'isbn',
              databaseMessage: 'Livro já cadastrado.',
              existing: async (db, keys) =>
                (
                  await db
                    .select({ isbn: livros.isbn })
                    .from(livros)
                    .where(and(eq(livros.entidadeId, ctx.entidadeId), inArray(livros.isbn, keys)))
                ).map((r) => r.isbn),
            },
          ],
          check: async (_db, rows) =>
            rows.filter((r) => r.data.autor === 'Desconhecido').map((r) => ({ linha: r.linha, coluna: 'autor', motivo: 'Autor não cadastrado.' })),
          insert: async (tx, rows) =>
            tx
              .insert(livros)
              .values(rows.map((r) => ({ ...r, autor: r.autor ?? null, entidadeId: ctx.entidadeId })))
              .returning(),
        });
        return c.json(result, 200);
      },
    });
    router.route({
      method: 'get',
      path: '/livros/modelo',
      tag: 24,
      summary: 'Modelo',
      handler: async (c) => fileResponse(c, buildTemplate({ columns: COLUMNS, format: 'xlsx' }), 'modelo-livros.xlsx'),
    });
  },
});

type Result = {
  ok: boolean;
  dryRun: boolean;
  total: number;
  imported: number;
  errorCount: number;
  errors: { linha: number; coluna: string; motivo: string }[];
};

describeEachDatabase('importRows', { plugins: [livrosPlugin] }, (t) => {
  let token: string;
  beforeAll(async () => {
    token = (await t.server.signIn()).token;
    await t.server.sql(`CREATE TABLE teste_livros (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(), entidade_id uuid NOT NULL,
      isbn text NOT NULL, titulo text NOT NULL, paginas integer NOT NULL, autor text,
      UNIQUE (entidade_id, isbn))`);
  });

  const upload = async (csv: string, dryRun: boolean, asForm = false): Promise<Result> => {
    const path = `/api/livros/livros/importar?dryRun=${dryRun}`;
    const init: RequestInit = asForm
      ? (() => {
          const form = new FormData();
          form.set('arquivo', new File([csv], 'livros.csv', { type: 'text/csv' }));
          return { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } };
        })()
      : { method: 'POST', body: csv, headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' } };
    const res = await t.server.app.request(path, init);
    expect(res.status).toBe(200);
    return (await res.json()) as Result;
  };
  const count = async () => Number((await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM teste_livros'))[0]!.n);

  it('a dry run reports every bad row with line, column and reason, and imports nothing', async () => {
    const csv = [
      'ISBN;Título;Páginas;Autor',
      '9788535902778;Dom Casmurro;256;Machado de Assis',
      '978853590;Memórias Póstumas;abc;Machado de Assis',
      '9788535911664;O Cortiço;220;Desconhecido',
      '9788535902778;Dom Casmurro (repetido);256;',
    ].join('\n');
    const result = await upload(csv, true);
    expect(result).toMatchObject({ ok: false, dryRun: true, total: 4, imported: 0, errorCount: 4 });
    expect(result.errors).toEqual([
      { linha: 3, coluna: 'ISBN', motivo: 'O ISBN tem 13 dígitos.' },
      { linha: 3, coluna: 'Páginas', motivo: expect.stringMatching(/número/) },
      { linha: 4, coluna: 'Autor', motivo: 'Autor não cadastrado.' },
      { linha: 5, coluna: 'ISBN', motivo: 'Valor repetido no arquivo (já aparece na linha 2).' },
    ]);
    expect(await count()).toBe(0);
    // even without dryRun, a file with errors imports nothing
    const real = await upload(csv, false);
    expect(real).toMatchObject({ ok: false, dryRun: false, imported: 0 });
    expect(await count()).toBe(0);
  });

  it('checks the header: unknown and missing required columns', async () => {
    const result = await upload('ISBN;Titulo;Paginas;Editora\n9788535902778;Dom Casmurro;256;X\n', true);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([{ linha: 1, coluna: 'Editora', motivo: expect.stringContaining('Coluna desconhecida') }]);
    const missing = await upload('ISBN;Autor\n9788535902778;X\n', true);
    expect(missing.errors.map((e) => [e.linha, e.coluna, e.motivo])).toEqual([
      [1, 'Título', 'Coluna obrigatória ausente no cabeçalho.'],
      [1, 'Páginas', 'Coluna obrigatória ausente no cabeçalho.'],
    ]);
    const empty = await upload('ISBN;Título;Páginas\n', true);
    expect(empty.errors).toEqual([{ linha: 2, coluna: '', motivo: 'O arquivo não tem linhas de dados.' }]);
  });

  it('a clean file is imported in one transaction (multipart upload), audited, then refused as duplicate', async () => {
    const csv = 'isbn,título,páginas\n9788535902778,Dom Casmurro,256\n9788535911664,O Cortiço,220\n';
    const dry = await upload(csv, true, true);
    expect(dry).toEqual({ ok: true, dryRun: true, total: 2, imported: 0, errorCount: 0, errors: [] });
    expect(await count()).toBe(0);
    const real = await upload(csv, false, true);
    expect(real).toEqual({ ok: true, dryRun: false, total: 2, imported: 2, errorCount: 0, errors: [] });
    expect(await count()).toBe(2);
    const audit = await t.server.sql<{ acao: string; depois: Record<string, unknown> }>(
      "SELECT acao, depois FROM audit_log WHERE plugin = 'livros' ORDER BY id",
    );
    expect(audit.map((a) => a.acao)).toEqual(['importar', 'importar', 'importar_arquivo']);
    expect(audit[0]!.depois).toMatchObject({ isbn: '9788535902778', titulo: 'Dom Casmurro', paginas: 256 });
    expect(audit[2]!.depois).toEqual({ arquivo: 'livros.csv', linhas: 2 });
    const again = await upload(csv, false);
    expect(again.errors).toEqual([
      { linha: 2, coluna: 'ISBN', motivo: 'Livro já cadastrado.' },
      { linha: 3, coluna: 'ISBN', motivo: 'Livro já cadastrado.' },
    ]);
    expect(await count()).toBe(2);
  });

  it('serves the template and answers 400 without a file', async () => {
    const res = await t.server.request('/api/livros/livros/modelo', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain('modelo-livros.xlsx');
    const sheet = await parseSpreadsheet(new Uint8Array(await res.arrayBuffer()));
    expect(sheet.headers).toEqual(['ISBN', 'Título', 'Páginas', 'Autor']);
    const none = await t.server.request('/api/livros/livros/importar?dryRun=true', { token, method: 'POST' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { fields: Record<string, string> } }).error.fields.arquivo).toBe('Escolha um arquivo .csv ou .xlsx.');
  });
});
