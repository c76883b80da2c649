import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const script = readFileSync('public/theme-init.js', 'utf8');

function run(stored: string | null, systemDark: boolean) {
  localStorage.clear();
  if (stored !== null) localStorage.setItem('theme', stored);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: systemDark && query === '(prefers-color-scheme: dark)' }));
  delete document.documentElement.dataset.theme;
  // biome-ignore lint/security/noGlobalEval: evaluates the real public/theme-init.js as the browser would
  (0, eval)(script);
  return document.documentElement.dataset.theme;
}

describe('public/theme-init.js (before first paint)', () => {
  beforeEach(() => vi.unstubAllGlobals());

  it('applies a stored explicit theme', () => {
    expect(run('dark', false)).toBe('dark');
    expect(run('light', true)).toBe('light');
    expect(run('"dark"', false)).toBe('dark');
  });

  it("'system' or nothing stored follows prefers-color-scheme", () => {
    expect(run('system', true)).toBe('dark');
    expect(run(null, true)).toBe('dark');
    expect(run(null, false)).toBe('light');
    expect(run('roxo', false)).toBe('light');
  });

  it('index.html loads it from <head>, without any inline script', () => {
    const html = readFileSync('index.html', 'utf8');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<script src="/theme-init.js"></script>');
    for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) {
      expect(tag).toMatch(/\bsrc="/);
      expect(
        tag
          .replace(/<script\b[^>]*>/, '')
          .replace('</script>', '')
          .trim(),
      ).toBe('');
    }
    expect(html).toMatch(/<html lang="pt-BR">/);
  });
});

describe('src/plugins.ts', () => {
  it('is the list of enabled plugins, one default import per line (scripts/bench.mjs parses it)', () => {
    const source = readFileSync('src/plugins.ts', 'utf8');
    const imports = [...source.matchAll(/^import\s+(\w+)\s+from\s+'(@app\/[^']+)';$/gm)].map((m) => m[2]);
    const deps = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies as Record<string, string>);
    expect(imports).toEqual(expect.arrayContaining(['@app/about', '@app/dashboard']));
    for (const name of imports) expect(deps).toContain(name);
  });
});
