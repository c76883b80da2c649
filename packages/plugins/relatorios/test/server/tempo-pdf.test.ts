// The time limits of a report's PDF (issue 22): a PDF a person waits for keeps the kit's minute, a
// background job's PDF gets the background lane's (COMPRAS_PDF_BACKGROUND_MINUTES, default 20) — a
// 50 000-row report takes about a minute in pdfmake and was cut at 60 s. Injected here in
// milliseconds (defineRelatoriosPlugin({ tempoPdfMs })) so a report of a few thousand rows, which
// takes seconds, is over the direct limit and under the job's.
import { RELATORIOS, type RequestContext, contribute, defineReport, defineServerPlugin, pdfPoolStats } from '@app/server-core';
import { sql } from '@app/server-core/orm';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { defineRelatoriosPlugin } from '../../src/server/index.js';
import { type Arquivo, RELATORIOS_TAG } from '../../src/shared/index.js';
import { pdfText } from './pdf.js';

const FIXTURE_TAG = 9_002;
const N = 3_000;

const fixture = defineServerPlugin({
  id: 'fixture',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [{ tag: FIXTURE_TAG, nome: 'Relatórios de teste' }],
  contributes: [
    contribute(
      RELATORIOS,
      defineReport({
        id: 'fixture.tempo',
        title: 'Relatório demorado',
        description: 'Linhas geradas para o teste.',
        group: 'Teste',
        tag: FIXTURE_TAG,
        filters: [],
        columns: [
          { key: 'numero', label: 'Número', type: 'integer', total: true },
          { key: 'descricao', label: 'Descrição' },
        ],
        load: async (ctx: RequestContext, _f, limit: number) => {
          const res = (await ctx.db.execute(
            sql`SELECT g AS numero, 'Linha ' || lpad(g::text, 5, '0') AS descricao FROM generate_series(1, ${Math.min(N, limit)}::int) AS g`,
          )) as unknown as { rows: Record<string, unknown>[] };
          return res.rows;
        },
      }),
    ),
  ],
  routes: () => undefined,
});

/** Polls the file until it is ready or failed. */
async function aguardar(request: (path: string) => Promise<Response>, pedido: Arquivo): Promise<Arquivo> {
  const fim = Date.now() + 120_000;
  for (;;) {
    const a = (await (await request(`/fixture.tempo/arquivos/${pedido.id}`)).json()) as Arquivo;
    if (a.estado === 'pronto' || a.estado === 'falhou') return a;
    if (Date.now() > fim) throw new Error(`file ${pedido.id} still ${a.estado}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeEachDatabase(
  "@app/relatorios: a background job's PDF is not cut at a direct PDF's time limit",
  { plugins: [fixture, defineRelatoriosPlugin({ tempoPdfMs: { direto: 100 } })] },
  (t) => {
    let token: string;
    const req = (path: string, init: { json?: unknown } = {}) => t.server.request(`/api/relatorios${path}`, { token, ...init });
    beforeAll(async () => {
      token = (await t.server.createUser({ login: 'dono', tags: [RELATORIOS_TAG, FIXTURE_TAG] })).token;
    });

    it('the direct PDF over its limit answers 413; the same PDF as a job takes longer and is ready, whole', async () => {
      const direto = await req('/fixture.tempo/pdf');
      expect(direto.status).toBe(413);
      expect(((await direto.json()) as ErrorBody).error.message).toBe('O documento é grande demais para gerar o PDF: demorou demais.');
      // a file refused is no download: not audited
      expect(await t.server.sql("SELECT id FROM audit_log WHERE acao = 'baixar_relatorio'")).toEqual([]);

      const antes = pdfPoolStats({ background: true }).started;
      const t0 = performance.now();
      const pedido = (await (await req('/fixture.tempo/arquivos', { json: { formato: 'pdf' } })).json()) as Arquivo;
      const arquivo = await aguardar(req, pedido);
      expect(arquivo).toMatchObject({ estado: 'pronto', erro: null, total: N });
      // it ran in the background lane, for longer than the direct limit
      expect(pdfPoolStats({ background: true }).started).toBe(antes + 1);
      expect(performance.now() - t0).toBeGreaterThan(100);
      const res = await req(`/fixture.tempo/arquivos/${pedido.id}/download`);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // kept in parts of 256 KiB and read back whole
      expect(bytes.byteLength).toBe(arquivo.tamanho);
      const [linha] = await t.server.sql<{ partes: number }>('SELECT partes FROM relatorios_arquivos WHERE id = $1', [pedido.id]);
      expect(linha?.partes).toBe(Math.ceil(bytes.byteLength / (256 * 1024)));
      const texto = await pdfText(bytes);
      expect(texto).toContain('Linha 00001');
      expect(texto).toContain(`Linha 0${N}`);
    });
  },
);

describeEachDatabase(
  "@app/relatorios: a background job's PDF over its own limit fails, saying why",
  { plugins: [fixture, defineRelatoriosPlugin({ tempoPdfMs: { segundoPlano: 100 } })] },
  (t) => {
    it('the job fails (no retry) with the PDF pool message; the direct PDF keeps its minute', async () => {
      const { token } = await t.server.createUser({ login: 'dono', tags: [RELATORIOS_TAG, FIXTURE_TAG] });
      const req = (path: string, init: { json?: unknown } = {}) => t.server.request(`/api/relatorios${path}`, { token, ...init });
      const pedido = (await (await req('/fixture.tempo/arquivos', { json: { formato: 'pdf' } })).json()) as Arquivo;
      const arquivo = await aguardar(req, pedido);
      expect(arquivo).toMatchObject({ estado: 'falhou', erro: 'O documento é grande demais para gerar o PDF: demorou demais.' });
      expect((await req('/fixture.tempo/pdf')).status).toBe(200);
    });
  },
);
