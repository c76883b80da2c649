import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string; version: string };

// Libraries the first page runs on (the sign-in page included), and the bundler's own helpers.
const FIRST_PAGE_LIBS =
  /node_modules[\\/](react|react-dom|scheduler|jotai|wouter|ky|jwt-decode|use-sync-external-store|regexparam|mitt)[\\/]|vite\/preload-helper|rolldown\/runtime/;

export default defineConfig({
  plugins: [react()],
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
    // The libraries every page, the sign-in page included, runs on: one file instead of one per
    // shared piece (fewer requests, one gzip dictionary).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'runtime', test: (id: string) => FIRST_PAGE_LIBS.test(id) }],
        },
      },
    },
  },
});
