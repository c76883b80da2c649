import { packageVitestConfig } from '../../vitest.shared';

export default packageVitestConfig(new URL('.', import.meta.url), {
  test: {
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
  },
});
