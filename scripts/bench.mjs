// pnpm bench: the figures the issues ask for, measured in one run on this machine (not part of the tests).
//  1. JS bytes (gzip, brotli) the sign-in page loads, next to a bare React 19 + wouter page built now; and no
//     chart chunk (Apache ECharts, the analysis pages' own) among them (issue 22).
//  2. Bytes each plugin adds to the first page (entry graph with and without the plugin).
//  3. Time from process start to the first 200 of /api/health on the embedded database (first run and restart).
//  4. List endpoint latency when a list benchmark is registered (scripts/bench-*.mjs).
//  5. Menu click → first row of /requisicao painted, in Chromium, on an idle embedded server; the cold load's
//     time to the first row and the JS it transferred until then (issue 23: ≤ 200 KB, encoded bytes).
// BENCH_ONLY=pages,navigation,lists (comma list of 'pages' for 1–3, 'first-page' for 1, 'navigation' for 5 (menu click and cold load) and bench-<name>) runs only those parts.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';
import { signInInBrowser } from './lib/bench-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'apps', 'web');
const requireWeb = createRequire(join(webDir, 'package.json'));
const importWeb = (name) => import(pathToFileURL(requireWeb.resolve(name)).href);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const br = (buf) => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tmp = mkdtempSync(join(tmpdir(), 'compras-bench-'));
const results = [];

// BENCH_NO_BUILD=1 measures the builds as they are (e.g. a run on the code before a change)
if (!process.env.BENCH_NO_BUILD) console.log('building (turbo, cached when nothing changed)…');
if (!process.env.BENCH_NO_BUILD)
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', '--filter=@app/web', '--filter=@app/server'], {
  cwd: root,
  stdio: 'inherit',
});

// ---------- static file server for a built folder ----------
const TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css', '.svg': 'image/svg+xml' };
function serveStatic(dir) {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      let file = join(dir, path);
      if (!existsSync(file) || path === '/' || !extname(path)) file = join(dir, 'index.html');
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------- server process ----------
// `env` adds to (or overrides) the server's environment, e.g. { DATABASE_URL } to run it on PostgreSQL
async function startServer(dataDir, port, env = {}) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'apps', 'server', 'dist', 'cli.js'), 'start'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // what it says on stderr, kept (the last 4 KB) for the error when it exits during start
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4096);
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start: ${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return { child, ms: performance.now() - t0, stderr: () => stderr };
    } catch {}
    await sleep(10);
  }
}
const stopServer = (child) =>
  new Promise((r) => {
    child.once('exit', r);
    child.kill('SIGTERM');
  });

// ---------- JS a page loads, in a real Chromium ----------
/** Does this script hold Apache ECharts (its chunk by name, or its core by an API name it keeps when minified)? */
const isECharts = (url, body) => /echarts/i.test(new URL(url).pathname) || body.includes('registerPreprocessor');

async function pageScripts(browser, url, ready) {
  const page = await browser.newPage();
  const bodies = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') bodies.push(res.body().then((body) => ({ url: res.url(), body }), () => ({ url: res.url(), body: Buffer.alloc(0) })));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole(ready.role, { name: ready.name }).waitFor();
  const scripts = await Promise.all(bodies);
  const bufs = scripts.map((s) => s.body);
  await page.close();
  const all = Buffer.concat(bufs);
  return {
    files: bufs.length,
    raw: all.length,
    gzip: bufs.reduce((a, b) => a + gz(b), 0),
    brotli: bufs.reduce((a, b) => a + br(b), 0),
    // the chart chunk must not touch the first page (issue 22)
    echarts: scripts.filter((s) => isECharts(s.url, s.body)).map((s) => new URL(s.url).pathname),
  };
}

