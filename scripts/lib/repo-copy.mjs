// Helpers of the root tests that work on a temporary copy of the repository (scripts/test/*.test.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const QUIET_ENV = { CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' };

/** Runs a command to its end; fails the test (with the output's tail) when it exits non-zero. */
export function run(cmd, args, cwd, { allowFail = false, timeout = 300_000, env = {} } = {}) {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, ...QUIET_ENV, ...env } });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ? `\n${res.error.message}` : ''}`;
  if (!allowFail && res.status !== 0) {
    assert.fail(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${res.status ?? res.signal}:\n${output.slice(-6000)}`);
  }
  return { status: res.status, output };
}

/** Workspace folders that hold packages (pnpm-workspace.yaml: apps/*, packages/*, packages/plugins/*). */
const PACKAGE_PARENTS = ['apps', 'packages', join('packages', 'plugins')];

/** Every workspace package of `root`: { name, version, private, dir (relative), manifest }. */
export function workspacePackages(root) {
  const found = [];
  for (const parent of PACKAGE_PARENTS) {
    for (const name of readdirSync(join(root, parent))) {
      const file = join(root, parent, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      found.push({ name: manifest.name, version: manifest.version, private: !!manifest.private, dir: join(parent, name), manifest });
    }
  }
  return found;
}

/**
 * Copies the checkout's tracked and new (not ignored) files, as they are in the working tree, to
 * `to`; with `dists`, also the built `dist` of those workspace packages (by name). Returns the count.
 */
export function copyRepository(to, { dists = [] } = {}) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT).output.split('\0').filter(Boolean);
  let copied = 0;
  for (const file of files) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(from, join(to, file));
    copied++;
  }
  const byName = new Map(workspacePackages(ROOT).map((p) => [p.name, p]));
  for (const name of dists) {
    const pkg = byName.get(name);
    assert.ok(pkg, `${name} is not a workspace package`);
    const dist = join(ROOT, pkg.dir, 'dist');
    assert.ok(existsSync(dist), `${pkg.dir}/dist is missing: build first (pnpm build)`);
    cpSync(dist, join(to, pkg.dir, 'dist'), { recursive: true });
  }
  return copied;
}
