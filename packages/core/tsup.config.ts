import { defineConfig } from 'tsup';
import { external, packageOptions } from '../../tsup.base';

// testing (src/test-kit.ts) is @app/core/testing: vitest and Testing Library are the consumer's own copies.
export default defineConfig(
  packageOptions(process.cwd(), {
    entry: { index: 'src/index.ts', testing: 'src/test-kit.ts', 'first-page': 'src/first-page.ts' },
    external: [...external, /^vitest\//, /^@testing-library\//],
  }),
);
