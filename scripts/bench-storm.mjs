// pnpm bench, availability under heavy documents (issue 18): the built server (apps/server/dist/cli.js
// start, as `pnpm start`) on a fresh PGlite folder and, with TEST_DATABASE_URL or BENCH_DATABASE_URL,
// on a fresh PostgreSQL database, holding the cotação of bench-cotacoes (BENCH_STORM_ITENS items,
// default 500, × 10 suppliers: a price of each supplier for each item, plus the other sources).
// Over real HTTP connections:
//  - alone: GET /api/health every 50 ms (anonymous) and a list (GET /api/cotacoes/cotacoes, by a person
//    who takes no part in the storm) every 200 ms, for BENCH_STORM_SECONDS (default 5) seconds;
//  - the same probes during each storm, until its last answer:
//      · 'memória PDF, 1 pessoa × 20': one person asks …/memoria.pdf 20 times at once;
//      · 'memória PDF, 4 pessoas × 5': four people ask it 5 times each, at once;
//      · 'memória PDF, 1 pessoa × 20, desiste em 5 s': the same 20 requests abandoned by the client
//        after 5 s (the issue's case), and then another person's memorando PDF: how long it takes;
//      · the same first two with …/memoria.xlsx;
//    with the answers counted (200, 429, other) and the time of the last document.
// Printed: p50 / p95 / max of /api/health and of the list alone and during each storm; goal: health
// p95 ≤ 200 ms during the storms. Missed goals are reported (OVER), not errors.
import { join } from 'node:path';
import { grow } from './bench-cotacoes.mjs';
import { benchServers, freePort, pct } from './lib/bench-server.mjs';

const GOAL_HEALTH_P95 = 200;
/** Items of the cotação (× 10 suppliers): BENCH_STORM_ITENS, default 500 as bench-cotacoes (the issue's was 421). */
const ITENS = Number(process.env.BENCH_STORM_ITENS) || 500;
const ALONE_MS = (Number(process.env.BENCH_STORM_SECONDS) || 5) * 1000;
const ABANDON_MS = 5000;
const PEOPLE = ['admin', 'bench.storm1', 'bench.storm2', 'bench.storm3'];
const WATCHER = 'bench.storm4';
const PASSWORD = 'demo1234';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (v) => (v === undefined ? '–' : `${v.toFixed(0)} ms`);

/** Four more people with the admin's perfil in the Prefeitura (the admin's password hash): distinct users for the per-person bounds. */
async function morePeople(database, prefeitura) {
  await database.withRawClient(async (raw) => {
    const logins = [...PEOPLE.slice(1), WATCHER];
    for (const login of logins) {
      await raw.query(
        `INSERT INTO usuarios (nome, login, email, cargo, senha_hash)
         SELECT 'Pessoa ' || $1, $1, $1 || '@exemplo.gov.br', 'Servidor', senha_hash FROM usuarios WHERE login = 'admin'`,
        [login],
      );
      await raw.query(
        `INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo)
         SELECT (SELECT id FROM usuarios WHERE login = $1), ue.entidade_id, ue.perfil_id, ue.centros_custo
           FROM usuario_entidades ue JOIN usuarios u ON u.id = ue.usuario_id WHERE u.login = 'admin' AND ue.entidade_id = $2::uuid`,
        [login, prefeitura],
      );
    }
  });
}

async function signIn(url, login, entidadeId) {
  const res = await fetch(`${url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, senha: PASSWORD, entidadeId }),
  });
  const body = await res.json();
  if (res.status !== 200 || !body.token) throw new Error(`sign-in of ${login}: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** Asks `path` every `everyMs` (one at a time) until `stop()`; the sorted latencies (of every answer, whatever its status) and the failures. */
function probe(url, path, everyMs, token) {
  let running = true;
  const times = [];
  const failures = [];
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(String(res.status));
      } catch (err) {
        failures.push(err.cause?.code ?? err.message);
      }
      times.push(performance.now() - t0);
      await sleep(everyMs);
    }
  })();
  return async () => {
    running = false;
    await done;
    const sorted = times.sort((a, b) => a - b);
    sorted.failures = failures;
    return sorted;
  };
}

