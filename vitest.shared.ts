// Shared vitest settings for packages: build-time constants as tsup defines them, and the Node 20
// Map.groupBy polyfill vitest 5's failure report needs.
import { readFileSync } from 'node:fs';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const MapWithGroupBy = Map as unknown as { groupBy?: unknown };
MapWithGroupBy.groupBy ??= <K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> => {
  const groups = new Map<K, V[]>();
  let index = 0;
  for (const item of items) {
    const k = key(item, index++);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
};

const toArray = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** vitest config for the package whose folder is `dir` (pass `new URL('.', import.meta.url)`). */
export function packageVitestConfig(dir: URL, overrides: ViteUserConfig = {}): ViteUserConfig {
  const pkg = JSON.parse(readFileSync(new URL('./package.json', dir), 'utf8')) as { name: string; version: string };
  return defineConfig({
    define: { __PKG_NAME__: JSON.stringify(pkg.name), __PKG_VERSION__: JSON.stringify(pkg.version) },
    ...overrides,
    test: {
      environment: 'node',
      include: ['test/**/*.test.{ts,tsx}'],
      passWithNoTests: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...overrides.test,
      setupFiles: [new URL('./vitest.setup.ts', import.meta.url).pathname, ...toArray(overrides.test?.setupFiles)],
    },
  });
}
