// The release, end to end, as someone outside this repository gets it:
// 1. a throwaway npm registry on loopback (verdaccio, no uplinks: it serves only what is published);
// 2. on a temporary copy of the repository (the built dist included), the publish step of the root
//    `release` script publishes the framework packages and one plugin (and what it depends on);
// 3. in a fresh folder outside the workspace, a minimal app installs @app/core, @app/ui,
//    @app/server-core and the plugin BY VERSION (@app scope from the local registry, everything else
//    from the npm registry), builds its web half with Vite and starts its server (embedded PGlite);
// 4. in Chromium, admin signs in, the plugin's page shows its title and its rows, and its API
//    answers a GET made with the browser's session token.
// turbo builds the packages first (`//#test:publish` in turbo.json). Run: pnpm test:publish
// (KEEP_PUBLISH_TEST=1 keeps the temporary folder and prints where it is).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../chromium.mjs';
import { startLocalRegistry } from '../lib/local-registry.mjs';
import { ROOT, copyRepository, run, workspacePackages } from '../lib/repo-copy.mjs';

/** The plugin published and installed: its page, that page's title and API, and a row its seed creates. */
const PLUGIN = {
  name: '@app/registros',
  page: '/ggrupo',
  title: 'Grupos de Produto ou Serviço',
  api: '/api/registros/grupos',
  seededRow: 'Material de Expediente',
};
/** What an app installs by version (the docs: core, ui, server-core and the plugin). */
const INSTALLED = ['@app/core', '@app/ui', '@app/server-core', PLUGIN.name];
/** Libraries the app itself imports or must provide as peers, at the ranges of the apps of this repository. */
const WEB_LIBS = ['@tanstack/react-query', 'jotai', 'ky', 'react', 'react-dom', 'wouter', 'zod'];
const SERVER_LIBS = ['@hono/node-server'];

const started = Date.now();
const times = {};
let work;
let registry;
let server;
let browser;
let baseUrl;

async function phase(name, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    times[name] = ((Date.now() - t0) / 1000).toFixed(1);
  }
}

const workspace = () => new Map(workspacePackages(ROOT).map((p) => [p.name, p]));

/** The workspace packages `pnpm --filter <name>...` selects: the package and, transitively, every workspace package it names. */
function withWorkspaceDependencies(name) {
  const all = workspace();
  const selected = new Set();
  const visit = (n) => {
    if (selected.has(n)) return;
    selected.add(n);
    const m = all.get(n).manifest;
    for (const deps of [m.dependencies, m.devDependencies, m.peerDependencies]) {
      for (const dep of Object.keys(deps ?? {})) if (all.has(dep)) visit(dep);
    }
  };
  visit(name);
  return [...selected].sort();
}

/** The `overrides:` block of pnpm-workspace.yaml (versions the npm registry lacks), for the outside app too. */
function overridesBlock() {
  const yaml = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  return yaml.match(/^overrides:\n(?:(?:[ \t]+.*)?\n)*/m)?.[0] ?? '';
}

/** Starts the app's server (PORT=0: a free port) and resolves to its URL once it listens. */
function startApp(appDir, dataDir) {
  const env = { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production' };
  const child = spawn(process.execPath, ['server.mjs'], { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start in 120 s:\n${log}`)), 120_000);
    const onData = (chunk) => {
      log += chunk;
      const match = log.match(/LISTENING=(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code}) before listening:\n${log}`));
    });
  });
  return { url, stop, log: () => log };
}

