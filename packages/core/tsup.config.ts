import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { external, packageOptions } from '../../tsup.base';

// Every source file is an entry of its own (dist/lib/<path>.js), as in @app/ui: esbuild then keeps
// each module apart instead of merging whatever two entries share into one chunk, and the app's
// bundler (which cannot split a module) takes, for each page, only the modules it uses. With a few
// entries, index.js held the kit's pages, dialogs and audit labels in one module, and a list page
// that used one of them loaded them all (issue 23: the cold load of /requisicao).
const modules = Object.fromEntries(
  readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.d\.ts$/.test(file) && file !== 'index.ts' && file !== 'test-kit.ts' && file !== 'tags.ts')
    .map((file) => [`lib/${file.replace(/\\/g, '/').replace(/\.tsx?$/, '')}`, `src/${file}`]),
);

// testing (src/test-kit.ts) is @app/core/testing: vitest and Testing Library are the consumer's own copies.
// tags (src/tags.ts) is @app/core/tags: plain numbers a plugin's shared and server halves import (no React).
export default defineConfig(
  packageOptions(process.cwd(), {
    entry: { index: 'src/index.ts', testing: 'src/test-kit.ts', tags: 'src/tags.ts', ...modules },
    // declarations for the package's export paths only
    dts: { entry: { index: 'src/index.ts', testing: 'src/test-kit.ts', tags: 'src/tags.ts' } },
    external: [...external, /^vitest\//, /^@testing-library\//],
  }),
);
