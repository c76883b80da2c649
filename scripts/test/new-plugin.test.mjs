// `pnpm new:plugin` end to end, on a temporary copy of the repository: generate a registry plugin and
// a document plugin (--document), link them (one pnpm install --prefer-offline: the store already has every
// dependency), then run what each generated package declares (lint, typecheck, its web and API tests;
// for the document also its API reports and knip) and the apps' typecheck with their lines added. The framework packages are consumed through their built dist, copied from this checkout
// (turbo builds them first: see `//#test:scaffold` in turbo.json). Run: pnpm test:scaffold.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ID = 'contratos-teste';
const TITLE = 'Contratos de Teste';
const PKG = join('packages', 'plugins', ID);
const DOC_ID = 'documentos-teste';
const DOC_PKG = join('packages', 'plugins', DOC_ID);

let copy;
const started = Date.now();

function run(cmd, args, cwd, { allowFail = false, timeout = 300_000 } = {}) {
  const res = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (!allowFail && res.status !== 0) {
    assert.fail(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${res.status ?? res.signal}:\n${output.slice(-6000)}`);
  }
  return { status: res.status, output };
}

/** Tracked and new (not ignored) files of the checkout, as they are in the working tree. */
function copyRepository(to) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT).output.split('\0').filter(Boolean);
  let copied = 0;
  for (const file of files) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(from, join(to, file));
    copied++;
  }
  // the built framework and plugins (what the apps and the generated package import)
  for (const parent of ['packages', join('packages', 'plugins')]) {
    for (const name of readdirSync(join(ROOT, parent))) {
      const dist = join(ROOT, parent, name, 'dist');
      if (existsSync(dist)) cpSync(dist, join(to, parent, name, 'dist'), { recursive: true });
    }
  }
  return copied;
}

/** Files of `pkg` with a placeholder left (but __PKG_NAME__/__PKG_VERSION__, which tsup and vitest fill). */
function leftovers(pkg) {
  return run('grep', ['-rlE', '__[A-Z][A-Z_]*__', '--exclude-dir=node_modules', pkg], copy, { allowFail: true })
    .output.split('\n')
    .filter(
      (f) =>
        f &&
        readFileSync(join(copy, f), 'utf8')
          .replace(/__PKG_(NAME|VERSION)__/g, '')
          .match(/__[A-Z][A-Z_]*__/),
    );
}

/** Formats the generated package as `pnpm new:plugin` does (with biome installed), then checks pnpm check:format accepts it. */
function formatGenerated(pkg) {
  const generated = [
    ...readdirSync(join(copy, pkg), { recursive: true })
      .map(String)
      .filter((f) => !f.startsWith('node_modules'))
      .map((f) => join(pkg, f)),
    'apps/web/src/plugins.ts',
    'apps/server/src/plugins.ts',
  ];
  const note = run(
    'node',
    ['-e', `import('./scripts/new-plugin.mjs').then((m) => process.stdout.write(m.formatFiles('.', ${JSON.stringify(generated)})))`],
    copy,
  ).output;
  assert.equal(note, '');
  run(join(copy, 'node_modules', '.bin', 'biome'), ['format', pkg, 'apps/web/src/plugins.ts', 'apps/server/src/plugins.ts'], copy);
}

/** Runs the package's tests with vitest; returns the JSON report, the test files run and the test names. */
function vitestReport(dir, name) {
  const report = join(copy, `vitest-report-${name}.json`);
  run('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], dir);
  const result = JSON.parse(readFileSync(report, 'utf8'));
  const files = result.testResults.map((r) => r.name.slice(dir.length + 1)).sort();
  const names = result.testResults.flatMap((r) => r.assertionResults.map((a) => a.title));
  assert.equal(result.numFailedTests, 0);
  assert.equal(result.numPendingTests + result.numTodoTests, 0, 'nothing skipped');
  return { result, files, names };
}

describe('pnpm new:plugin', () => {
  before(() => {
    for (const pkg of ['core', 'ui', 'server-core', 'br']) {
      assert.ok(existsSync(join(ROOT, 'packages', pkg, 'dist')), `packages/${pkg}/dist is missing: build first (pnpm build)`);
    }
    copy = mkdtempSync(join(tmpdir(), 'compras-new-plugin-'));
    const copied = copyRepository(copy);
    assert.ok(copied > 300, `copied only ${copied} files`);
  });

  after(() => {
    if (copy && !process.env.KEEP_SCAFFOLD_COPY) rmSync(copy, { recursive: true, force: true });
    else if (copy) console.log(`kept ${copy}`);
    console.log(`new:plugin scaffold test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it('refuses an invalid id, an existing plugin and an exempt tag, writing nothing', () => {
    for (const [args, message] of [
      [['Contratos_2'], /Invalid plugin id 'Contratos_2'/],
      [['about'], /Plugin 'about' already exists: packages\/plugins\/about/],
      [['core'], /reserved by the framework/],
      [['novo', '--tag', '0'], /tags 0 and -1\.\.-4 are open to every signed-in user/],
      [['novo', '--tag', 'x'], /Invalid --tag 'x'/],
      [['novo', '--documentos'], /Unknown option --documentos\. Usage: pnpm new:plugin <id> \[--document\]/],
      [['memorandos', '--document'], /Plugin 'memorandos' already exists/],
      [[], /Usage: pnpm new:plugin <id>/],
    ]) {
      const res = run('node', ['scripts/new-plugin.mjs', ...args], copy, { allowFail: true });
      assert.equal(res.status, 1, `${args.join(' ')}: ${res.output}`);
      assert.match(res.output, message);
    }
    assert.equal(existsSync(join(copy, 'packages', 'plugins', 'novo')), false);
  });

  it('generates the package, the changeset and the apps lines; the same id again is refused', () => {
    const { output } = run('node', ['scripts/new-plugin.mjs', ID, '--title', TITLE], copy);
    const tag = Number(output.match(/tag (\d+)/)?.[1]);
    assert.ok(tag >= 100, `default tag ${tag}: the first free one from 100 up`);
    for (const file of [
      'package.json',
      'README.md',
      'migrations/0001_contratos_teste.sql',
      'src/shared/index.ts',
      'src/server/index.ts',
      'src/server/tables.ts',
      'src/server/seed.ts',
      'src/web/index.ts',
      'src/web/pages/contratosTeste.ts',
      'test/web/contratosTeste.test.tsx',
      'test/server/api.test.ts',
    ]) {
      assert.ok(existsSync(join(copy, PKG, file)), `${file} generated`);
    }
    assert.deepEqual(leftovers(PKG), [], 'no placeholder left but __PKG_NAME__/__PKG_VERSION__');
    assert.match(readFileSync(join(copy, PKG, 'src/shared/index.ts'), 'utf8'), new RegExp(`CONTRATOS_TESTE_TAG = ${tag};`));
    assert.match(readFileSync(join(copy, '.changeset', `new-plugin-${ID}.md`), 'utf8'), /"@app\/contratos-teste": minor/);
    const web = readFileSync(join(copy, 'apps/web/src/plugins.ts'), 'utf8');
    assert.match(web, /^import contratosTeste from '@app\/contratos-teste';$/m);
    assert.match(web, /,\s*contratosTeste,\s*about,?\s*\];/);
    const server = readFileSync(join(copy, 'apps/server/src/plugins.ts'), 'utf8');
    assert.match(server, /^import contratosTeste from '@app\/contratos-teste\/server';$/m);
    assert.match(server, /,\s*contratosTeste,\s*about,?\s*\];/);
    for (const app of ['web', 'server']) {
      const pkg = JSON.parse(readFileSync(join(copy, 'apps', app, 'package.json'), 'utf8'));
      assert.equal(pkg.dependencies['@app/contratos-teste'], 'workspace:^');
    }
    const again = run('node', ['scripts/new-plugin.mjs', ID], copy, { allowFail: true });
    assert.equal(again.status, 1);
    assert.match(again.output, /Plugin 'contratos-teste' already exists/);
    // a second free tag is not this one
    const next = run('node', ['-e', `import('./scripts/new-plugin.mjs').then((m) => console.log(m.nextFreeTag('.')))`], copy).output.trim();
    assert.notEqual(Number(next), tag);
  });

  it('--document generates a document plugin (header, items, flow, PDF) on the document kit, with the next free tag', () => {
    const { output } = run('node', ['scripts/new-plugin.mjs', DOC_ID, '--document', '--title', 'Documentos de Teste'], copy);
    assert.match(output, /Created document plugin @app\/documentos-teste .*tables documentos_teste, documentos_teste_itens/);
    const tag = Number(output.match(/tag (\d+)/)?.[1]);
    assert.ok(tag >= 100);
    for (const file of [
      'package.json',
      'README.md',
      'migrations/0001_documentos_teste.sql',
      'src/shared/index.ts',
      'src/server/index.ts',
      'src/server/tables.ts',
      'src/web/index.ts',
      'src/web/pages/documentosTeste.tsx',
      'test/web/documentosTeste.test.tsx',
      'test/server/api.test.ts',
      'test/server/schema-drift.test.ts',
      'tsconfig.json',
      'tsup.config.ts',
      'vitest.config.ts',
    ]) {
      assert.ok(existsSync(join(copy, DOC_PKG, file)), `${file} generated`);
    }
    // nothing of the registry template
    assert.equal(existsSync(join(copy, DOC_PKG, 'src/server/seed.ts')), false);
    assert.deepEqual(leftovers(DOC_PKG), [], 'no placeholder left but __PKG_NAME__/__PKG_VERSION__');
    const server = readFileSync(join(copy, DOC_PKG, 'src/server/index.ts'), 'utf8');
    assert.match(server, /defineDocumentResource\(router, \{/);
    assert.match(readFileSync(join(copy, DOC_PKG, 'src/shared/index.ts'), 'utf8'), new RegExp(`DOCUMENTOS_TESTE_TAG = ${tag};`));
    assert.match(readFileSync(join(copy, '.changeset', `new-plugin-${DOC_ID}.md`), 'utf8'), /"@app\/documentos-teste": minor/);
    assert.match(readFileSync(join(copy, 'apps/server/src/plugins.ts'), 'utf8'), /^import documentosTeste from '@app\/documentos-teste\/server';$/m);
  });

  it('both pass lint, typecheck and their web and API tests as generated; the apps typecheck with them', () => {
    // --prefer-offline, not --offline: adding a package resolves the whole tree again, and on a fresh machine
    // the metadata of optional dependencies of other platforms (e.g. @oxc-resolver/binding-wasm32-wasi) was
    // never fetched by the frozen install (ERR_PNPM_NO_OFFLINE_META); what is cached is used, the rest fetched.
    // minimumReleaseAge=0: the supply-chain age check needs the registry's metadata, which an install from
    // the lockfile never fetched (the packages themselves are all in the store)
    run('pnpm', ['install', '--prefer-offline', '--frozen-lockfile=false', '--config.verifyDepsBeforeRun=false', '--config.minimumReleaseAge=0'], copy);
    const dir = join(copy, PKG);
    assert.ok(existsSync(join(dir, 'node_modules', '@app', 'core')), 'the new package is linked');
    // the generator's formatting (it runs when biome is installed, as it is for anyone running
    // `pnpm new:plugin`; this copy had none when it generated) leaves what pnpm check:format accepts
    formatGenerated(PKG);
    run('pnpm', ['run', 'lint'], dir);
    run('pnpm', ['run', 'typecheck'], dir);
    const { result, files, names } = vitestReport(dir, ID);
    assert.deepEqual(files, ['test/server/api.test.ts', 'test/web/contratosTeste.test.tsx']);
    assert.ok(result.numPassedTests >= 10, `${result.numPassedTests} tests passed`);
    assert.ok(
      names.some((n) => /^a user holding tag \d+ sees the menu entry and the list$/.test(n)),
      'the menu test ran',
    );
    console.log(`generated package: ${result.numPassedTests} tests passed in ${files.length} files`);
    // the apps import it through its dist, like every plugin
    run('pnpm', ['run', 'build'], dir);

    // the document plugin: the same, plus its API reports (etc/*.api.md, written once by `api --local`
    // as the generator's next steps say, then current) and knip (no unused export or dependency)
    const docDir = join(copy, DOC_PKG);
    assert.ok(existsSync(join(docDir, 'node_modules', '@app', 'produtos')), 'the document package is linked');
    formatGenerated(DOC_PKG);
    run('pnpm', ['run', 'lint'], docDir);
    run('pnpm', ['run', 'typecheck'], docDir);
    const doc = vitestReport(docDir, DOC_ID);
    assert.deepEqual(doc.files, ['test/server/api.test.ts', 'test/server/schema-drift.test.ts', 'test/web/documentosTeste.test.tsx']);
    assert.ok(doc.result.numPassedTests >= 10, `${doc.result.numPassedTests} tests passed`);
    for (const name of [
      'is sent by its author and accepted by someone else (never by its author); a numbered document is never deleted',
      'prints the PDF with its number in the file name',
      'publishes its routes in the OpenAPI document, each with the tag and an operationId',
    ]) {
      assert.ok(doc.names.includes(name), `ran: ${name}`);
    }
    console.log(`generated document package: ${doc.result.numPassedTests} tests passed in ${doc.files.length} files`);
    run('pnpm', ['run', 'build'], docDir);
    run('pnpm', ['run', 'api', '--local'], docDir);
    assert.deepEqual(readdirSync(join(docDir, 'etc')).sort(), ['documentos-teste-server.api.md', 'documentos-teste-shared.api.md', 'documentos-teste.api.md']);
    run('pnpm', ['run', 'api'], docDir);
    run('pnpm', ['exec', 'knip', '--workspace', DOC_PKG], copy);

    run('pnpm', ['--filter', '@app/web', '--filter', '@app/server', 'run', 'typecheck'], copy);
  });
});
