import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string; version: string };

// Libraries the first page runs on (the sign-in page included), and the bundler's own helpers.
const FIRST_PAGE_LIBS =
  /node_modules[\\/](react|react-dom|scheduler|jotai|wouter|ky|jwt-decode|use-sync-external-store|regexparam|mitt)[\\/]|vite\/preload-helper|rolldown\/runtime/;

// Hashed JS/CSS/SVG files of 1 KB or more get their .br and .gz twins, written once at build time:
// the server sends the one the browser accepts (serveStatic's `precompressed`), never compressing
// per request.
function precompress(): Plugin {
  return {
    name: 'compras:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = join(options.dir ?? 'dist', name);
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  define: {
    __PKG_NAME__: JSON.stringify(pkg.name),
    __PKG_VERSION__: JSON.stringify(pkg.version),
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // hashed file names (Vite's default): assets/[name]-[hash].js, safe to cache forever
    assetsDir: 'assets',
    sourcemap: false,
    // every browser the product supports preloads modules natively: no polyfill on the first page
    modulePreload: { polyfill: false },
    // The libraries every page, the sign-in page included, runs on: one file instead of one per
    // shared piece (fewer requests, one gzip dictionary). The rest is split as usual, by the set of
    // pages that share a module, but a piece under 12 KB joins its nearest neighbour: /requisicao's
    // cold load asked for 35 files of 0.3–9 KB, and a browser fetches six at a time from one HTTP/1.1
    // origin, so the session's request waited behind them (issue 23): 119 files → 41.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'runtime', test: (id: string) => FIRST_PAGE_LIBS.test(id), priority: 2 },
            { name: 'app', test: () => true, entriesAware: true, entriesAwareMergeThreshold: 12 * 1024, priority: 1 },
          ],
        },
      },
    },
  },
});
