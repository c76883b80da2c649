// pnpm bench, PCA (issue 20), on PGlite and on PostgreSQL:
//  1. 10 000 accepted DFDs with 100 000 lines consolidated into one plan by one PUT naming them — the
//     document kit's many → one link locks, checks and audits each DFD, then the plugin's consolidar()
//     groups the lines into plan items (exact sums) — goal ≤ 10 s each; the plan's data afterwards
//     (GET /planos/:id), the consolidation card's list of the year's DFDs (GET /planos/:id/demandas, all
//     10 000 with their Classes/Grupos), and `enviar`, which consolidates again before checking. The consolidated total
//     is checked against the database's own sum of the lines. Those DFDs name the demo catalogue, so
//     that plan has ~420 items. BENCH_PCA_DFDS and BENCH_PCA_LINHAS (lines per DFD) change the sizes.
//  2. A plan of 5 000 items (BENCH_PCA_ITENS): as many bench products (10 bench grupos, one unit), and
//     accepted DFDs of 10 lines naming each product twice, consolidated by the same PUT; the plan is left
//     em elaboração (the setor's page: items, consolidation card with every DFD of the year). Then
//     (a) the API the plan page reads before its item rows (GET /planos/:id; the other requests the
//     page makes meanwhile are listed by (b)) in-process, next to the very statements it ran replayed
//     through the same pool (record/replay of ./lib/bench-server.mjs): goal API p95 ≤ 2× SQL p95;
//     (b) the page /elabora-pca/edit/:id in Chromium on the built server (apps/server/dist/cli.js start,
//     serving apps/web/dist) on the same data, signed in as admin, loaded BENCH_PCA_LOADS times (default
//     10) after 2 warm-up loads: from navigation start to the first item rows in the DOM and painted
//     (a task queued from the next animation frame runs after its paint); goal ≤ 1 s p95.
// Missed goals are reported (OVER), not errors. BENCH_PCA_RUNS (default 30) sets the runs of (a);
// BENCH_EXPLAIN=1 prints the plans and times of GET /planos/:id's statements (both plans).
import { join } from 'node:path';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';
import { benchServers, bulkLoad, fmt, freePort, measure, pct, record, signInInBrowser, sqlText } from './lib/bench-server.mjs';

const DFDS = Number(process.env.BENCH_PCA_DFDS) || 10_000;
const LINHAS = Number(process.env.BENCH_PCA_LINHAS) || 10;
const ANO_PCA = 2031;
// part 2: the plan of 5 000 items
const ITENS = Number(process.env.BENCH_PCA_ITENS) || 5_000;
const POR_DFD = 10;
const DFDS_ITENS = Math.ceil((2 * ITENS) / POR_DFD); // each product named twice
const ANO_PCA_ITENS = 2032;
const ANO_DFD_ITENS = 2029; // the DFDs' own year (numbers are unique per year; part 1 writes 2030)
const RUNS = Number(process.env.BENCH_PCA_RUNS) || 30;
const WARMUP = 3;
const LOADS = Number(process.env.BENCH_PCA_LOADS) || 10;
const GOALS = { ratio: 2, pagina: 1000 };

/** DFDs of every centro, accepted, for ANO_PCA; each line a demo product, 4-decimal unit values. */
async function grow(database, prefeitura) {
  const t0 = performance.now();
  await database.withRawClient(async (raw) => {
    await bulkLoad(raw, ['memorandos', 'memorando_itens'], async () => {
      await raw.query(
        `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
              u AS (SELECT id, nome FROM usuarios WHERE login = 'requisitante')
         INSERT INTO memorandos (entidade_id, numero, ano, data, status, origem_id, destino_id, solicitante_id, solicitante_nome,
                                 assunto, justificativa, prioridade, data_desejada, ano_pca)
         SELECT $1, 1 + g, 2030, make_date(2030, 1 + g % 12, 1 + g % 28), 'aceito', cc.ids[1 + g % cc.n], cc.ids[1], u.id, u.nome,
                'Demanda ' || g || ' para o PCA', 'Necessidade do exercício seguinte.', 'media', make_date($3, 1 + g % 12, 1 + g % 28), $3
           FROM generate_series(0, $2::int - 1) g, cc, u`,
        [prefeitura, DFDS, ANO_PCA],
      );
      await raw.query(
        `WITH p AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM produtos WHERE entidade_id = $1 AND ativo)
         INSERT INTO memorando_itens (memorando_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total)
         SELECT m.id, m.entidade_id, o, p.ids[1 + (m.numero * 7 + o) % p.n], 1 + (m.numero + o) % 50, 1.3333 + o % 13,
                round((1 + (m.numero + o) % 50) * (1.3333 + o % 13), 2)
           FROM memorandos m, p, generate_series(1, $2::int) o
          WHERE m.entidade_id = $1 AND m.ano_pca = $3`,
        [prefeitura, LINHAS, ANO_PCA],
      );
    });
  });
  await database.maintain();
  if (database.engine === 'postgres') await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) memorandos, memorando_itens'));
  return performance.now() - t0;
}

