// @app/core/tags is the one home of the administration's tag (3): a plugin's web, shared and server
// halves import ADMIN_TAG instead of declaring their own copy. This walks the plugins and the apps
// (dist and node_modules skipped) and fails on a declaration of an admin tag; the module itself must
// stay free of imports, so a server half loads it without React.
import { describe, expect, it } from 'vitest';
import { ADMIN_TAG as fromIndex } from '../src/index';
import { ADMIN_TAG } from '../src/tags';

/** The two calls of node:fs this test makes (core's typecheck has no Node types: its source is browser code). */
interface NodeFs {
  readdirSync(dir: string, options: { withFileTypes: true }): { name: string; isDirectory(): boolean }[];
  readFileSync(file: string, encoding: 'utf8'): string;
}
const NODE_FS = 'node:fs';
const { readdirSync, readFileSync } = (await import(/* @vite-ignore */ NODE_FS)) as NodeFs;

/** A path of this repository, from this file's URL (the test environment's URL is not Node's). */
const here = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname);
const ROOT = here('../../../');
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage', 'test-results', 'playwright-report']);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
    if (entry.isDirectory()) yield* files(`${dir}${entry.name}/`);
    else if (SOURCE.test(entry.name)) yield `${dir}${entry.name}`;
  }
}

/** Lines of the plugins and apps matching `pattern`, as 'path:line'. */
function copies(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const top of ['packages/plugins/', 'apps/']) {
    for (const file of files(`${ROOT}${top}`)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (pattern.test(line)) found.push(`${file.slice(ROOT.length)}:${i + 1}`);
        });
    }
  }
  return found;
}

describe('ADMIN_TAG: one declaration, in @app/core/tags', () => {
  it('is tag 3, the same from @app/core and from @app/core/tags', () => {
    expect(ADMIN_TAG).toBe(3);
    expect(fromIndex).toBe(ADMIN_TAG);
  });

  it('@app/core/tags imports nothing (a server half loads it without React)', () => {
    expect(readFileSync(here('../src/tags.ts'), 'utf8')).not.toMatch(/^\s*(import|export .* from)\b/m);
  });

  it('scans the plugins (the walk finds their manifests)', () => {
    expect(copies(/definePlugin\(|defineServerPlugin\(/).length).toBeGreaterThan(5);
  });

  it('no plugin or app declares its own admin tag (import ADMIN_TAG)', () => {
    expect(copies(/\b(const|let|var)\s+\w*ADMIN\w*\s*(:[^=]+)?=\s*3\b/)).toEqual([]);
  });
});
