// File names are cleaned once, where files enter (issue 18): a NUL sent percent-encoded in X-Filename
// turned a valid import into a generic 400 (the audit row cannot hold it), and bidirectional overrides
// made 'fatura\u202Efdp.exe' show as "…exe.pdf". cleanFileName is used by readUploadedFile (every
// import route) and by the cotações evidence upload.
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanFileName, defineServerPlugin, defineSpreadsheetImport, importRows } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

describe('cleanFileName', () => {
  it('removes NUL and other control characters, and the bidirectional controls', () => {
    expect(cleanFileName('planilha\u0000.csv')).toBe('planilha.csv');
    expect(cleanFileName('fatura\u202Efdp.exe')).toBe('faturafdp.exe');
    for (const c of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
      '\u200B',
      '\uFEFF',
    ])
      expect(cleanFileName(`a${c}b.pdf`), `U+${c.codePointAt(0)!.toString(16)}`).toBe('ab.pdf');
    expect(cleanFileName('linha\r\nnova\t.pdf')).toBe('linhanova.pdf');
    expect(cleanFileName('meio\u0085.pdf')).toBe('meio.pdf');
  });
  it('drops folders, normalises to NFC, collapses blanks, keeps accents', () => {
    expect(cleanFileName('C:\\Users\\ana\\Cotação   março.xlsx')).toBe('Cotação março.xlsx');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('Cota\u0063\u0327a\u0303o.pdf')).toBe('Cotação.pdf'.normalize('NFC'));
    expect(cleanFileName('Cota\u0063\u0327a\u0303o.pdf')).toHaveLength('Cotação.pdf'.length);
  });
  it('limits the length keeping the extension, and falls back when nothing is left', () => {
    const long = `${'á'.repeat(400)}.pdf`;
    const out = cleanFileName(long);
    expect(Array.from(out)).toHaveLength(255);
    expect(out.endsWith('.pdf')).toBe(true);
    expect(cleanFileName('x'.repeat(300), 'arquivo', 10)).toBe('xxxxxxxxxx');
    expect(cleanFileName('\u202E\u0000', 'evidencia')).toBe('evidencia');
    expect(cleanFileName('..')).toBe('arquivo');
    expect(cleanFileName(undefined)).toBe('arquivo');
    // a lone surrogate cannot reach PostgreSQL either
    expect(cleanFileName('a\uD800b.csv').isWellFormed()).toBe(true);
  });
});

const notas = pgTable('teste_notas', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  titulo: text('titulo').notNull(),
});
const notasPlugin = defineServerPlugin({
  id: 'notas',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [{ tag: 25, nome: 'Notas' }],
  routes(router) {
    defineSpreadsheetImport(router, {
      path: '/notas',
      tag: 25,
      plural: 'notas',
      sheetName: 'Notas',
      columns: { Título: { field: 'titulo', required: true } },
      run: ({ ctx, sheet, dryRun }) =>
        importRows({
          ctx,
          rows: sheet,
          filename: (sheet as { filename?: string }).filename,
          schema: z.object({ titulo: z.string().min(1) }),
          columns: { Título: { field: 'titulo', required: true } },
          dryRun,
          insert: (tx, rows) =>
            tx
              .insert(notas)
              .values(rows.map((r) => ({ titulo: r.titulo, entidadeId: ctx.entidadeId })))
              .returning(),
        }),
    });
  },
});

describeEachDatabase('file names entering through an import route', { plugins: [notasPlugin] }, (t) => {
  let token: string;
  beforeAll(async () => {
    token = (await t.server.signIn()).token;
    await t.server.sql('CREATE TABLE teste_notas (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), entidade_id uuid NOT NULL, titulo text NOT NULL)');
  });

  it('a NUL (percent-encoded) and an RTL override in X-Filename: the import succeeds, the audit row holds the cleaned name', async () => {
    const res = await t.server.app.request('/api/notas/notas/importar?dryRun=false', {
      method: 'POST',
      body: 'Título\nPrimeira nota\n',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', 'x-filename': encodeURIComponent('notas\u0000\u202Evsc.csv') },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, imported: 1 });
    const [row] = await t.server.sql<{ depois: { arquivo: string; linhas: number } }>(
      "SELECT depois FROM audit_log WHERE plugin = 'notas' AND acao = 'importar_arquivo'",
    );
    expect(row!.depois).toEqual({ arquivo: 'notasvsc.csv', linhas: 1 });
  });

  it('the name of a multipart file is cleaned the same way', async () => {
    const form = new FormData();
    form.set('arquivo', new File(['Título\nSegunda nota\n'], 'lista\u202Evsc.csv', { type: 'text/csv' }));
    const res = await t.server.app.request('/api/notas/notas/importar?dryRun=false', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const rows = await t.server.sql<{ depois: { arquivo: string } }>(
      "SELECT depois FROM audit_log WHERE plugin = 'notas' AND acao = 'importar_arquivo' ORDER BY id",
    );
    expect(rows.map((r) => r.depois.arquivo)).toEqual(['notasvsc.csv', 'listavsc.csv']);
  });
});
