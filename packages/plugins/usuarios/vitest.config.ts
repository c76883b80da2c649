import { packageVitestConfig } from '../../../vitest.shared.ts';

// server tests run in node; web tests declare `// @vitest-environment jsdom`
export default packageVitestConfig(new URL('.', import.meta.url));
