import { packageVitestConfig } from '../../../vitest.shared.ts';

// server tests run in node; web tests declare `// @vitest-environment jsdom`.
// Each API suite starts a server on a fresh database (PGlite, and PostgreSQL with TEST_DATABASE_URL)
// with real scrypt hashes: generous timeouts for a loaded CI machine.
export default packageVitestConfig(new URL('.', import.meta.url), { test: { testTimeout: 60_000, hookTimeout: 240_000 } });
