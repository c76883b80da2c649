// pnpm bench, relatórios (issue 22, "Measures"): a 50 000-row report to XLSX and to PDF as a background job
// without stalling the other requests — the longest /api/health wait while it runs ≤ 200 ms.
// On each engine (./lib/bench-server.mjs: PGlite in a folder; PostgreSQL on a fresh database with
// TEST_DATABASE_URL or BENCH_DATABASE_URL), the built server in-process with every plugin of the product and
// one of the bench's own contributing a report to RELATORIOS: 'Itens de requisições (bench)', n rows of eight
// columns (date, number, centro de custo, requester, product, quantity, unit and total value, exact decimals)
// made by generate_series, twice: read in one bounded `load` (as every report of the product reads its rows
// today) and read 5 000 rows at a time (`loadPage`, @app/relatorios' RelatorioPaginado). The report runs through
// the relatórios plugin's own background path: POST /api/relatorios/:id/arquivos (202), the pg-boss job
// relatorios.gerar worked by this server (rows read, cells built in chunks with a pause between them, the
// file written in the worker pool), GET …/arquivos/:id polled every 250 ms until 'pronto', then the download.
// Meanwhile GET /api/health is asked every 20 ms, one after the other: its wait is the time from when it was due
// to its answer (so a stalled event loop counts, not only a slow answer). Printed per engine and format: the job
// time (202 → 'pronto'), the file's size, the health probes (count, p50, p95, longest) during the job, and
// the longest alone for 3 s before. BENCH_RELATORIOS_LINHAS changes the size (PDF: at most 50 000);
// BENCH_RELATORIOS_CASOS=xlsx,pdf-paginado runs only those cases (xlsx, xlsx-paginado, pdf, pdf-paginado).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchServers, fmt, pct } from './lib/bench-server.mjs';

const LINHAS = Number(process.env.BENCH_RELATORIOS_LINHAS) || 50_000;
const GOAL_MS = 200;
const ID = 'bench.itens';
const ID_PAGINADO = 'bench.itens-paginado';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The bench's plugin: one report of `n` rows (filter n, default LINHAS), under the tag Relatórios (105). */
function benchPlugin(serverCore, sql) {
  const { RELATORIOS, contribute, defineReport, defineServerPlugin } = serverCore;
  const report = defineReport({
    id: ID,
    title: 'Itens de requisições (bench)',
    description: 'Linhas geradas para o bench do relatório em segundo plano.',
    group: 'Bench',
    tag: 105,
    filters: [{ name: 'n', label: 'Quantidade de linhas', kind: 'text' }],
    columns: [
      { key: 'data', label: 'Data', type: 'date' },
      { key: 'numero', label: 'Requisição' },
      { key: 'centro', label: 'Centro de custo' },
      { key: 'solicitante', label: 'Solicitante' },
      { key: 'produto', label: 'Produto ou serviço' },
      { key: 'quantidade', label: 'Quantidade', type: 'decimal', total: true },
      { key: 'unitario', label: 'Valor unitário (R$)', type: 'decimal' },
      { key: 'valor', label: 'Valor total', type: 'money', total: true },
    ],
    load: (ctx, f, limit) => linhas(ctx, Math.min(Number(f.n ?? LINHAS) || LINHAS, limit), 0),
  });
  /** Rows offset + 1 … n (generate_series: each row made once, in order). */
  async function linhas(ctx, n, offset) {
    const { rows } = await ctx.db.execute(sql`SELECT to_char(date '2025-01-01' + (g % 365), 'YYYY-MM-DD') AS data, (g / 5 + 1) || '/2025' AS numero,
                           'Secretaria Municipal ' || (g % 20 + 1) || ' – Coordenação de Compras' AS centro,
                           'Servidor Solicitante ' || (g % 97 + 1) AS solicitante,
                           'BP' || lpad((g % 2000)::text, 5, '0') || ' – Produto de consumo bench, embalagem com ' || (g % 12 + 1) || ' unidades' AS produto,
                           (1 + g % 20)::numeric(15,4)::text AS quantidade, (2.5 + (g * 7 % 500) / 4.0)::numeric(15,4)::text AS unitario,
                           round((1 + g % 20) * (2.5 + (g * 7 % 500) / 4.0), 2)::text AS valor
                      FROM generate_series(${Math.trunc(offset) + 1}::int, ${Math.trunc(n)}::int) g ORDER BY g`);
    return rows;
  }
  // the same rows read 5 000 at a time with a pause between pages (@app/relatorios' RelatorioPaginado)
  const paginado = defineReport(
    Object.assign({ ...report, id: ID_PAGINADO, title: 'Itens de requisições (bench, paginado)' }, {
      loadPage: (ctx, f, page) => linhas(ctx, Math.min(Number(f.n ?? LINHAS) || LINHAS, page.offset + page.limit), page.offset),
    }),
  );
  return [
    defineServerPlugin({
      id: 'bench-relatorios',
      version: '1.0.0',
      core: '^1.0.0',
      contributes: [contribute(RELATORIOS, report), contribute(RELATORIOS, paginado)],
      routes: () => undefined,
    }),
  ];
}

