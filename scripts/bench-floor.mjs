// pnpm bench, part 4 (issue 23): the fixed cost of one request, against a floor. An authenticated
// product list whose SQL returns nothing (`?ativo=false`), served over HTTP by the product, next to a
// minimal Hono app on the same Node HTTP server that verifies a JWT (HS256, hono/jwt) and runs the
// very same statements (recorded from the product's request) through the same driver. The load
// comes from a worker thread (its own event loop), one client at a time and then 10 at once.
// Printed per engine: p50/p95 of both and the product's overhead over the floor (goal: ≤ 1 ms at p50,
// ≤ 2 ms at p95 on PostgreSQL), and the requests per second at c = 10 as a ratio (goal ≥ 50 %).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { benchServers, fmt, freePort, pct, record, sqlText } from './lib/bench-server.mjs';

const SEQUENTIAL = Number(process.env.BENCH_RUNS) || 300;
const SECONDS = Number(process.env.BENCH_FLOOR_SECONDS) || 5;
const QUERY = 'ativo=false';

// The load generator: `runs` requests one after the other (latencies), then `concurrency` clients for
// `seconds` (requests per second), with fetch's keep-alive connections.
const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, runs, concurrency, seconds } = workerData;
const get = async () => {
  const res = await fetch(url, { headers: { authorization: 'Bearer ' + token } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(url + ': ' + res.status);
};
(async () => {
  for (let i = 0; i < 30; i++) await get(); // warm-up
  const times = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await get();
    times.push(performance.now() - s);
  }
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      await get();
      done++;
    }
  }));
  parentPort.postMessage({ times: times.sort((a, b) => a - b), rps: done / ((performance.now() - t0) / 1000) });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

function load(workerData) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD, { eval: true, workerData });
    worker.once('message', (m) => {
      void worker.terminate();
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
  });
}

export default async function benchFloor({ root, tmp }) {
  // server-core's own copies of Hono and its Node server (the root lists neither)
  const fromServerCore = createRequire(join(root, 'packages', 'server-core', 'package.json'));
  const { serve } = fromServerCore('@hono/node-server');
  const { Hono } = fromServerCore('hono');
  const { sign, verify } = fromServerCore('hono/jwt');
  const listen = (fetch) =>
    freePort().then(
      (port) =>
        new Promise((resolve) => {
          const http = serve({ fetch, port, hostname: '127.0.0.1' }, () => resolve({ http, port }));
        }),
    );

  console.log(`\n## Fixed cost of a request (issue 23): the product's empty product list vs a minimal Hono app (JWT + the same SQL), over HTTP`);
  console.log(`(${SEQUENTIAL} sequential requests, then 10 clients for ${SECONDS} s; load from a worker thread)`);
  console.log('| engine | app | p50 | p95 | req/s at c = 10 |\n|---|---|---|---|---|');
  const summary = [];
  for await (const { engine, database, server, token } of benchServers({ root, tmp, name: 'floor' })) {
    // the statements of the product's request that touch produtos (its session and permission lookups
    // are part of what the product adds)
    const recorder = record(database);
    recorder.start();
    const check = await server.app.request(`/api/produtos/produtos?${QUERY}`, { headers: { authorization: `Bearer ${token}` } });
    if (check.status !== 200) throw new Error(`${QUERY}: ${check.status} ${await check.text()}`);
    const units = recorder.stop().filter((u) => u.statements.some((a) => /produtos/.test(sqlText(a))));
    const body = await check.text();

    const secret = 'bench-floor-secret-of-32-characters!';
    const minimal = new Hono();
    minimal.get('/min', async (c) => {
      const auth = c.req.header('authorization') ?? '';
      try {
        await verify(auth.slice('Bearer '.length), secret, 'HS256');
      } catch {
        return c.json({ error: 'token' }, 401);
      }
      for (const unit of units) await recorder.replay(unit);
      return c.body(body, 200, { 'content-type': 'application/json' });
    });
    const minimalToken = await sign({ sub: 'bench', exp: Math.floor(Date.now() / 1000) + 3600 }, secret, 'HS256');

    const product = await listen(server.app.fetch);
    const floor = await listen(minimal.fetch);
    try {
      const common = { runs: SEQUENTIAL, concurrency: 10, seconds: SECONDS };
      const f = await load({ ...common, url: `http://127.0.0.1:${floor.port}/min`, token: minimalToken });
      const p = await load({ ...common, url: `http://127.0.0.1:${product.port}/api/produtos/produtos?${QUERY}`, token });
      console.log(`| ${engine} | minimal Hono (floor) | ${fmt(pct(f.times, 50))} | ${fmt(pct(f.times, 95))} | ${f.rps.toFixed(0)} |`);
      console.log(`| ${engine} | product | ${fmt(pct(p.times, 50))} | ${fmt(pct(p.times, 95))} | ${p.rps.toFixed(0)} |`);
      const over50 = pct(p.times, 50) - pct(f.times, 50);
      const over95 = pct(p.times, 95) - pct(f.times, 95);
      const ratio = p.rps / f.rps;
      const pg = engine === 'PostgreSQL';
      summary.push(
        `- ${engine}: overhead p50 +${over50.toFixed(2)} ms${pg ? ` (goal ≤ 1 ms) ${over50 <= 1 ? 'OK' : 'OVER'}` : ''}, p95 +${over95.toFixed(2)} ms${pg ? ` (goal ≤ 2 ms) ${over95 <= 2 ? 'OK' : 'OVER'}` : ''}; req/s at c = 10: ${(ratio * 100).toFixed(0)} % of the floor (goal ≥ 50 %) ${ratio >= 0.5 ? 'OK' : 'UNDER'}`,
      );
    } finally {
      recorder.restore();
      await new Promise((r) => product.http.close(r));
      await new Promise((r) => floor.http.close(r));
    }
  }
  for (const line of summary) console.log(line);
}
