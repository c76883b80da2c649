// Reports above 10 000 rows made in the background (job relatorios.gerar) on a real database (PGlite;
// PostgreSQL too with TEST_DATABASE_URL), through a test-only plugin contributing two reports to
// RELATORIOS whose rows come from generate_series (as many as the filter `n` asks): one read page by
// page (loadPage), one in a single bounded load. Enqueue → the job runs → progress → the file kept
// and downloaded by its owner only, read back; the tag checked again; the bound; expiry.
import {
  RELATORIOS,
  type ReportDefinition,
  type ReportFilters,
  type RequestContext,
  contribute,
  defineReport,
  defineServerPlugin,
  parseSpreadsheet,
} from '@app/server-core';
import { sql } from '@app/server-core/orm';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import plugin, { type RelatorioPaginado } from '../../src/server/index.js';
import { type Arquivo, MAX_LINHAS, MAX_LINHAS_PDF_SEGUNDO_PLANO, RELATORIOS_TAG } from '../../src/shared/index.js';
import { pdfText } from './pdf.js';

const FIXTURE_TAG = 9_001;
const N = 12_345;

const CENTRO = '5d0e7c8a-3f1b-4c2d-9e6f-0a1b2c3d4e5f';
/** Who the rows were read for (the job's rebuilt context). */
const contextos: { usuario: string; nome: string; tags: readonly number[]; centros: readonly string[]; todosCentros: boolean }[] = [];

/** Rows 1..n: numero, descricao 'Linha 00001', valor n·0,01 (exact sums to check). */
async function linhas(ctx: RequestContext, f: ReportFilters, offset: number, limit: number) {
  contextos.push({ usuario: ctx.user.id, nome: ctx.user.nome, tags: ctx.tags, centros: ctx.centrosCusto, todosCentros: ctx.todosCentros });
  const n = Number(f.n ?? N);
  const res = (await ctx.db.execute(
    sql`SELECT g AS numero, 'Linha ' || lpad(g::text, 5, '0') AS descricao, (g * 0.01)::numeric(12,2)::text AS valor
        FROM generate_series(1, ${n}::int) AS g ORDER BY g OFFSET ${offset}::int LIMIT ${limit}::int`,
  )) as unknown as { rows: Record<string, unknown>[] };
  return res.rows;
}

const declaracao = (id: string, title: string) => ({
  id,
  title,
  description: 'Linhas geradas para o teste.',
  group: 'Teste',
  tag: FIXTURE_TAG,
  filters: [{ name: 'n', label: 'Quantidade de linhas', kind: 'text' as const }],
  columns: [
    { key: 'numero', label: 'Número', type: 'integer' as const, total: true },
    { key: 'descricao', label: 'Descrição' },
    { key: 'valor', label: 'Valor', type: 'money' as const, total: true },
  ],
  load: (ctx: RequestContext, f: ReportFilters, limit: number) => linhas(ctx, f, 0, limit),
});
const paginado: ReportDefinition & RelatorioPaginado = {
  ...declaracao('fixture.grande', 'Relatório grande paginado'),
  loadPage: (ctx, f, page) => linhas(ctx, f, page.offset, page.limit),
};
const fixture = defineServerPlugin({
  id: 'fixture',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [{ tag: FIXTURE_TAG, nome: 'Relatórios de teste' }],
  contributes: [
    contribute(RELATORIOS, defineReport(paginado)),
    contribute(RELATORIOS, defineReport(declaracao('fixture.inteiro', 'Relatório grande'))),
    // a chart of the rows in the PDF (a plain SVG here; the analysis draws ECharts' SVG), and one whose chart fails
    contribute(
      RELATORIOS,
      defineReport({
        ...declaracao('fixture.grafico', 'Relatório com gráfico'),
        chart: (rows) => ({
          svg: `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect x="10" y="10" width="${rows.length * 10}" height="50" fill="#369"/><text x="10" y="120" font-size="20">Gráfico de ${rows.length} linhas</text></svg>`,
          height: 120,
        }),
      }),
    ),
    contribute(
      RELATORIOS,
      defineReport({
        ...declaracao('fixture.grafico-falho', 'Relatório com gráfico que falha'),
        chart: () => {
          throw new Error('falhou ao desenhar');
        },
      }),
    ),
  ],
  routes: () => undefined,
});

type User = { token: string; id: string; perfilId: string };

