// TEMPORARY (local runs while server-core's JS build is broken): server-core from its sources.
import { fileURLToPath } from 'node:url';
import { packageVitestConfig } from '../../../vitest.shared';

const sc = (p: string) => fileURLToPath(new URL(`../../server-core/src/${p}`, import.meta.url));
export default packageVitestConfig(new URL('.', import.meta.url), {
  resolve: {
    alias: [
      { find: /^@app\/server-core\/testing$/, replacement: sc('testing.ts') },
      { find: /^@app\/server-core\/orm$/, replacement: sc('orm.ts') },
      { find: /^@app\/server-core\/pg-core$/, replacement: sc('pg-core.ts') },
      { find: /^@app\/server-core$/, replacement: sc('index.ts') },
    ],
  },
});