/** One document request; `abandonMs` aborts it (the client leaves). */
async function ask(url, path, token, abandonMs) {
  const t0 = performance.now();
  const controller = new AbortController();
  const timer = abandonMs ? setTimeout(() => controller.abort(), abandonMs) : undefined;
  try {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  } catch (err) {
    if (controller.signal.aborted) return { status: 'abandoned', ms: performance.now() - t0 };
    return { status: err.cause?.code ?? err.message, ms: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

/** The server idle (no worker busy): waits until a memorando PDF answers fast, at most 10 minutes. */
async function settle(url, path, token) {
  const t0 = performance.now();
  while (performance.now() - t0 < 600_000) {
    const r = await ask(url, path, token);
    if (r.status === 200 && r.ms < 1500) return;
    await sleep(1000);
  }
}

async function storms(url, engine, cotacaoId, rows, server) {
  const prefeitura = async () => {
    const res = await fetch(`${url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'admin', senha: PASSWORD }),
    });
    return (await res.json()).entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
  };
  const entidadeId = await prefeitura();
  const tokens = {};
  for (const login of [...PEOPLE, WATCHER]) tokens[login] = await signIn(url, login, entidadeId);
  const list = '/api/cotacoes/cotacoes?pageSize=20';
  const memorandos = await (await fetch(`${url}/api/memorandos/memorandos?pageSize=1`, { headers: { authorization: `Bearer ${tokens[WATCHER]}` } })).json();
  const memorandoPdf = `/api/memorandos/memorandos/${memorandos.items[0].id}.pdf`;
  const doc = (ext) => `/api/cotacoes/cotacoes/${cotacaoId}/memoria.${ext}`;
  // warm-up: one of each document (the worker started, the statements prepared)
  const warm = {};
  for (const ext of ['pdf', 'xlsx']) {
    const r = await ask(url, doc(ext), tokens.admin);
    if (r.status !== 200) throw new Error(`warm-up memoria.${ext}: ${r.status}`);
    warm[ext] = r.ms;
  }
  const small = await ask(url, memorandoPdf, tokens[WATCHER]);

  const measureWhile = async (label, work) => {
    const stopHealth = probe(url, '/api/health', 50, undefined);
    const stopList = probe(url, list, 200, tokens[WATCHER]);
    const extra = await work();
    const health = await stopHealth();
    const lista = await stopList();
    const failed = [...health.failures, ...lista.failures];
    const notes = [extra.note, failed.length ? `probes failed: ${failed.length} (${[...new Set(failed)].join(', ')})` : undefined].filter(Boolean);
    rows.push({ engine, label, health, lista, ...extra, note: notes.join('; ') || undefined });
    if (server.child.exitCode !== null) throw new Error(`the server stopped during '${label}': ${server.stderr()}`);
  };

  await measureWhile('alone', async () => {
    await sleep(ALONE_MS);
    return { note: `one memória PDF alone: ${ms(warm.pdf)}, one memória XLSX alone: ${ms(warm.xlsx)}, a memorando PDF alone: ${ms(small.ms)}` };
  });

  const scenarios = [
    { ext: 'pdf', people: 1, each: 20 },
    { ext: 'pdf', people: 4, each: 5 },
    { ext: 'pdf', people: 1, each: 20, abandon: ABANDON_MS },
    { ext: 'xlsx', people: 1, each: 20 },
    { ext: 'xlsx', people: 4, each: 5 },
  ];
  for (const s of scenarios) {
    await settle(url, memorandoPdf, tokens[WATCHER]);
    const label = `memória ${s.ext.toUpperCase()}, ${s.people} pessoa${s.people > 1 ? 's' : ''} × ${s.each}${s.abandon ? `, desiste em ${s.abandon / 1000} s` : ''}`;
    await measureWhile(label, async () => {
      const t0 = performance.now();
      const requests = [];
      for (let i = 0; i < s.each; i++) for (const login of PEOPLE.slice(0, s.people)) requests.push(ask(url, doc(s.ext), tokens[login], s.abandon));
      let after;
      if (s.abandon) {
        // another person's small PDF, once the storm's clients have left
        await sleep(s.abandon + 200);
        after = await ask(url, memorandoPdf, tokens[WATCHER]);
      }
      const answers = await Promise.all(requests);
      const count = (status) => answers.filter((a) => a.status === status).length;
      const others = answers.filter((a) => ![200, 429, 'abandoned'].includes(a.status)).map((a) => a.status);
      const ok = answers.filter((a) => a.status === 200);
      return {
        ok: count(200),
        busy: count(429),
        abandoned: count('abandoned'),
        other: answers.length - count(200) - count(429) - count('abandoned'),
        last: ok.length ? Math.max(...ok.map((a) => a.ms)) : undefined,
        total: performance.now() - t0,
        note:
          [
            after ? `another person's memorando PDF asked after the clients left: ${after.status} in ${ms(after.ms)}` : '',
            others.length ? `other answers: ${[...new Set(others)].join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; ') || undefined,
      };
    });
  }
}

export default async function benchStorm(options) {
  const rows = [];
  try {
    await run(options, rows);
  } finally {
    print(rows);
  }
}

async function run({ root, tmp, startServer, stopServer }, rows) {
  let pglite;
  for await (const { engine, database, server, prefeitura, renew, dataDir, databaseUrl } of benchServers({ root, tmp, name: 'storm' })) {
    const alvo = await grow(database, server, prefeitura, await renew(), ITENS);
    await morePeople(database, prefeitura);
    if (databaseUrl) {
      const port = await freePort();
      const started = await startServer(join(tmp, 'bench-storm-unused'), port, { DATABASE_URL: databaseUrl });
      try {
        await storms(`http://127.0.0.1:${port}`, engine, alvo.cotacaoId, rows, started);
      } finally {
        if (started.child.exitCode === null) await stopServer(started.child);
      }
    } else pglite = { engine, dataDir, cotacaoId: alvo.cotacaoId };
  }
  if (pglite) {
    // the embedded database has one process: the built server opens the folder once the in-process one closed it
    const port = await freePort();
    const started = await startServer(pglite.dataDir, port);
    try {
      const before = rows.length;
      await storms(`http://127.0.0.1:${port}`, pglite.engine, pglite.cotacaoId, rows, started);
      rows.unshift(...rows.splice(before));
    } finally {
      if (started.child.exitCode === null) await stopServer(started.child);
    }
  }
}

function print(rows) {
  console.log(`\n## Availability: /api/health and a list alone and during storms of memória documents (built server, ${ITENS} items × 10 suppliers, real HTTP)`);
  console.log('| engine | scenario | health p50 / p95 / max | goal health p95 | list p50 / p95 / max | 200 | 429 | abandoned | other | last document | storm took |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const h95 = pct(r.health, 95);
    const goal = r.label === 'alone' ? '' : `≤ ${GOAL_HEALTH_P95} ms: ${h95 <= GOAL_HEALTH_P95 ? 'OK' : 'OVER'}`;
    const trio = (t) => `${ms(pct(t, 50))} / ${ms(pct(t, 95))} / ${ms(t.at(-1))}`;
    console.log(
      `| ${r.engine} | ${r.label} | ${trio(r.health)} | ${goal} | ${trio(r.lista)} | ${r.ok ?? ''} | ${r.busy ?? ''} | ${r.abandoned ?? ''} | ${r.other ?? ''} | ${r.last === undefined ? '' : ms(r.last)} | ${r.total === undefined ? '' : ms(r.total)} |`,
    );
  }
  for (const r of rows) if (r.note) console.log(`- ${r.engine}, ${r.label}: ${r.note}`);
}