export default async function benchRelatorios({ root, tmp }) {
  const { sql } = await import(pathToFileURL(join(root, 'packages', 'server-core', 'dist', 'orm.js')).href);
  const rows = [];
  const carga = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
  const cargaInicio = carga();
  for await (const { engine, server, renew } of benchServers({
    root,
    tmp,
    name: 'relatorios',
    extraPlugins: (serverCore) => benchPlugin(serverCore, sql),
  })) {
    const token = await renew();
    const req = async (path, init = {}) =>
      server.app.request(path, {
        method: init.json === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
    /** /api/health every 20 ms until stopped: the wait of each, from when it was due to its answer. */
    // the longest waits are kept with when they ended (ms since the start of the probes) and the phase the file was in then
    let faseAgora = '';
    const sondar = () => {
      const waits = [];
      const longas = [];
      const inicio = performance.now();
      let parar = false;
      const loop = (async () => {
        while (!parar) {
          const devido = performance.now() + 20;
          await sleep(20);
          const res = await server.app.request('/api/health');
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`/api/health: ${res.status}`);
          const espera = performance.now() - devido;
          waits.push(espera);
          if (espera > 100) longas.push({ espera, em: performance.now() - inicio, fase: faseAgora });
        }
      })();
      return async () => {
        parar = true;
        await loop;
        const sorted = waits.sort((a, b) => a - b);
        sorted.longas = longas.sort((a, b) => b.espera - a.espera).slice(0, 3);
        return sorted;
      };
    };
    const sozinho = sondar();
    await sleep(3000);
    const ocioso = await sozinho();
    const casos = process.env.BENCH_RELATORIOS_CASOS?.split(',').map((s) => s.trim());
    for (const [relatorioId, formato] of [
      [ID, 'xlsx'],
      [ID_PAGINADO, 'xlsx'],
      [ID, 'pdf'],
      [ID_PAGINADO, 'pdf'],
    ].filter(([id, f]) => !casos || casos.includes(id === ID ? f : `${f}-paginado`))) {
      const leitura = relatorioId === ID ? 'one load' : 'page by page';
      const parar = sondar();
      const t0 = performance.now();
      const res = await req(`/api/relatorios/${relatorioId}/arquivos?n=${LINHAS}`, { json: { formato } });
      const pedido = await res.json();
      if (res.status !== 202) throw new Error(`POST arquivos (${formato}): ${res.status} ${JSON.stringify(pedido)}`);
      let arquivo = pedido;
      faseAgora = arquivo.fase ?? arquivo.estado;
      const fases = new Set();
      while (arquivo.estado !== 'pronto' && arquivo.estado !== 'falhou') {
        if (performance.now() - t0 > 15 * 60_000) throw new Error(`the ${formato} job still ${arquivo.estado} after 15 min`);
        await sleep(250);
        arquivo = await (await req(`/api/relatorios/${relatorioId}/arquivos/${pedido.id}`)).json();
        if (arquivo.fase) fases.add(arquivo.fase);
        faseAgora = arquivo.fase ?? arquivo.estado;
      }
      const ms = performance.now() - t0;
      const health = await parar();
      if (arquivo.estado === 'falhou') {
        // a finding, not a crash of the bench: printed as such
        rows.push({ engine, leitura, formato, ms, tamanho: 0, health, ocioso, fases: [...fases].join(' → '), falha: arquivo.erro });
        console.log(`- ${engine} ${formato.toUpperCase()} (${leitura}): the job FAILED after ${(ms / 1000).toFixed(1)} s: ${arquivo.erro}`);
        continue;
      }
      const download = await req(`/api/relatorios/${relatorioId}/arquivos/${pedido.id}/download`);
      const bytes = Buffer.from(await download.arrayBuffer());
      const magia = formato === 'pdf' ? bytes.subarray(0, 5).toString() === '%PDF-' : bytes.subarray(0, 2).toString() === 'PK';
      if (download.status !== 200 || !magia || arquivo.linhas !== LINHAS) {
        throw new Error(`the ${formato} file: ${download.status}, ${bytes.length} bytes, ${arquivo.linhas} rows`);
      }
      rows.push({ engine, leitura, formato, ms, tamanho: bytes.length, health, ocioso, fases: [...fases].join(' → ') });
      const longas = health.longas.map((l) => `${fmt(l.espera)} at ${(l.em / 1000).toFixed(1)} s (${l.fase})`).join(', ');
      console.log(
        `- ${engine} ${formato.toUpperCase()} (${leitura}): ${(ms / 1000).toFixed(1)} s, ${bytes.length} bytes, /api/health longest ${fmt(health.at(-1) ?? 0)} (${health.length} probes)${longas ? `; waits over 100 ms: ${longas}` : ''}`,
      );
    }
  }
  console.log(
    `\n## Relatórios (issue 22): a ${LINHAS.toLocaleString('pt-BR')}-row report as a background job (built server in-process, pg-boss job relatorios.gerar), /api/health every 20 ms meanwhile (goal: longest wait ≤ ${GOAL_MS} ms)`,
  );
  console.log('| engine | rows read | file | job (202 → pronto) | size | phases seen | /api/health during: probes, p50, p95, longest | longest alone (3 s before) | goal |\n|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const longest = r.health.at(-1) ?? 0;
    console.log(
      `| ${r.engine} | ${r.leitura} | ${r.formato.toUpperCase()} | ${r.falha ? `FAILED after ${(r.ms / 1000).toFixed(1)} s: ${r.falha}` : `${(r.ms / 1000).toFixed(1)} s`} | ${(r.tamanho / 1024 / 1024).toFixed(1)} MB | ${r.fases || '—'} | ${r.health.length}, ${fmt(pct(r.health, 50))}, ${fmt(pct(r.health, 95))}, ${fmt(longest)} | ${fmt(r.ocioso.at(-1) ?? 0)} | ${longest <= GOAL_MS ? 'OK' : 'OVER'} |`,
    );
  }
  console.log(`- load average (1/5/15 min) ${cargaInicio} before, ${carga()} after; the wait counts from when the probe was due (a stalled event loop included)`);
}
