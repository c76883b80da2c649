/// <reference types="node" />
// @app/br is the one home of the time zone and of the partial CPF: this walks the source of every
// other package and app and fails on a copy. Scanned: .ts/.tsx/.js/.mjs/.cjs/.json source and tests
// (dist, node_modules and build output skipped). Not scanned, on purpose: SQL migrations and
// Markdown docs, which may name America/Sao_Paulo in prose; comments do too, without quotes.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage', 'test-results', 'playwright-report']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs|json)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

/** Files outside packages/br whose text matches `pattern`, as 'path:line'. */
function copies(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const top of ['packages', 'apps']) {
    for (const file of files(join(ROOT, top))) {
      const rel = relative(ROOT, file);
      if (rel.startsWith(join('packages', 'br'))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (pattern.test(line)) found.push(`${rel}:${i + 1}`);
        });
    }
  }
  return found;
}

describe('one home in @app/br', () => {
  it('scans the repository (the walk finds other packages)', () => {
    expect(copies(/definePlugin|defineServerPlugin/).length).toBeGreaterThan(5);
  });
  it("no other package or app writes the time zone literal 'America/Sao_Paulo' (import TIME_ZONE)", () => {
    expect(copies(/['"`]America\/Sao_Paulo['"`]/)).toEqual([]);
  });
  it('no other package builds a partial CPF (import maskCpfPartial)', () => {
    expect(copies(/['"`]\*\*\*\.\$\{/)).toEqual([]);
  });
});
