import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Node 20: vitest 5's reporter formats failures with Map.groupBy (Node ≥ 21). Polyfill it in the
// main process so a failing test prints its error instead of crashing the reporter.
const MapWithGroupBy = Map as unknown as { groupBy?: unknown };
MapWithGroupBy.groupBy ??= <K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> => {
  const map = new Map<K, V[]>();
  let i = 0;
  for (const item of items) {
    const k = key(item, i++);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
};

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export default defineConfig({
  define: {
    __PKG_NAME__: JSON.stringify(pkg.name),
    __PKG_VERSION__: JSON.stringify(pkg.version),
  },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
  },
});