/**
 * ITENS bench products (own catalogue: 10 bench grupos, the entidade's first unit, so each is one plan
 * item with nothing pending) and DFDS_ITENS accepted DFDs for ANO_PCA_ITENS whose 10 lines name each
 * product twice, desired dates spread over the year.
 */
async function growItens(database, prefeitura) {
  const t0 = performance.now();
  await database.withRawClient(async (raw) => {
    await raw.query(
      `INSERT INTO registros_grupos (entidade_id, codigo, nome, catalogo_tipo)
       SELECT $1, 'PCAB' || lpad(g::text, 2, '0'), 'Grupo do plano bench ' || g, 'material' FROM generate_series(1, 10) g`,
      [prefeitura],
    );
    await raw.query(
      `WITH gr AS (SELECT array_agg(id ORDER BY codigo) AS ids FROM registros_grupos WHERE entidade_id = $1 AND codigo LIKE 'PCAB%'),
            u AS (SELECT id FROM registros_unidades WHERE entidade_id = $1 AND ativo ORDER BY sigla LIMIT 1)
       INSERT INTO produtos (entidade_id, codigo, descricao, tipo, grupo_id, unidade_id)
       SELECT $1, 'PCAB' || lpad(i::text, 5, '0'), 'Material do plano bench ' || lpad(i::text, 5, '0') || ' – especificação de referência', 'material',
              gr.ids[1 + i % 10], u.id
         FROM generate_series(0, $2::int - 1) i, gr, u`,
      [prefeitura, ITENS],
    );
    await bulkLoad(raw, ['memorandos', 'memorando_itens'], async () => {
      await raw.query(
        `WITH cc AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM registros_centros_custo WHERE entidade_id = $1),
              u AS (SELECT id, nome FROM usuarios WHERE login = 'requisitante')
         INSERT INTO memorandos (entidade_id, numero, ano, data, status, origem_id, destino_id, solicitante_id, solicitante_nome,
                                 assunto, justificativa, prioridade, data_desejada, ano_pca)
         SELECT $1, 1 + g, $4::int, make_date($4::int, 1 + g % 12, 1 + g % 28), 'aceito', cc.ids[1 + g % cc.n], cc.ids[1], u.id, u.nome,
                'Demanda ' || g || ' para o plano de ' || $3::int, 'Necessidade do exercício seguinte.', 'media', make_date($3::int, 1 + g % 12, 1 + g % 28), $3::int
           FROM generate_series(0, $2::int - 1) g, cc, u`,
        [prefeitura, DFDS_ITENS, ANO_PCA_ITENS, ANO_DFD_ITENS],
      );
      await raw.query(
        `WITH p AS (SELECT array_agg(id ORDER BY codigo) AS ids, count(*)::int AS n FROM produtos WHERE entidade_id = $1 AND codigo LIKE 'PCAB%')
         INSERT INTO memorando_itens (memorando_id, entidade_id, ordem, produto_id, quantidade, valor_unitario, valor_total, categoria_item_pca)
         SELECT m.id, m.entidade_id, o, p.ids[1 + ((m.numero - 1) * $2::int + o - 1) % p.n], 1 + (m.numero + o) % 50, 2.5 + (m.numero * 7 + o) % 400,
                round((1 + (m.numero + o) % 50) * (2.5 + (m.numero * 7 + o) % 400), 2), 1
           FROM memorandos m, p, generate_series(1, $2::int) o
          WHERE m.entidade_id = $1 AND m.ano_pca = $3::int`,
        [prefeitura, POR_DFD, ANO_PCA_ITENS],
      );
    });
  });
  await database.maintain();
  if (database.engine === 'postgres') await database.withRawClient((raw) => raw.exec('VACUUM (ANALYZE) produtos, memorandos, memorando_itens'));
  return performance.now() - t0;
}