describeEachDatabase('@app/relatorios: files of large reports made in the background', { plugins: [fixture, plugin] }, (t) => {
  let dono: User;
  let outro: User;
  let daCamara: User;

  const req = (path: string, u: User, init: { json?: unknown } = {}) => t.server.request(`/api/relatorios${path}`, { token: u.token, ...init });
  const json = async <R>(res: Response, status: number): Promise<R> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return JSON.parse(text) as R;
  };
  const pedir = async (relatorio: string, query: string, formato: 'pdf' | 'xlsx', u: User = dono) =>
    json<Arquivo>(await req(`/${relatorio}/arquivos${query}`, u, { json: { formato } }), 202);
  /** Polls the file until it leaves the queue and the making; every state seen on the way. */
  /** The file's own path: under its report. */
  const de = (a: Pick<Arquivo, 'id' | 'relatorioId'>) => `/${a.relatorioId}/arquivos/${a.id}`;
  const aguardar = async (pedido: Arquivo, u: User = dono) => {
    const id = pedido.id;
    const vistos: Arquivo[] = [];
    const fim = Date.now() + 90_000;
    for (;;) {
      const a = await json<Arquivo>(await req(de(pedido), u), 200);
      vistos.push(a);
      if (a.estado === 'pronto' || a.estado === 'falhou') return { arquivo: a, vistos };
      if (Date.now() > fim) throw new Error(`file ${id} still ${a.estado} (${a.fase} ${a.linhas}/${a.total})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const planilha = async (res: Response) =>
    parseSpreadsheet(
      new Uint8Array(await res.arrayBuffer()),
      { filename: 'r.xlsx' },
      { maxRows: 300_000, maxBytes: 200 * 1024 * 1024 },
      { headerFirstCell: 'Número' },
    );

  beforeAll(async () => {
    const { camara } = await t.server.demoEntidades();
    dono = await t.server.createUser({ login: 'dono', nome: 'Maria Dona', tags: [RELATORIOS_TAG, FIXTURE_TAG], centros: [CENTRO] });
    outro = await t.server.createUser({ login: 'outro', tags: [RELATORIOS_TAG, FIXTURE_TAG] });
    daCamara = await t.server.createUser({ login: 'camara', tags: [RELATORIOS_TAG, FIXTURE_TAG], entidadeId: camara });
  });

  let pronto: Arquivo;

  it('a report above 10 000 rows: no preview nor direct file (400 linhas), the background instead', async () => {
    const body = await json<ErrorBody>(await req('/fixture.grande/linhas', dono), 400);
    expect(body.error.fields).toEqual({ linhas: 'demais' });
    expect(body.error.message).toContain('segundo plano');
    expect((await req('/fixture.grande/xlsx', dono)).status).toBe(400);
    expect((await req(`/fixture.grande/linhas?n=${MAX_LINHAS}`, dono)).status).toBe(200);
  });

  it('enqueues, runs the job with progress, keeps the file for its owner: all rows, exact totals, audited', async () => {
    const pedido = await pedir('fixture.grande', '?ordem=numero&direcao=desc&ignorado=1', 'xlsx');
    expect(pedido).toMatchObject({ relatorioId: 'fixture.grande', titulo: 'Relatório grande paginado', formato: 'xlsx', filtrosUsados: [] });
    expect(['na_fila', 'gerando', 'pronto']).toContain(pedido.estado);
    const { arquivo, vistos } = await aguardar(pedido);
    pronto = arquivo;
    expect(arquivo).toMatchObject({ estado: 'pronto', fase: null, linhas: N, total: N, erro: null, nomeArquivo: 'relatorio-grande-paginado.xlsx' });
    expect(arquivo.tamanho).toBeGreaterThan(0);
    // kept for 7 days (RELATORIOS_ARQUIVO_DIAS' default)
    const dias = (new Date(arquivo.expiraEm!).getTime() - new Date(arquivo.concluidoEm!).getTime()) / 86_400_000;
    expect(dias).toBeCloseTo(7, 5);
    // the status answered while the job ran (it holds no transaction, and pauses between pages)
    expect(vistos.some((a) => a.estado === 'gerando')).toBe(true);
    // the progress never goes past the total
    for (const v of vistos.filter((a) => a.estado === 'gerando')) expect(v.linhas).toBeLessThanOrEqual(v.total ?? N);

    // the job's payload: ids and filters only
    const [job] = await t.server.sql<{ data: Record<string, unknown> }>(
      "SELECT data FROM pgboss.job WHERE name = 'relatorios.gerar' AND data->>'arquivoId' = $1",
      [pedido.id],
    );
    expect(Object.keys(job!.data).sort()).toEqual(['arquivoId', 'entidadeId', 'filtros', 'formato', 'relatorioId', 'usuarioId']);
    expect(job!.data.filtros).toEqual({ ordem: 'numero', direcao: 'desc' });

    // the sweep of expired files is queued for a minute after this one's expiry
    const limpezas = await t.server.sql<{ start_after: Date }>("SELECT start_after FROM pgboss.job WHERE name = 'relatorios.limpar'");
    expect(limpezas.map((j) => new Date(j.start_after).getTime())).toContain(new Date(arquivo.expiraEm!).getTime() + 60_000);

    const lista = await json<{ items: Arquivo[] }>(await req('/fixture.grande/arquivos', dono), 200);
    expect(lista.items.map((a) => a.id)).toContain(pedido.id);

    const res = await req(`${de(pedido)}/download`, dono);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="relatorio-grande-paginado.xlsx"');
    const lida = await planilha(res);
    expect(lida.headers).toEqual(['Número', 'Descrição', 'Valor']);
    expect(lida.rows).toHaveLength(N + 1);
    expect(lida.rows[0]!.cells).toEqual({ Número: String(N), Descrição: `Linha ${N}`, Valor: '123.45' });
    expect(lida.rows[N - 1]!.cells).toEqual({ Número: '1', Descrição: 'Linha 00001', Valor: '0.01' });
    // Σ 1..N and Σ 0,01·(1..N), exactly
    expect(lida.rows[N]!.cells).toEqual({ Número: '76205685', Descrição: '', Valor: '762056.85' });
    // the job read the rows as the person: their context rebuilt from the database when it ran
    expect(contextos.at(-1)).toEqual({ usuario: dono.id, nome: 'Maria Dona', tags: [RELATORIOS_TAG, FIXTURE_TAG], centros: [CENTRO], todosCentros: false });

    const acoes = await t.server.sql<{ acao: string; usuario_id: string | null }>(
      "SELECT acao, usuario_id FROM audit_log WHERE plugin = 'relatorios' AND registro = $1 ORDER BY id",
      [pedido.id],
    );
    expect(acoes).toEqual([
      { acao: 'gerar_arquivo', usuario_id: dono.id },
      { acao: 'arquivo_gerado', usuario_id: null },
      { acao: 'baixar_arquivo', usuario_id: dono.id },
    ]);
  });

  it('a report without loadPage is read in one bounded load, in the same job', async () => {
    const pedido = await pedir('fixture.inteiro', '?n=10500', 'xlsx');
    const { arquivo } = await aguardar(pedido);
    expect(arquivo).toMatchObject({ estado: 'pronto', total: 10_500, filtrosUsados: [{ label: 'Quantidade de linhas', valor: '10500' }] });
    const lida = await planilha(await req(`${de(pedido)}/download`, dono));
    expect(lida.rows).toHaveLength(10_501);
    expect(lida.rows[0]!.cells.Número).toBe('1');
  });

  it('only the person who asked, in the same entidade, sees and downloads it (404 otherwise)', async () => {
    for (const u of [outro, daCamara]) {
      expect((await req(de(pronto), u)).status).toBe(404);
      expect((await req(`${de(pronto)}/download`, u)).status).toBe(404);
      expect((await json<{ items: Arquivo[] }>(await req('/fixture.grande/arquivos', u), 200)).items).toEqual([]);
    }
    expect((await req('/fixture.grande/arquivos/nao-e-um-id', dono)).status).toBe(400);
    // under another report, the file is not found
    expect((await req(de({ id: pronto.id, relatorioId: 'fixture.inteiro' }), dono)).status).toBe(404);
  });

  it("checks the report's tag again: a person who lost it no longer sees nor downloads the file", async () => {
    await t.server.sql('UPDATE perfis SET tags = $1 WHERE id = $2', [`{${RELATORIOS_TAG}}`, dono.perfilId]);
    try {
      expect((await req(`${de(pronto)}/download`, dono)).status).toBe(404);
      expect((await req(de(pronto), dono)).status).toBe(404);
      expect((await req('/fixture.grande/arquivos', dono)).status).toBe(404);
      expect((await req('/fixture.grande/arquivos', dono, { json: { formato: 'xlsx' } })).status).toBe(404);
    } finally {
      await t.server.sql('UPDATE perfis SET tags = $1 WHERE id = $2', [`{${RELATORIOS_TAG},${FIXTURE_TAG}}`, dono.perfilId]);
    }
    expect((await req(`${de(pronto)}/download`, dono)).status).toBe(200);
  });

  it('checks the filters when asked (400) and fails the job above the bound, saying why', async () => {
    const ruim = await json<ErrorBody>(await req('/fixture.grande/arquivos?ordem=senha', dono, { json: { formato: 'pdf' } }), 400);
    expect(ruim.error.fields).toHaveProperty('ordem');
    expect((await req('/fixture.grande/arquivos', dono, { json: { formato: 'docx' } })).status).toBe(400);

    const pedido = await pedir('fixture.grande', `?n=${MAX_LINHAS_PDF_SEGUNDO_PLANO + 1}`, 'pdf');
    const { arquivo } = await aguardar(pedido);
    expect(arquivo).toMatchObject({ estado: 'falhou', nomeArquivo: null });
    expect(arquivo.erro).toBe('O relatório passa de 50.000 linhas, o máximo de um PDF gerado em segundo plano: restrinja o período ou os filtros.');
    expect((await req(`${de(pedido)}/download`, dono)).status).toBe(409);
    const [falha] = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE registro = $1 AND acao = 'arquivo_falhou'", [pedido.id]);
    expect(falha).toBeTruthy();
  });

  it('an expired file is gone: not listed, not downloadable, its row deleted', async () => {
    await t.server.sql("UPDATE relatorios_arquivos SET expira_em = now() - interval '1 minute' WHERE id = $1", [pronto.id]);
    expect((await req(`${de(pronto)}/download`, dono)).status).toBe(404);
    const lista = await json<{ items: Arquivo[] }>(await req('/fixture.grande/arquivos', dono), 200);
    expect(lista.items.map((a) => a.id)).not.toContain(pronto.id);
    expect(await t.server.sql('SELECT id FROM relatorios_arquivos WHERE id = $1', [pronto.id])).toEqual([]);
  });

  it('its owner deletes a ready file and cancels one under way (audited); nobody else can; the job keeps nothing', async () => {
    const feito = await pedir('fixture.grande', '?n=10001', 'xlsx');
    const { arquivo } = await aguardar(feito);
    expect(arquivo.estado).toBe('pronto');
    const excluir = (a: Arquivo, u: User) => t.server.request(`/api/relatorios${de(a)}`, { token: u.token, method: 'DELETE' });
    for (const u of [outro, daCamara]) expect((await excluir(feito, u)).status).toBe(404);
    expect((await req(de(feito), dono)).status).toBe(200);
    expect((await excluir(feito, dono)).status).toBe(204);
    expect((await req(de(feito), dono)).status).toBe(404);
    expect((await req(`${de(feito)}/download`, dono)).status).toBe(404);
    expect((await excluir(feito, dono)).status).toBe(404);

    // asked and at once cancelled: whatever state it had reached, the row is gone for good
    const pedido = await pedir('fixture.grande', `?n=${N}`, 'pdf');
    expect((await excluir(pedido, dono)).status).toBe(204);
    const jobId = (
      await t.server.sql<{ id: string }>("SELECT id::text FROM pgboss.job WHERE name = 'relatorios.gerar' AND data->>'arquivoId' = $1", [pedido.id])
    )[0]!.id;
    const fim = Date.now() + 90_000;
    let estado = '';
    for (;;) {
      estado = (await t.server.sql<{ state: string }>('SELECT state::text FROM pgboss.job WHERE id = $1::uuid', [jobId]))[0]!.state;
      if (estado === 'cancelled' || estado === 'completed' || estado === 'failed') break;
      if (Date.now() > fim) throw new Error(`job still ${estado}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await t.server.sql('SELECT id FROM relatorios_arquivos WHERE id = $1', [pedido.id])).toEqual([]);
    const acoes = await t.server.sql<{ acao: string; registro: string }>(
      "SELECT acao, registro FROM audit_log WHERE plugin = 'relatorios' AND registro = ANY($1::text[]) AND acao IN ('excluir_arquivo', 'cancelar_arquivo', 'arquivo_gerado') ORDER BY id",
      [`{${feito.id},${pedido.id}}`],
    );
    expect(acoes.filter((a) => a.registro === feito.id).map((a) => a.acao)).toEqual(['arquivo_gerado', 'excluir_arquivo']);
    // cancelled before it was made (or, on a fast machine, deleted once ready): never both made and cancelled
    expect([['cancelar_arquivo'], ['arquivo_gerado', 'excluir_arquivo']]).toContainEqual(acoes.filter((a) => a.registro === pedido.id).map((a) => a.acao));
  });

  it("prints the report's chart above the table in the PDF; a chart that fails leaves the table", async () => {
    const com = await req('/fixture.grafico/pdf?n=3', dono);
    expect(com.status).toBe(200);
    const texto = await pdfText(new Uint8Array(await com.arrayBuffer()));
    expect(texto).toContain('Gráfico de 3 linhas');
    expect(texto.indexOf('Gráfico de 3 linhas')).toBeLessThan(texto.indexOf('Linha 00001'));
    const falho = await req('/fixture.grafico-falho/pdf?n=3', dono);
    expect(falho.status).toBe(200);
    const semGrafico = await pdfText(new Uint8Array(await falho.arrayBuffer()));
    expect(semGrafico).toContain('Linha 00003');
    expect(semGrafico).not.toContain('Gráfico de');
    // no rows, no chart
    expect(await pdfText(new Uint8Array(await (await req('/fixture.grafico/pdf?n=0', dono)).arrayBuffer()))).not.toContain('Gráfico de');
  });
});
