// Versioning with changesets, on a temporary copy of the repository: the pending changesets of the
// checkout are set aside, one changeset is written, `pnpm version-packages` (changeset version) runs,
// and the versions of every workspace package are compared. Proves that a minor of @app/core does
// not force a major on every plugin (onlyUpdatePeerDependentsWhenOutOfRange in
// .changeset/config.json), that a plugin's own change bumps only that plugin, and, as the control, that
// a major of @app/core does bump the plugins whose peer range it leaves. Run: pnpm test:changesets.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT, copyRepository, run, workspacePackages } from '../lib/repo-copy.mjs';

const started = Date.now();
const copies = [];

/** semver increment of a plain x.y.z version. */
function inc(version, bump) {
  const [major, minor, patch] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * A fresh copy with only `releases` ({ name: bump }) as pending changeset, versioned with the root
 * `version-packages` script. Returns what changed: { name: [before, after] }, and which package.json
 * and CHANGELOG.md files were written.
 */
function versionWith(releases) {
  const copy = mkdtempSync(join(tmpdir(), 'compras-changesets-'));
  copies.push(copy);
  copyRepository(copy);
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const dir = join(copy, '.changeset');
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.md') && file !== 'README.md') rmSync(join(dir, file));
  }
  const front = Object.entries(releases).map(([name, bump]) => `"${name}": ${bump}`);
  writeFileSync(join(dir, 'test-change.md'), `---\n${front.join('\n')}\n---\n\nA change made by scripts/test/changesets.test.mjs.\n`);

  const before = workspacePackages(copy);
  const manifests = new Map(before.map((p) => [p.name, readFileSync(join(copy, p.dir, 'package.json'), 'utf8')]));
  const changelogs = new Map(
    before.map((p) => [p.name, existsSync(join(copy, p.dir, 'CHANGELOG.md')) ? readFileSync(join(copy, p.dir, 'CHANGELOG.md'), 'utf8') : null]),
  );
  run('pnpm', ['run', '--config.verifyDepsBeforeRun=false', 'version-packages'], copy, { timeout: 60_000 });
  assert.equal(existsSync(join(dir, 'test-change.md')), false, 'the changeset was consumed');

  const changed = {};
  const manifestsWritten = [];
  const changelogsWritten = [];
  for (const pkg of workspacePackages(copy)) {
    const was = before.find((p) => p.name === pkg.name);
    if (was.version !== pkg.version) changed[pkg.name] = [was.version, pkg.version];
    if (readFileSync(join(copy, pkg.dir, 'package.json'), 'utf8') !== manifests.get(pkg.name)) manifestsWritten.push(pkg.name);
    const log = existsSync(join(copy, pkg.dir, 'CHANGELOG.md')) ? readFileSync(join(copy, pkg.dir, 'CHANGELOG.md'), 'utf8') : null;
    if (log !== changelogs.get(pkg.name)) changelogsWritten.push(pkg.name);
  }
  return { before, changed, manifestsWritten: manifestsWritten.sort(), changelogsWritten: changelogsWritten.sort() };
}

const plugins = (packages) => packages.filter((p) => p.dir.startsWith(join('packages', 'plugins')));

describe('changeset version (pnpm version-packages)', () => {
  after(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
    console.log(`changesets test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it('a minor of @app/core bumps only @app/core: no plugin gets a major, nothing else moves', () => {
    const { before, changed, manifestsWritten, changelogsWritten } = versionWith({ '@app/core': 'minor' });
    const core = before.find((p) => p.name === '@app/core');
    const dependents = plugins(before).filter((p) => p.manifest.peerDependencies?.['@app/core']);
    assert.ok(dependents.length >= 5, `${dependents.length} plugins peer-depend on @app/core`);
    for (const plugin of plugins(before)) {
      const [from, to] = changed[plugin.name] ?? [plugin.version, plugin.version];
      assert.equal(to.split('.')[0], from.split('.')[0], `${plugin.name} went major: ${from} → ${to}`);
    }
    assert.deepEqual(changed, { '@app/core': [core.version, inc(core.version, 'minor')] });
    assert.deepEqual(manifestsWritten, ['@app/core']);
    assert.deepEqual(changelogsWritten, ['@app/core']);
  });

  it("a plugin's own change bumps only that plugin, even one other plugins peer-depend on", () => {
    const target = '@app/registros';
    const before = workspacePackages(ROOT);
    const peers = plugins(before).filter((p) => p.manifest.peerDependencies?.[target]);
    assert.ok(peers.length >= 3, `${peers.length} plugins peer-depend on ${target}`);
    for (const bump of ['minor', 'patch']) {
      const result = versionWith({ [target]: bump });
      const version = result.before.find((p) => p.name === target).version;
      assert.deepEqual(result.changed, { [target]: [version, inc(version, bump)] }, bump);
      assert.deepEqual(result.manifestsWritten, [target], bump);
      assert.deepEqual(result.changelogsWritten, [target], bump);
    }
  });

  it('control: a major of @app/core does bump every plugin whose peer range it leaves (and nothing else)', () => {
    const { before, changed } = versionWith({ '@app/core': 'major' });
    const expected = {};
    for (const pkg of before) {
      if (pkg.name === '@app/core') expected[pkg.name] = [pkg.version, inc(pkg.version, 'major')];
      else if (!pkg.private && pkg.manifest.peerDependencies?.['@app/core']) expected[pkg.name] = [pkg.version, inc(pkg.version, 'major')];
    }
    assert.ok(Object.keys(expected).length >= 6, 'core and the plugins that peer-depend on it');
    assert.deepEqual(changed, expected);
  });
});
