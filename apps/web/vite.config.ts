import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string; version: string };

// Libraries the first page runs on (the sign-in page included), and the bundler's own helpers.
const FIRST_PAGE_LIBS =
  /node_modules[\\/](react|react-dom|scheduler|jotai|wouter|ky|jwt-decode|use-sync-external-store|regexparam|mitt)[\\/]|vite\/preload-helper|rolldown\/runtime/;

// The resource kit's list pages (one file each in core's dist): the 'list' chunk holds them and what they import.
const LIST_PAGES = /packages[\\/]core[\\/]dist[\\/]lib[\\/]resource[\\/](ListPage|documents[\\/]ListDocument)\.js$/;

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
    // How the app is split (issue 23: the cold load of /requisicao, ≤ 200 KB of JS to its first row):
    // - runtime: the libraries every page, the sign-in page included, runs on (one file, one gzip
    //   dictionary, cached across deployments of the app's own code);
    // - first: every other module the entry imports statically (the sign-in page), in the entry's file;
    // - query: TanStack Query whole (the signed-in shell and every page use it);
    // - list: the resource kit's list pages (core's lib/resource/ListPage, documents/ListDocument) with
    //   every module they import, in one file: the first thing most addresses render;
    // - app: the rest, split by the set of lazy chunks that use each module and never merged across
    //   those sets (entriesAware, no merge threshold). Merging small pieces into their "nearest
    //   neighbour" put one page's code in another's file (a list loaded the user pages, the
    //   dashboard, the form engine: 30 files, ~215 KB on /requisicao's cold load), and with core's
    //   modules split per file it made a chunk import a chunk that imported it back (the built
    //   sign-in page failed with "Cannot read properties of undefined (reading 'lazy')"). Unmerged,
    //   a module's set of users contains its importers' sets, so app chunks only import chunks used
    //   at least as widely, and the groups above import nothing below them: no cycles.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'runtime', test: (id: string) => FIRST_PAGE_LIBS.test(id), priority: 5 },
            { name: 'first', tags: ['$initial'], priority: 4 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 3 },
            { name: 'list', test: LIST_PAGES, priority: 2 },
            { name: 'app', test: () => true, entriesAware: true, priority: 1 },
          ],
        },
      },
    },
  },
});