describe('release: publish to a local registry, install by version outside the workspace, run', () => {
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'compras-publish-'));
    assert.ok(!realpathSync(work).startsWith(realpathSync(ROOT) + sep), `${work} is outside the workspace`);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await registry?.stop();
    if (work && process.env.KEEP_PUBLISH_TEST) console.log(`kept ${work}`);
    else if (work) rmSync(work, { recursive: true, force: true });
    const phases = Object.entries(times)
      .map(([name, s]) => `${name} ${s} s`)
      .join(', ');
    console.log(`publish-install test: ${((Date.now() - started) / 1000).toFixed(1)} s (${phases})`);
  });

  it('the publish step of `pnpm release` publishes the framework packages and the plugin', async () => {
    const published = withWorkspaceDependencies(PLUGIN.name);
    for (const name of INSTALLED) assert.ok(published.includes(name), `${name} is published with ${PLUGIN.name}`);

    registry = await phase('registry', () => startLocalRegistry(join(work, 'registry')));
    const copy = join(work, 'repo');
    await phase('copy', () => {
      mkdirSync(copy);
      copyRepository(copy, { dists: published });
      // the registry's credentials for this copy only (never the user's ~/.npmrc)
      writeFileSync(join(copy, '.npmrc'), `//${registry.host}/:_authToken=${registry.token}\n`);
    });

    // `release` = build (done: turbo ran the builds this test depends on) && the publish command
    const release = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.release;
    const [build, publish, ...rest] = release.split('&&').map((s) => s.trim());
    assert.match(build ?? '', /^turbo run build\b/, `release starts with the build: ${release}`);
    assert.match(publish ?? '', /^pnpm publish -r\b/, `then publishes every package: ${release}`);
    assert.deepEqual(rest, [], `release is build && publish: ${release}`);
    const { output } = await phase('publish', () =>
      run('sh', ['-c', `${publish} --filter '${PLUGIN.name}...' --registry ${registry.url} --no-git-checks`], copy, { timeout: 180_000 }),
    );

    const all = workspace();
    for (const [name, pkg] of all) {
      const res = await fetch(`${registry.url}${name.replace('/', '%2f')}`);
      if (!published.includes(name)) {
        assert.equal(res.status, 404, `${name} was not published`);
        continue;
      }
      assert.equal(res.status, 200, `${name} is in the registry:\n${output.slice(-3000)}`);
      const manifest = (await res.json()).versions?.[pkg.version];
      assert.ok(manifest, `${name}@${pkg.version} is in the registry`);
      const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
      for (const [dep, range] of Object.entries(ranges)) assert.doesNotMatch(range, /^workspace:/, `${name} → ${dep}: ${range}`);
      for (const [dep, range] of Object.entries(ranges)) {
        if (all.has(dep)) assert.equal(range, `^${all.get(dep).version}`, `${name} → ${dep} published as a caret range`);
      }
    }
  });

  it('an app outside the workspace installs them by version, builds its web half and starts', async () => {
    assert.ok(registry, 'published');
    const app = join(work, 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    const all = workspace();
    const web = JSON.parse(readFileSync(join(ROOT, 'apps/web/package.json'), 'utf8'));
    const srv = JSON.parse(readFileSync(join(ROOT, 'apps/server/package.json'), 'utf8'));
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const dependencies = Object.fromEntries([
      ...INSTALLED.map((name) => [name, all.get(name).version]),
      ...WEB_LIBS.map((name) => [name, web.dependencies[name]]),
      ...SERVER_LIBS.map((name) => [name, srv.dependencies[name]]),
    ]);
    for (const [name, range] of Object.entries(dependencies)) assert.ok(range, `${name} has a version`);
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify(
        {
          name: 'compras-fora-do-monorepo',
          private: true,
          type: 'module',
          scripts: { typecheck: 'tsc -p tsconfig.json', build: 'vite build', start: 'node server.mjs' },
          dependencies,
          devDependencies: {
            vite: web.devDependencies.vite,
            typescript: root.devDependencies.typescript,
            '@types/node': srv.devDependencies['@types/node'],
            '@types/react': web.devDependencies['@types/react'],
            '@types/react-dom': web.devDependencies['@types/react-dom'],
          },
        },
        null,
        2,
      )}\n`,
    );
    // @app/* from the local registry, everything else from the npm registry
    writeFileSync(join(app, '.npmrc'), `@app:registry=${registry.url}\n`);
    // versions published a minute ago are younger than pnpm's minimumReleaseAge
    writeFileSync(join(app, 'pnpm-workspace.yaml'), `minimumReleaseAgeExclude:\n  - '@app/*'\n${overridesBlock()}`);
    // the app's code is checked against the published declarations, and those declarations too
    writeFileSync(
      join(app, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM', 'DOM.Iterable'],
            types: ['node', 'vite/client'],
            strict: true,
            allowJs: true,
            checkJs: true,
            noEmit: true,
            skipLibCheck: false,
          },
          include: ['src', 'server.mjs'],
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html>
<html lang="pt-BR">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Compras</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.js"></script>
  </body>
</html>
`,
    );
    writeFileSync(
      join(app, 'src/main.js'),
      `import '@app/ui/styles.css';
import { createApp } from '@app/core';
import plugin from '${PLUGIN.name}';

createApp({ plugins: [plugin], production: true });
`,
    );
    writeFileSync(
      join(app, 'server.mjs'),
      `import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createServer } from '@app/server-core';
import plugin from '${PLUGIN.name}/server';

const server = await createServer({
  plugins: [plugin],
  webDist: fileURLToPath(new URL('./dist/', import.meta.url)),
  dataDir: process.env.DATA_DIR || '.data',
});
const http = /** @type {import('node:http').Server} */ (
  serve({ fetch: server.app.fetch, port: Number(process.env.PORT || 3000), hostname: '127.0.0.1' }, (info) => {
    console.log(\`LISTENING=\${info.port}\`);
  })
);
process.once('SIGTERM', () => {
  http.close(() => server.close().then(() => process.exit(0)));
  http.closeAllConnections();
});
`,
    );

    await phase('install', () => run('pnpm', ['install', '--prefer-offline'], app, { timeout: 300_000 }));
    for (const name of INSTALLED) {
      const dir = join(app, 'node_modules', ...name.split('/'));
      const real = realpathSync(dir);
      assert.ok(
        !real.startsWith(realpathSync(ROOT) + sep) && !real.startsWith(realpathSync(join(work, 'repo')) + sep),
        `${name} is installed from the registry (${real})`,
      );
      assert.equal(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version, all.get(name).version, `${name} at the published version`);
    }
    await phase('typecheck', () => {
      const { status, output } = run('pnpm', ['run', 'typecheck'], app, { allowFail: true, timeout: 300_000 });
      const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
      assert.ok(status === 0 || errors.length > 0, `tsc did not run:\n${output.slice(-4000)}`);
      // errors inside third-party declarations (drizzle-orm's other dialects, …) are not this repository's
      const ours = errors.filter((line) => !/node_modules\/\.pnpm\/(?!@app\+)/.test(line));
      assert.deepEqual(ours, [], `the app and the published declarations typecheck:\n${output.slice(-4000)}`);
    });
    await phase('build', () => run('pnpm', ['run', 'build'], app, { timeout: 300_000 }));
    assert.ok(existsSync(join(app, 'dist', 'index.html')), 'vite build wrote dist/index.html');

    server = startApp(app, join(work, 'data'));
    baseUrl = await phase('start', () => server.url);
    const health = await fetch(`${baseUrl}/api/health`);
    assert.equal(health.status, 200, await health.text());
    assert.match(server.log(), new RegExp(`migração aplicada: ${PLUGIN.name.replace('@app/', '')}/`), 'the plugin shipped its migrations');
    const anonymous = await fetch(`${baseUrl}${PLUGIN.api}`);
    assert.equal(anonymous.status, 401, 'the plugin API asks for a session');
  });

  it("in Chromium, admin signs in, the plugin's page renders its title and rows, and its API answers with the session token", async () => {
    assert.ok(baseUrl, 'the app is running');
    await phase('browser', async () => {
      browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
      const page = await browser.newPage({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      page.setDefaultTimeout(30_000);
      const problems = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('response', (res) => {
        const { pathname } = new URL(res.url());
        if (res.status() >= 500 || (res.status() >= 400 && !pathname.startsWith('/api/'))) problems.push(`${res.status()} ${pathname}`);
      });

      await page.goto(`${baseUrl}/signin`);
      await page.getByLabel('Login').fill('admin');
      await page.getByLabel('Senha', { exact: true }).fill('demo1234');
      await page.getByRole('button', { name: 'Entrar' }).click();
      // admin works in two entidades: the picker asks which one
      const picker = page.getByTestId('entidade-form');
      const menu = page.getByRole('navigation', { name: 'Menu principal' });
      await picker.or(menu).first().waitFor();
      if (await picker.isVisible()) {
        await picker.getByRole('radio', { name: /^Prefeitura/ }).check();
        await picker.getByRole('button', { name: 'Continuar' }).click();
      }
      await menu.waitFor();

      const listed = page.waitForResponse((res) => new URL(res.url()).pathname === PLUGIN.api && res.request().method() === 'GET');
      await menu.getByRole('link', { name: PLUGIN.title, exact: true }).click();
      const response = await listed;
      assert.equal(response.status(), 200, `GET ${PLUGIN.api} from the page`);
      await page.getByRole('heading', { level: 1, name: PLUGIN.title }).waitFor();
      assert.equal(new URL(page.url()).pathname, PLUGIN.page);
      await page.getByText(PLUGIN.seededRow, { exact: true }).first().waitFor();

      // the API answers a GET with the browser's session token
      const authorization = response.request().headers().authorization;
      assert.match(authorization ?? '', /^Bearer \S+$/, 'the page sends its session token');
      const res = await fetch(`${baseUrl}${PLUGIN.api}?q=${encodeURIComponent(PLUGIN.seededRow)}`, { headers: { authorization } });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.ok(
        body.items.some((item) => item.nome === PLUGIN.seededRow),
        JSON.stringify(body).slice(0, 500),
      );
      assert.deepEqual(problems, [], 'no page error, no missing file, no 5xx');
    });
  });
});
