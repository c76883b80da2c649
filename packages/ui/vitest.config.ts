import { packageVitestConfig } from '../../vitest.shared.ts';

export default packageVitestConfig(new URL('.', import.meta.url), {
  test: {
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
    // Let `styles.css?raw` through as text (the contrast test reads the tokens from it).
    css: { include: [/styles\.css/] },
  },
});
