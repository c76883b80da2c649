import { packageVitestConfig } from '../../vitest.shared.ts';

// Real databases and real scrypt (N=2^17): a server takes a few seconds to start.
export default packageVitestConfig(new URL('.', import.meta.url), { test: { hookTimeout: 120_000 } });
