// The CSP this server sends is `style-src 'self'`: a <style> element rendered by a page is refused by the
// browser (the items grid lost its narrow-screen layout that way). Styles live in @app/ui's
// stylesheet; React's `style={{…}}` props are fine (set through the CSSOM, which the CSP allows).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const packagesDir = join(import.meta.dirname, '..', '..');
const skip = new Set(['node_modules', 'dist', 'test', 'e2e']);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.tsx$/.test(name)) out.push(path);
  }
  return out;
}

describe('CSP: no inline <style> elements', () => {
  it('no package source renders a <style> element', () => {
    const files = sources(packagesDir);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((f) => /<style[\s>]/.test(readFileSync(f, 'utf8'))).map((f) => relative(packagesDir, f));
    expect(offenders).toEqual([]);
  });
});
