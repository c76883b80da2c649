// Shared tsup settings for every published package: ESM + .d.ts, peers never bundled.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Options } from 'tsup';

export const external = [
  'react',
  'react-dom',
  'react/jsx-runtime',
  'react-dom/client',
  'jotai',
  /^jotai\//,
  'wouter',
  /^wouter\//,
  'ky',
  'zod',
  /^zod\//,
  '@tanstack/react-query',
  /^@radix-ui\//,
  /^@app\//,
  'vitest',
];

export function packageOptions(dir: string, options: Options): Options {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
  return {
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    splitting: true,
    treeshake: true,
    target: 'es2022',
    external,
    define: {
      __PKG_NAME__: JSON.stringify(pkg.name),
      __PKG_VERSION__: JSON.stringify(pkg.version),
    },
    ...options,
  };
}
