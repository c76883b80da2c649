// The published type declarations (dist/**/*.d.ts) of every workspace package this server is built from
// import only packages the package declares in dependencies or peerDependencies: what an app installing
// it from the registry can resolve. tsup writes whatever module TypeScript names for an inferred type;
// for a drizzle table declared with named builder imports that was 'drizzle-orm/pg-core', which no
// plugin depends on (they reach drizzle through @app/server-core/pg-core: see docs/plugins.md §3).
// Here, not in server-core's tests: turbo builds every one of these packages before this test runs.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

// the repository (read as files: the built dist of each package, never imported)
const root = join(import.meta.dirname, '../../..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Every workspace package (packages/*, packages/plugins/*) by name, with its folder. */
function workspacePackages(): Map<string, { dir: string; manifest: Manifest }> {
  const out = new Map<string, { dir: string; manifest: Manifest }>();
  for (const parent of ['packages', 'packages/plugins']) {
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      const dir = join(root, parent, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      out.set(manifest.name, { dir, manifest });
    }
  }
  return out;
}

/** The workspace packages @app/server reaches through dependencies, devDependencies and peers. */
function reachable(all: Map<string, { dir: string; manifest: Manifest }>): string[] {
  const server = JSON.parse(readFileSync(join(root, 'apps/server/package.json'), 'utf8')) as Manifest;
  const seen = new Set<string>();
  const visit = (m: Manifest) => {
    for (const name of Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.peerDependencies })) {
      const pkg = all.get(name);
      if (!pkg || seen.has(name)) continue;
      seen.add(name);
      visit(pkg.manifest);
    }
  };
  visit(server);
  return [...seen].sort();
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarationFiles(join(dir, e.name)) : /\.d\.[cm]?ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** 'drizzle-orm/pg-core' → 'drizzle-orm', '@app/server-core/orm' → '@app/server-core'. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Bare module specifiers of a declaration file: `from '…'`, `import '…'`, `import('…')`. */
function importedPackages(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g)].map((m) => m[2]!);
  return specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('/') && !isBuiltin(s)).map(packageOf);
}

/** The problems of one package: 'dist/server/index.d.ts imports drizzle-orm (not a dependency or peer)'. */
function undeclaredImports(dir: string, manifest: Manifest): string[] {
  const allowed = new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })]);
  const problems = new Set<string>();
  for (const file of declarationFiles(join(dir, 'dist'))) {
    for (const pkg of importedPackages(readFileSync(file, 'utf8'))) {
      const typesOf = pkg.startsWith('@types/') ? pkg : `@types/${pkg.replace(/^@([^/]+)\//, '$1__')}`;
      if (!allowed.has(pkg) && !allowed.has(typesOf)) {
        problems.add(`${manifest.name}: ${relative(dir, file)} imports ${pkg} (not a dependency or peer dependency)`);
      }
    }
  }
  return [...problems];
}

it('finds an undeclared import in a declaration, and accepts dependencies, peers, @types and built-ins', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compras-dts-'));
  try {
    mkdirSync(join(dir, 'dist', 'server'), { recursive: true });
    writeFileSync(
      join(dir, 'dist', 'server', 'index.d.ts'),
      [
        "import * as pg from 'drizzle-orm/pg-core';",
        "import { Hono } from 'hono';",
        "import type { Pool } from 'pg';",
        "export * from '@app/server-core/orm';",
        "import 'node:fs';",
        "export { x } from './x.js';",
        "export declare const y: import('@app/registros/server').Z;",
      ].join('\n'),
    );
    const manifest = {
      name: '@app/exemplo',
      dependencies: { hono: '^4.0.0' },
      devDependencies: { '@app/registros': 'workspace:^' },
      peerDependencies: { '@app/server-core': 'workspace:^', '@types/pg': '^8.0.0' },
    };
    expect(undeclaredImports(dir, manifest)).toEqual([
      '@app/exemplo: dist/server/index.d.ts imports drizzle-orm (not a dependency or peer dependency)',
      '@app/exemplo: dist/server/index.d.ts imports @app/registros (not a dependency or peer dependency)',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("every built package's .d.ts imports only its dependencies and peer dependencies", () => {
  const all = workspacePackages();
  const names = reachable(all);
  expect(names).toEqual(expect.arrayContaining(['@app/server-core', '@app/registros', '@app/produtos', '@app/requisicoes']));
  const problems: string[] = [];
  for (const name of names) {
    const { dir, manifest } = all.get(name)!;
    if (!existsSync(join(dir, 'dist'))) {
      problems.push(`${name}: no dist (run its build)`);
      continue;
    }
    problems.push(...undeclaredImports(dir, manifest));
  }
  expect(problems).toEqual([]);
});
