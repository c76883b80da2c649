import { packageVitestConfig } from '../../vitest.shared.ts';

// unit tests only: e2e/*.spec.ts are Playwright's
export default packageVitestConfig(new URL('.', import.meta.url), { test: { environment: 'jsdom' } });
