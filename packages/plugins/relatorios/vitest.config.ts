import { packageVitestConfig } from '../../../vitest.shared.ts';

// Server tests run in node; web tests (test/web) declare `// @vitest-environment jsdom`.
export default packageVitestConfig(new URL('.', import.meta.url));
