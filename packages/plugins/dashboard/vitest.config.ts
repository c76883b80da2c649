import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// vitest 5 prints failed tests with Map.groupBy (Node >= 21); on Node 20 the report itself crashes.
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

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export default defineConfig({
  define: {
    __PKG_NAME__: JSON.stringify(pkg.name),
    __PKG_VERSION__: JSON.stringify(pkg.version),
  },
  test: {
    // server tests run in node; web tests (test/web) declare `// @vitest-environment jsdom`
    environment: 'node',
    include: ['test/**/*.test.{ts,tsx}'],
    passWithNoTests: true,
  },
});