/**
 * BENCH_EXPLAIN=1: the plan of each SELECT a GET /planos/:id ran (EXPLAIN ANALYZE), the answer's size
 * by key, and each statement replayed alone (median of 5, rows brought back included): where the time goes.
 */
async function explicar(database, recorder, units, lido) {
  for (const args of units.flatMap((u) => u.statements)) {
    const sqlt = sqlText(args);
    if (!/^\s*select/i.test(sqlt)) continue;
    const params = Array.isArray(args[1]) ? args[1] : (args[0]?.values ?? []);
    const plan = await database.withRawClient((raw) => raw.query(`EXPLAIN ANALYZE ${sqlt}`, params));
    console.log(`\n${sqlt}\n${JSON.stringify(params).slice(0, 300)}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  console.log(Object.entries(lido).map(([k, v]) => `${k} ${(JSON.stringify(v ?? null).length / 1024).toFixed(0)} KB`).join(', '));
  for (const unit of units) {
    const { times } = await measure(() => recorder.replay(unit), 5);
    console.log(`${fmt(pct(times, 50))}  ${unit.statements.map((a) => sqlText(a).replace(/\s+/g, ' ').slice(0, 140)).join(' ; ')}`);
  }
}

/**
 * The plan page in Chromium on the built server at `url`: signs in as admin, then loads
 * /elabora-pca/edit/:id 2 + LOADS times. Per load, from navigation start (performance.now() in the
 * page): the first item row in the DOM and painted, how many item rows the DOM had then, the page's
 * fetch of GET /planos/:id, the other API requests started before the first row, and the longest
 * main-thread task until then.
 */
async function pagina(url, planoId) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    await context.addInitScript(() => {
      const marks = { tasks: [] };
      window.__benchPlano = marks;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) marks.tasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      // the items' table: its caption names it (the other tables of the page have theirs)
      const linhas = () => {
        for (const c of document.getElementsByTagName('caption'))
          if (c.textContent === 'Itens consolidados') return c.parentElement.querySelectorAll('tbody > tr > th[scope="row"]');
        return [];
      };
      const observer = new MutationObserver(() => {
        const rows = linhas();
        if (rows.length === 0) return;
        marks.firstDom = performance.now();
        marks.rows = rows.length;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (marks.firstPaint = performance.now()), 0));
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await signInInBrowser(page, url);

    const loads = [];
    for (let i = 0; i < 2 + LOADS; i++) {
      await page.goto(`${url}/elabora-pca/edit/${planoId}`);
      await page.waitForFunction(() => window.__benchPlano?.firstPaint !== undefined, null, { timeout: 120_000 }).catch(async (error) => {
        const estado = await page.evaluate(() => ({ url: location.href, marks: window.__benchPlano }));
        throw new Error(`plan page: no item row painted in 120 s (${JSON.stringify(estado)})`, { cause: error });
      });
      const m = await page.evaluate(async (id) => {
        await new Promise((r) => setTimeout(r, 50)); // the long-task observer reports late
        const { tasks, ...marks } = window.__benchPlano;
        const recursos = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/api/'));
        const api = recursos.find((e) => new URL(e.name).pathname === `/api/pca/planos/${id}`);
        const antes = recursos
          .filter((e) => e.startTime < marks.firstPaint)
          .map((e) => `${new URL(e.name).pathname.replace(id, ':id')}${new URL(e.name).search ? '?…' : ''}`);
        const longest = Math.max(0, ...tasks.filter(([start]) => start < marks.firstPaint).map(([, duration]) => duration));
        return { ...marks, longest, apiStart: api?.startTime, apiEnd: api?.responseEnd, antes, domNodes: document.getElementsByTagName('*').length };
      }, planoId);
      if (m.apiEnd === undefined) throw new Error(`plan page: no GET /api/pca/planos/${planoId} seen`);
      if (i >= 2) loads.push(m);
    }
    const sorted = (key) => loads.map((l) => l[key]).sort((a, b) => a - b);
    return {
      firstPaint: sorted('firstPaint'),
      firstDom: sorted('firstDom'),
      apiStart: sorted('apiStart'),
      apiEnd: sorted('apiEnd'),
      longest: sorted('longest'),
      rows: sorted('rows'),
      domNodes: sorted('domNodes'),
      antes: [...new Set(loads.flatMap((l) => l.antes))].sort(),
    };
  } finally {
    await browser.close();
  }
}

/** The built server (as `pnpm start`) on the bench's data (a PGlite folder or a PostgreSQL URL), the page measured, the server stopped. */
async function paginaNoServidor({ startServer, stopServer, tmp }, engine, planoId, { dataDir, databaseUrl }) {
  const port = await freePort();
  const { child } = await startServer(dataDir ?? join(tmp, 'bench-pca-unused'), port, databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  try {
    return { engine, ...(await pagina(`http://127.0.0.1:${port}`, planoId)) };
  } finally {
    await stopServer(child);
  }
}

export default async function benchPca({ root, tmp, startServer, stopServer }) {
  console.log(`\n## PCA: consolidation of ${DFDS.toLocaleString('pt-BR')} DFDs / ${(DFDS * LINHAS).toLocaleString('pt-BR')} lines into one plan (goal ≤ 10 s)`);
  console.log('| engine | PUT with the DFDs (link + consolidation) | PUT again (consolidation only) | plan items | DFD lines behind them | total = SQL sum of the lines | GET /planos/:id p50 | p95 | GET /planos/:id/demandas (the consolidation card: every DFD of the year) p50 / p95 | enviar (consolidates again) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const notes = [];
  const apis = [];
  const paginas = [];
  let pglite;
  for await (const { engine, database, server, prefeitura, renew, dataDir, databaseUrl } of benchServers({ root, tmp, name: 'pca' })) {
    const ms = await grow(database, prefeitura);
    notes.push(`${engine}: ${DFDS.toLocaleString('pt-BR')} DFDs with ${LINHAS} lines each written in ${(ms / 1000).toFixed(1)} s`);
    const token = await renew();
    const call = async (path, init = {}, status = 200) => {
      const res = await server.app.request(`/api/pca${path}`, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${init.token ?? token}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await res.text();
      if (res.status !== status) throw new Error(`${path}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };
    const [{ setor, ids, soma }] = await database.withRawClient((raw) =>
      raw.query(
        `SELECT (SELECT id FROM registros_centros_custo WHERE entidade_id = $1 AND codigo = '01.01') AS setor,
                (SELECT array_agg(id ORDER BY numero) FROM memorandos WHERE entidade_id = $1 AND ano_pca = $2) AS ids,
                (SELECT sum(round(i.quantidade * i.valor_unitario, 4))::text FROM memorando_itens i JOIN memorandos m ON m.id = i.memorando_id
                  WHERE m.entidade_id = $1 AND m.ano_pca = $2) AS soma`,
        [prefeitura, ANO_PCA],
      ),
    );
    let plano = await call('/planos', { json: { anoPca: ANO_PCA, codigoUnidade: 'BENCH', centroCustoId: setor } }, 201);
    const corpo = { anoPca: ANO_PCA, codigoUnidade: 'BENCH', centroCustoId: setor };
    const t0 = performance.now();
    plano = await call(`/planos/${plano.id}`, { method: 'PUT', json: { ...corpo, version: plano.version, memorandoIds: ids } });
    const consolidacao = performance.now() - t0;
    // saved again without naming the DFDs: the links stay, the items are consolidated again (the part of the consolidation alone)
    const t2 = performance.now();
    plano = await call(`/planos/${plano.id}`, { method: 'PUT', json: { ...corpo, version: plano.version } });
    const reconsolidacao = performance.now() - t2;
    const [{ itens, fontes }] = await database.withRawClient((raw) =>
      raw.query(
        `SELECT count(DISTINCT i.id)::int AS itens, count(f.id)::int AS fontes FROM pca_itens i LEFT JOIN pca_item_fontes f ON f.item_id = i.id WHERE i.plano_id = $1`,
        [plano.id],
      ),
    );
    const exato = plano.valorTotal === soma;
    if (process.env.BENCH_EXPLAIN) {
      const recorder = record(database);
      recorder.start();
      const lido = await call(`/planos/${plano.id}`);
      const units = recorder.stop().filter((u) => !u.statements.some((a) => /\bpgboss\./.test(sqlText(a))));
      recorder.restore();
      await explicar(database, recorder, units, lido);
    }
    const { times } = await measure(() => call(`/planos/${plano.id}`), 10);
    const demandas = await call(`/planos/${plano.id}/demandas`);
    if (demandas.items.length !== DFDS || demandas.truncated) throw new Error(`/demandas: ${demandas.items.length} DFDs, truncated ${demandas.truncated}`);
    const { times: tDemandas } = await measure(() => call(`/planos/${plano.id}/demandas`), 10);
    const t1 = performance.now();
    const enviado = await call(`/planos/${plano.id}/enviar`, { json: { version: plano.version } }, 200);
    const envio = performance.now() - t1;
    if (enviado.status !== 'em_aprovacao') throw new Error(`enviar: ${enviado.status}`);
    const ok = (v, goal) => (v <= goal ? 'OK' : 'OVER');
    console.log(
      `| ${engine} | ${(consolidacao / 1000).toFixed(2)} s ${ok(consolidacao, 10_000)} | ${(reconsolidacao / 1000).toFixed(2)} s | ${itens.toLocaleString('pt-BR')} | ${fontes.toLocaleString('pt-BR')} | ` +
        `${plano.valorTotal} ${exato ? '= ' : '≠ '}${soma} | ${fmt(pct(times, 50))} ${ok(pct(times, 50), 1000)} | ${fmt(pct(times, 95))} | ${fmt(pct(tDemandas, 50))} / ${fmt(pct(tDemandas, 95))} | ${(envio / 1000).toFixed(2)} s |`,
    );

    // ---- 2. the plan of ITENS items: its data API next to its SQL, then (below) its page in Chromium ----
    const msItens = await growItens(database, prefeitura);
    const token2 = await renew();
    const call2 = (path, init = {}, status = 200) => call(path, { ...init, token: token2 }, status);
    const [{ ids: idsItens, soma: somaItens }] = await database.withRawClient((raw) =>
      raw.query(
        `SELECT (SELECT array_agg(id ORDER BY numero) FROM memorandos WHERE entidade_id = $1 AND ano_pca = $2) AS ids,
                (SELECT sum(round(i.quantidade * i.valor_unitario, 4))::text FROM memorando_itens i JOIN memorandos m ON m.id = i.memorando_id
                  WHERE m.entidade_id = $1 AND m.ano_pca = $2) AS soma`,
        [prefeitura, ANO_PCA_ITENS],
      ),
    );
    const corpo2 = { anoPca: ANO_PCA_ITENS, codigoUnidade: 'BENCH5K', centroCustoId: setor };
    let grande = await call2('/planos', { json: corpo2 }, 201);
    const t3 = performance.now();
    grande = await call2(`/planos/${grande.id}`, { method: 'PUT', json: { ...corpo2, version: grande.version, memorandoIds: idsItens } });
    const consolidacaoItens = performance.now() - t3;
    const path = `/api/pca/planos/${grande.id}`;
    const request = () => server.app.request(path, { headers: { authorization: `Bearer ${token2}` } });
    const recorder = record(database);
    recorder.start();
    const res = await request();
    const text = await res.text();
    // the request's own statements (on PGlite a background job's poll may fall in the window)
    const units = recorder.stop().filter((u) => !u.statements.some((a) => /\bpgboss\./.test(sqlText(a))));
    recorder.restore();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 500)}`);
    const lido = JSON.parse(text);
    if (lido.itens.length !== ITENS) throw new Error(`GET ${path}: ${lido.itens.length} items, expected ${ITENS}`);
    if (lido.valorTotal !== somaItens) throw new Error(`GET ${path}: total ${lido.valorTotal}, the lines' SQL sum ${somaItens}`);
    const statements = units.flatMap((u) => u.statements);
    if (process.env.BENCH_EXPLAIN) await explicar(database, recorder, units, lido);
    for (let i = 0; i < WARMUP; i++) {
      await (await request()).arrayBuffer();
      for (const unit of units) await recorder.replay(unit);
    }
    const { times: api } = await measure(async () => (await request()).arrayBuffer(), RUNS);
    const { times: sql } = await measure(async () => {
      for (const unit of units) await recorder.replay(unit);
    }, RUNS);
    apis.push({ engine, api, sql, statements: statements.length, kb: text.length / 1024, consolidacaoItens, msItens, dfds: idsItens.length });
    // the page: PostgreSQL now (the built server beside this one on the same database); PGlite after
    // this loop, once its folder is closed (an embedded database has one process)
    if (databaseUrl) paginas.push(await paginaNoServidor({ startServer, stopServer, tmp }, engine, grande.id, { databaseUrl }));
    else pglite = { engine, planoId: grande.id, dataDir };
  }
  if (pglite) paginas.unshift(await paginaNoServidor({ startServer, stopServer, tmp }, pglite.engine, pglite.planoId, { dataDir: pglite.dataDir }));
  for (const n of notes) console.log(`- ${n}`);

  console.log(
    `\n## PCA: the plan of ${ITENS.toLocaleString('pt-BR')} items, GET /api/pca/planos/:id (the page's data) vs the same SQL (in-process, ${WARMUP} warm-up + ${RUNS} runs; goal API p95 ≤ ${GOALS.ratio}× SQL p95)`,
  );
  console.log('| engine | answer | API p50 | API p95 | SQL p50 | SQL p95 | p95 ratio | goal |\n|---|---|---|---|---|---|---|---|');
  for (const a of apis) {
    const ratio = pct(a.api, 95) / pct(a.sql, 95);
    console.log(
      `| ${a.engine} | ${ITENS.toLocaleString('pt-BR')} items, ${a.kb.toFixed(0)} KB JSON, ${a.statements} statements | ${fmt(pct(a.api, 50))} | ${fmt(pct(a.api, 95))} | ` +
        `${fmt(pct(a.sql, 50))} | ${fmt(pct(a.sql, 95))} | ${ratio.toFixed(2)}× | ${ratio <= GOALS.ratio ? 'OK' : 'OVER'} |`,
    );
  }
  console.log(`\n## PCA: the plan page of ${ITENS.toLocaleString('pt-BR')} items in Chromium (built server as \`pnpm start\`, 1366×768, ${LOADS} loads after 2 warm-up, ms from navigation start)`);
  console.log('| engine (server) | moment | p50 | p95 | max | goal |\n|---|---|---|---|---|---|');
  for (const p of paginas) {
    const first95 = pct(p.firstPaint, 95);
    console.log(`| ${p.engine} | GET /planos/:id fetched by the page (start → end) | ${fmt(pct(p.apiStart, 50))} → ${fmt(pct(p.apiEnd, 50))} | → ${fmt(pct(p.apiEnd, 95))} | → ${fmt(p.apiEnd.at(-1))} | |`);
    console.log(`| ${p.engine} | first item rows in the DOM (${p.rows[0]}${p.rows.at(-1) === p.rows[0] ? '' : `…${p.rows.at(-1)}`} rows then) | ${fmt(pct(p.firstDom, 50))} | ${fmt(pct(p.firstDom, 95))} | ${fmt(p.firstDom.at(-1))} | |`);
    console.log(`| ${p.engine} | longest main-thread task until then (input waits) | ${fmt(pct(p.longest, 50))} | ${fmt(pct(p.longest, 95))} | ${fmt(p.longest.at(-1))} | |`);
    console.log(
      `| ${p.engine} | first item rows painted | ${fmt(pct(p.firstPaint, 50))} | ${fmt(first95)} | ${fmt(p.firstPaint.at(-1))} | ≤ ${GOALS.pagina} ms p95: ${first95 <= GOALS.pagina ? 'OK' : 'OVER'} |`,
    );
  }
  for (const a of apis)
    console.log(
      `- ${a.engine}: ${ITENS.toLocaleString('pt-BR')} bench products and ${a.dfds.toLocaleString('pt-BR')} DFDs of ${POR_DFD} lines written in ${(a.msItens / 1000).toFixed(1)} s; ` +
        `consolidated into the plan by the PUT in ${(a.consolidacaoItens / 1000).toFixed(2)} s`,
    );
  for (const p of paginas) console.log(`- ${p.engine}: the page's API requests started before the first item row: ${p.antes.join(', ')}; ${p.domNodes[0]}…${p.domNodes.at(-1)} elements on the page then`);
  console.log('- SQL = the statements GET /planos/:id ran (the lookup of the session too when it is not served from memory), recorded and replayed through the same pool (parameters included), one after the other');
}
