// Replaced at build time by tsup (see tsup.base.ts) and by Vite/vitest define.
declare const __PKG_NAME__: string;
declare const __PKG_VERSION__: string;
