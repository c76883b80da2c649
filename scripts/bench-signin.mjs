// pnpm bench, part 4 (issue 8): does a storm of sign-ins slow down signed-in users? The built server
// (apps/server/dist/cli.js, embedded PGlite, TRUST_PROXY=1) in its own process; p95 of an
// authenticated list request (GET /api/produtos/produtos) alone, then while waves of 100 parallel
// sign-ins with distinct unknown logins from distinct addresses (X-Forwarded-For) run: each would cost
// a 128 MiB scrypt if nothing bounded them (before issue 8: 34 ms → 9.9 s). Goal: ratio ≤ 2×.
// Standalone: node scripts/bench-signin.mjs (BENCH_RUNS sets the number of list requests, default 150).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS) || 150;
const STORM = 100;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function start(root, dataDir, port) {
  const child = spawn(process.execPath, [join(root, 'apps', 'server', 'dist', 'cli.js'), 'start'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', TRUST_PROXY: '1', PUBLIC_URL: '' },
    stdio: 'ignore',
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return child;
    } catch {}
    await sleep(20);
  }
}

const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

export default async function benchSignin({ root, tmp }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await start(root, join(tmp, 'bench-signin'), port);
  try {
    const post = (path, body, headers = {}) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const admin = async (entidadeId) => (await post('/api/auth/signin', { login: 'admin', senha: 'demo1234', entidadeId }, { 'x-forwarded-for': '10.255.0.1' })).json();
    const prefeitura = (await admin()).entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
    const { token } = await admin(prefeitura);
    const list = async () => {
      const res = await fetch(`${base}/api/produtos/produtos?sort=descricao`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
      await res.arrayBuffer();
    };
    const measure = async () => {
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now();
        await list();
        times.push(performance.now() - s);
      }
      return times.sort((a, b) => a - b);
    };

    for (let i = 0; i < 20; i++) await list(); // warm-up
    const alone = await measure();

    // waves of 100 parallel sign-ins, distinct unknown logins and addresses, until the list is measured
    let running = true;
    let n = 0;
    const statuses = {};
    const signinTimes = [];
    const storm = (async () => {
      while (running) {
        await Promise.all(
          Array.from({ length: STORM }, async () => {
            const i = n++;
            const s = performance.now();
            const res = await post(
              '/api/auth/signin',
              { login: `desconhecido-${i}`, senha: 'senha-errada-qualquer' },
              { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
            );
            await res.arrayBuffer();
            signinTimes.push(performance.now() - s);
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          }),
        );
      }
    })();
    await sleep(300); // the first wave is in
    const busy = await measure();
    running = false;
    await storm;
    signinTimes.sort((a, b) => a - b);
    // alone again: on a shared machine the baseline itself moves; both are printed
    const after = await measure();

    const ratio = pct(busy, 95) / pct(alone, 95);
    console.log('\n## Sign-in storm vs signed-in users (issue 8): GET /api/produtos/produtos, embedded PGlite, HTTP');
    console.log('| list request | p50 | p95 | max |\n|---|---|---|---|');
    console.log(`| alone (${RUNS} sequential) | ${fmt(pct(alone, 50))} | ${fmt(pct(alone, 95))} | ${fmt(alone.at(-1))} |`);
    console.log(`| during waves of ${STORM} parallel unknown-login sign-ins | ${fmt(pct(busy, 50))} | ${fmt(pct(busy, 95))} | ${fmt(busy.at(-1))} |`);
    console.log(`| alone again, after the storm | ${fmt(pct(after, 50))} | ${fmt(pct(after, 95))} | ${fmt(after.at(-1))} |`);
    console.log(`ratio p95 (storm / alone before): ${ratio.toFixed(2)}× (goal ≤ 2×) ${ratio <= 2 ? 'OK' : 'OVER'}; vs alone after: ${(pct(busy, 95) / pct(after, 95)).toFixed(2)}×`);
    const answered = Object.entries(statuses)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ');
    console.log(`sign-ins during the measurement: ${n} (${answered}); sign-in p50 ${fmt(pct(signinTimes, 50))}, p95 ${fmt(pct(signinTimes, 95))}`);
    return { alone: pct(alone, 95), busy: pct(busy, 95), ratio };
  } finally {
    await stop(child);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const tmp = mkdtempSync(join(tmpdir(), 'compras-bench-signin-'));
  try {
    await benchSignin({ root, tmp });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
