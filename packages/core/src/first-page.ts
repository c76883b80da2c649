// What the first page (the sign-in page included) runs on: apps/web's createApp and what every
// plugin manifest calls. Not a package export: a tsup entry of its own, so that esbuild keeps this
// code in its own chunk, apart from the kit's pages that @app/core's index also exports. Without
// it, index.js is one module holding createApp and the document pages alike, and the app's bundler
// (which cannot split a module) puts all of it, with zod and TanStack Query, on the sign-in page.
// scripts/bench.mjs (first page ≤ 1.5× a bare React page) and core's first-page test hold it.
export { createApp } from './createApp';
export { definePlugin } from './contract';
export { documentRoutes, resourceRoutes } from './resource/routes';
