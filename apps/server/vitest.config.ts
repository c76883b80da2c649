import { packageVitestConfig } from '../../vitest.shared.ts';

// Real databases and real scrypt (N=2^17): a server takes a few seconds to start, and a test that
// creates two embedded databases from nothing (initdb, migrations, demo data) took 14–30 s on a busy
// 2-core CI machine running the browser tests beside it.
export default packageVitestConfig(new URL('.', import.meta.url), { test: { testTimeout: 120_000, hookTimeout: 120_000 } });
