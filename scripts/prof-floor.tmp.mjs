import { Worker } from 'node:worker_threads';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchServers, freePort } from './lib/bench-server.mjs';
import { createRequire } from 'node:module';
const root = process.cwd();
const fromServerCore = createRequire(join(root, 'packages', 'server-core', 'package.json'));
const { serve } = fromServerCore('@hono/node-server');
const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, seconds } = workerData;
const get = async () => { const res = await fetch(url, { headers: { authorization: 'Bearer ' + token } }); await res.arrayBuffer(); if (res.status !== 200) throw new Error(res.status); };
(async () => { for (let i = 0; i < 200; i++) await get(); parentPort.postMessage('warm'); let done = 0; const end = performance.now() + seconds * 1000; const t0 = performance.now();
await Promise.all(Array.from({ length: 10 }, async () => { while (performance.now() < end) { await get(); done++; } }));
parentPort.postMessage({ rps: done / ((performance.now() - t0) / 1000) }); })().catch((e) => parentPort.postMessage({ error: String(e) }));`;
const tmp = join(tmpdir(), 'prof-floor'); 
for await (const { engine, server, token } of benchServers({ root, tmp, name: 'proffloor' })) {
  if (engine !== 'PostgreSQL') continue;
  const port = await freePort();
  const http = await new Promise((r) => { const h = serve({ fetch: server.app.fetch, port, hostname: '127.0.0.1' }, () => r(h)); });
  const session = new Session(); session.connect();
  await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await new Promise((resolve, reject) => {
    const w = new Worker(LOAD, { eval: true, workerData: { url: `http://127.0.0.1:${port}/api/produtos/produtos?ativo=false`, token, seconds: Number(process.env.SECS || 8) } });
    w.on('message', async (m) => { if (m === 'warm') { await session.post('Profiler.start'); return; } if (m.error) reject(new Error(m.error)); console.log('rps', m.rps); resolve(); void w.terminate(); });
  });
  const { profile } = await session.post('Profiler.stop');
  writeFileSync('/tmp/prof/floor.cpuprofile', JSON.stringify(profile));
  await new Promise((r) => http.close(r));
}
process.exit(0);
