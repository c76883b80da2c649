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

export default defineConfig({
  test: {
    environment: 'jsdom',
    // unit tests only: e2e/*.spec.ts are Playwright's
    include: ['test/**/*.test.ts'],
  },
});