// BENCH_ONLY=lists,memorandos runs only those scripts/bench-<name>.mjs (parts 1–3 with 'pages').
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const want = (name) => !only || only.includes(name);
// BENCH_ONLY=first-page: part 1 alone (the sign-in page against the bare page, and no chart chunk on it)
if (want('pages') || want('first-page')) {
  // 1. sign-in page vs bare page
  const { build } = await importWeb('vite');
  const react = (await importWeb('@vitejs/plugin-react')).default;
  const bareOut = join(tmp, 'bare');
  await build({ root: join(webDir, 'bench', 'bare'), logLevel: 'silent', plugins: [react()], build: { outDir: bareOut, emptyOutDir: true } });

  const playwright = await importWeb('@playwright/test');
  const { chromium } = playwright.chromium ? playwright : playwright.default; // CommonJS package
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const port = 4390;
  const server = await startServer(join(tmp, 'data-size'), port);
  const signin = await pageScripts(browser, `http://127.0.0.1:${port}/signin`, { role: 'button', name: 'Entrar' });
  await stopServer(server.child);
  const bareServer = await serveStatic(bareOut);
  const bare = await pageScripts(browser, `http://127.0.0.1:${bareServer.address().port}/signin`, { role: 'button', name: 'Entrar' });
  bareServer.close();
  await browser.close();

  console.log('\n## First page JS (sign-in), measured in Chromium');
  console.log(`| page | files | raw | gzip | brotli |\n|---|---|---|---|---|`);
  console.log(`| Compras /signin | ${signin.files} | ${kb(signin.raw)} | ${kb(signin.gzip)} | ${kb(signin.brotli)} |`);
  console.log(`| bare React 19 + wouter | ${bare.files} | ${kb(bare.raw)} | ${kb(bare.gzip)} | ${kb(bare.brotli)} |`);
  const ratio = signin.gzip / bare.gzip;
  console.log(`ratio (gzip): ${ratio.toFixed(2)}× (goal ≤ 1.5×) ${ratio <= 1.5 ? 'OK' : 'OVER'}; brotli ${(signin.brotli / bare.brotli).toFixed(2)}×`);
  results.push(['signin/bare gzip ratio', ratio.toFixed(2)]);
  // issue 22: the chart chunk (Apache ECharts, loaded by the analysis pages only) is in the build but not on the sign-in page
  const assets = join(webDir, 'dist', 'assets');
  const chartChunks = readdirSync(assets).filter((f) => f.endsWith('.js') && isECharts(`http://x/assets/${f}`, readFileSync(join(assets, f))));
  if (chartChunks.length === 0) throw new Error('bench: no ECharts chunk in apps/web/dist/assets (the check below would prove nothing)');
  const chartKb = chartChunks.reduce((a, f) => a + gz(readFileSync(join(assets, f))), 0);
  console.log(
    `chart chunk (ECharts: ${chartChunks.join(', ')}, ${kb(chartKb)} gzip) loaded by the sign-in page: ${signin.echarts.length ? `YES (${signin.echarts.join(', ')}) OVER` : 'no OK'}`,
  );
  if (signin.echarts.length) process.exitCode = 1;
  results.push(['ECharts scripts on the sign-in page', signin.echarts.length]);
}
if (want('pages')) {
  const { build } = await importWeb('vite');
  // 2. bytes each plugin adds to the first page: entry graph (entry + modulepreload) with and without it.
  const pluginsFile = join(webDir, 'src', 'plugins.ts');
  const pluginsSource = readFileSync(pluginsFile, 'utf8');
  const pluginImports = [...pluginsSource.matchAll(/^import\s+(\w+)\s+from\s+'(@app\/[^']+)';$/gm)].map((m) => ({ name: m[1], pkg: m[2] }));
  function entryGraphGzip(outDir) {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    return files.reduce((a, f) => a + gz(readFileSync(join(outDir, f))), 0);
  }
  async function buildWebWithout(omit) {
    const outDir = join(tmp, `web-${omit ?? 'all'}`);
    await build({
      root: webDir,
      configFile: join(webDir, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
      plugins: [
        {
          name: 'bench-omit-plugin',
          enforce: 'pre',
          transform(code, id) {
            if (!omit || id !== pluginsFile) return null;
            const { name, pkg } = pluginImports.find((p) => p.name === omit);
            return code
              .replace(`import ${name} from '${pkg}';\n`, '')
              .replace(new RegExp(`\\b${name}\\b,?\\s*`), '');
          },
        },
      ],
    });
    return entryGraphGzip(outDir);
  }
  const withAll = await buildWebWithout(undefined);
  console.log('\n## Bytes each plugin adds to the first page (entry graph, gzip)');
  console.log('| plugin | adds | goal ≤ 1.5 KB |\n|---|---|---|');
  for (const p of pluginImports) {
    const without = await buildWebWithout(p.name);
    const added = withAll - without;
    console.log(`| ${p.pkg} | ${(added / 1024).toFixed(2)} KB | ${added <= 1536 ? 'OK' : 'OVER'} |`);
    results.push([`${p.pkg} first-page bytes`, added]);
  }

  // 3. cold start on the embedded database
  console.log('\n## Cold start: process start → first 200 of /api/health (embedded PGlite)');
  const startDir = join(tmp, 'data-start');
  const startPort = 4391;
  const first = await startServer(startDir, startPort);
  await stopServer(first.child);
  const restarts = [];
  for (let i = 0; i < 3; i++) {
    const s = await startServer(startDir, startPort);
    restarts.push(s.ms);
    await stopServer(s.child);
  }
  restarts.sort((a, b) => a - b);
  console.log(`first run (create, migrate, seed): ${first.ms.toFixed(0)} ms`);
  console.log(`restart (median of 3): ${restarts[1].toFixed(0)} ms (goal ≤ 3000 ms) ${restarts[1] <= 3000 ? 'OK' : 'OVER'}`);
}

// 5. menu click → first row of /requisicao (issue 23: the list's data starts with its chunk, no forced fallback)
if (want('navigation')) {
  const playwright = await importWeb('@playwright/test');
  const { chromium } = playwright.chromium ? playwright : playwright.default; // CommonJS package
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const port = 4392;
  const server = await startServer(join(tmp, 'data-nav'), port);
  const origin = `http://127.0.0.1:${port}`;
  try {
    const page = await browser.newPage();
    const menu = await signInInBrowser(page, origin);
    const times = [];
    for (let i = 0; i < 7; i++) {
      // a fresh load of the home page, left idle (what it preloads when idle, it preloads), then the click
      await page.goto(`${origin}/`);
      await menu.waitFor();
      await page.waitForLoadState('networkidle');
      const ms = await page.evaluate(
        () =>
          new Promise((resolve, reject) => {
            const link = document.querySelector('nav[aria-label="Menu principal"] a[href="/requisicao"]');
            if (!link) return reject(new Error('no menu entry /requisicao'));
            const t0 = performance.now();
            // a real row: it has its Editar/Abrir link (the empty or loading table has none)
            const done = () => location.pathname === '/requisicao' && document.querySelector('[data-testid="resource-list"] tbody tr a[href*="/edit/"]');
            const observer = new MutationObserver(() => {
              if (!done()) return;
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - t0)); // painted
            });
            observer.observe(document.body, { childList: true, subtree: true });
            link.click();
          }),
      );
      times.push(ms);
    }
    // cold load of a list's address: a new browser context (empty HTTP cache) holding the session's
    // token, from the navigation's start to the first row painted
    const storageState = await page.context().storageState();
    await page.close();
    const cold = [];
    const coldJs = []; // per run: the JS files complete when the first row is painted
    for (let i = 0; i < 7; i++) {
      const context = await browser.newContext({ storageState });
      const fresh = await context.newPage();
      // the encoding each JS answer came in (br/gzip), for the printout
      const encodings = new Map();
      fresh.on('response', (res) => {
        if (new URL(res.url()).pathname.endsWith('.js')) encodings.set(res.url(), res.headers()['content-encoding'] ?? 'identity');
      });
      await fresh.addInitScript(() => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="resource-list"] tbody tr a[href*="/edit/"]')) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            window.__firstRow = performance.now(); // from the navigation's start (timeOrigin)
            // the JS answers complete by then (Resource Timing: encodedBodySize = the body as sent,
            // compressed, without headers; what is still in flight is not needed for the row)
            window.__firstRowJs = performance
              .getEntriesByType('resource')
              .filter((e) => new URL(e.name).pathname.endsWith('.js') && e.responseEnd <= window.__firstRow)
              .map((e) => ({ url: e.name, bytes: e.encodedBodySize, transfer: e.transferSize }));
          });
        });
        observer.observe(document, { childList: true, subtree: true });
      });
      await fresh.goto(`${origin}/requisicao`);
      await fresh.waitForFunction(() => window.__firstRow !== undefined);
      cold.push(await fresh.evaluate(() => window.__firstRow));
      const js = await fresh.evaluate(() => window.__firstRowJs);
      coldJs.push(js.map((f) => ({ ...f, encoding: encodings.get(f.url) ?? '?' })));
      await context.close();
    }
    times.sort((a, b) => a - b);
    cold.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    const coldMedian = cold[Math.floor(cold.length / 2)];
    console.log('\n## Menu click → first row of /requisicao painted (Chromium, idle embedded server, 7 runs)');
    console.log(`runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    console.log(`median: ${median.toFixed(0)} ms (goal ≤ 250 ms) ${median <= 250 ? 'OK' : 'OVER'}`);
    console.log('\n## Cold load of /requisicao (empty cache, signed in) → first row painted (7 runs)');
    console.log(`runs: ${cold.map((t) => t.toFixed(0)).join(', ')} ms`);
    console.log(`median: ${coldMedian.toFixed(0)} ms (goal ≤ 600 ms) ${coldMedian <= 600 ? 'OK' : 'OVER'}`);
    // JS transferred by the cold load up to the first row (issue 23: ≤ 200 KB); the run with the most
    // bytes (the runs differ only when a chunk the row does not need happens to finish before it)
    const jsRuns = coldJs.map((files) => ({ files, bytes: files.reduce((a, f) => a + f.bytes, 0), transfer: files.reduce((a, f) => a + f.transfer, 0) }));
    const jsMax = jsRuns.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const jsEncodings = [...new Set(jsMax.files.map((f) => f.encoding))].join('/');
    console.log('\n## JS transferred by the cold load of /requisicao up to the first row (Resource Timing encodedBodySize: compressed body as sent, no headers)');
    console.log(`runs: ${jsRuns.map((r) => `${r.files.length} files ${kb(r.bytes)}`).join(', ')}`);
    for (const f of [...jsMax.files].sort((a, b) => b.bytes - a.bytes)) console.log(`  ${kb(f.bytes).padStart(9)}  ${new URL(f.url).pathname.replace(/^\/assets\//, '')}`);
    console.log(
      `largest run: ${jsMax.files.length} files, ${kb(jsMax.bytes)} (${jsEncodings}; ${kb(jsMax.transfer)} with headers) (goal ≤ 200 KB) ${jsMax.bytes <= 200 * 1024 ? 'OK' : 'OVER'}`,
    );
    results.push(['menu click → first row (median ms)', Math.round(median)]);
    results.push(['cold load → first row (median ms)', Math.round(coldMedian)]);
    results.push(['cold load → first row JS files', jsMax.files.length]);
    results.push(['cold load → first row JS bytes (encoded)', jsMax.bytes]);
  } finally {
    await browser.close();
    await stopServer(server.child);
  }
}

// 4. further benchmarks registered by plugins/features: scripts/bench-*.mjs export default async ({ root, tmp })
for (const f of readdirSync(join(root, 'scripts')).filter((f) => /^bench-.+\.mjs$/.test(f) && want(f.slice(6, -4))).sort()) {
  const mod = await import(pathToFileURL(join(root, 'scripts', f)).href);
  await mod.default({ root, tmp, startServer, stopServer });
}

rmSync(tmp, { recursive: true, force: true });
