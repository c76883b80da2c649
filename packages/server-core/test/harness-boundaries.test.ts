// One test harness for plugins: the tests of every package reach another package only through its
// entry (never `../../../other/src/...` or its migrations folder by relative path), and a plugin's
// page tests render through @app/core/testing's renderPlugin instead of a copy of the App set-up.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage', 'test-results', 'playwright-report']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) yield path;
  }
}

/** Every package and app folder (the ones with a package.json) under packages/ and apps/. */
function packageRoots(): string[] {
  const roots: string[] = [];
  for (const top of ['packages', 'packages/plugins', 'apps']) {
    for (const entry of readdirSync(join(ROOT, top), { withFileTypes: true })) {
      const dir = join(ROOT, top, entry.name);
      if (entry.isDirectory() && existsSync(join(dir, 'package.json'))) roots.push(dir);
    }
  }
  return roots;
}

/** Test files of a package: under test/ or e2e/. */
function testFiles(root: string): string[] {
  return ['test', 'e2e'].flatMap((d) => (existsSync(join(root, d)) ? [...files(join(root, d))] : []));
}

const SPECIFIERS = [/\bfrom\s+'(\.[^']*)'/g, /\bimport\(\s*'(\.[^']*)'\s*\)/g, /\bnew URL\(\s*'(\.[^']*)'\s*,\s*import\.meta\.url\s*\)/g];

/** 'file: specifier' for each relative import or URL of a test file that leaves its own package. */
function escapes(): string[] {
  const found: string[] = [];
  for (const root of packageRoots()) {
    for (const file of testFiles(root)) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of SPECIFIERS) {
        for (const m of text.matchAll(pattern)) {
          const target = resolve(dirname(file), m[1]!);
          if (target !== root && !target.startsWith(root + sep)) found.push(`${relative(ROOT, file)}: ${m[1]}`);
        }
      }
    }
  }
  return found;
}

it('no test reaches into another package by relative path (src, migrations…): through its entry only', () => {
  expect(packageRoots().length).toBeGreaterThan(8);
  expect(escapes()).toEqual([]);
});

it("plugins' page tests render through renderPlugin, not a copy of the App set-up", () => {
  const copies: string[] = [];
  const plugins = packageRoots().filter((r) => r.includes(`${sep}plugins${sep}`));
  for (const root of plugins) {
    for (const file of testFiles(root)) {
      const text = readFileSync(file, 'utf8');
      if (/<App\b[^>]*\bplugins=/.test(text) || /createElement\(\s*App\b/.test(text)) copies.push(relative(ROOT, file));
    }
  }
  expect(plugins.length).toBeGreaterThan(5);
  expect(copies).toEqual([]);
});
