import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: {
    __PKG_NAME__: JSON.stringify('@app/ui'),
    __PKG_VERSION__: JSON.stringify('0.0.0-test'),
  },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    // Let `styles.css?raw` through as text (the contrast test reads the tokens from it).
    css: { include: [/styles\.css/] },
  },
});
