// server-core's modules import one another without cycles, type imports included: shared types live
// in leaf modules (plugin-info.ts, context.ts), so a newcomer can read the modules bottom-up.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every cycle found by a depth-first walk, as 'a.ts → b.ts → …' (the last one imports the first). */
function importCycles(dir: string): string[] {
  const files = modules(dir);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gs)]
      .map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')))
      .filter((target) => files.includes(target));
    graph.set(file, targets);
  }
  const cycles = new Set<string>();
  const stack: string[] = [];
  const done = new Set<string>();
  const visit = (file: string) => {
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = stack.indexOf(next);
      if (at >= 0)
        cycles.add(
          stack
            .slice(at)
            .map((f) => relative(dir, f))
            .join(' → '),
        );
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    done.add(file);
  };
  for (const file of files) if (!done.has(file)) visit(file);
  return [...cycles];
}

it('has no import cycles among its modules (type imports included)', () => {
  expect(modules(src).length).toBeGreaterThan(20);
  expect(importCycles(src)).toEqual([]);
});
