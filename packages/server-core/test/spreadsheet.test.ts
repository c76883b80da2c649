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
import { toXlsx, zip } from '../src/xlsx.js';
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

/** A workbook as a person leaves it: a hidden first sheet, rich text, a date, booleans, a formula. */
async function excelLikeWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const hidden = wb.addWorksheet('Oculta', { state: 'hidden' });
  hidden.addRow(['Errada']);
  const ws = wb.addWorksheet('Dados');
  ws.addRow(['Código', 'Descrição', 'Data', 'Ativo', 'Total']);
  ws.addRow(['0012', { richText: [{ font: { bold: true }, text: 'Papel ' }, { text: 'A4 & “75 g”' }] }, new Date(Date.UTC(2026, 2, 5)), true, { formula: '1+1', result: 2 }]);
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
    const bytes = toXlsx('Produtos', ['Código', 'Descrição', 'Ativo', 'Criado em'], [
      ['001', 'Papel <A4>', true, new Date(Date.UTC(2026, 0, 2, 15, 30))],
      [2, 'Clipe', false, null],
    ]);
    expect((await parseXlsx(bytes)).rows).toEqual([
      { linha: 2, cells: { Código: '001', Descrição: 'Papel <A4>', Ativo: 'Sim', 'Criado em': '02/01/2026 12:30' } },
      { linha: 3, cells: { Código: '2', Descrição: 'Clipe', Ativo: 'Não', 'Criado em': '' } },
    ]);
  });

  it('excelCellText: hyperlinks, errors, shared formulas, big integers', () => {
    expect(excelCellText({ text: 'site', hyperlink: 'https://example.com' })).toBe('site');
    expect(excelCellText({ error: '#N/A' })).toBe('#N/A');
    expect(excelCellText({ sharedFormula: 'A1', result: 'x' })).toBe('x');
    expect(excelCellText(1e20)).toBe('100000000000000000000');
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
            rows
              .filter((r) => r.data.autor === 'Desconhecido')
              .map((r) => ({ linha: r.linha, coluna: 'autor', motivo: 'Autor não cadastrado.' })),
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

type Result = { ok: boolean; dryRun: boolean; total: number; imported: number; errorCount: number; errors: { linha: number; coluna: string; motivo: string }[] };

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
    expect(((await none.json()) as { error: { fields: Record<string, string> } }).error.fields.arquivo).toBe(
      'Escolha um arquivo .csv ou .xlsx.',
    );
  });
});
