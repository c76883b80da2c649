// With CI set and TEST_DATABASE_URL missing, the [postgres] suites must fail, not vanish (issue 18:
// describeEachDatabase declared nothing and audit-roles.test.ts `continue`d).
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer, requireTestDatabaseUrl, testEngines } from '../src/testing.js';

const saved = { CI: process.env.CI, TEST_DATABASE_URL: process.env.TEST_DATABASE_URL };
const set = (name: 'CI' | 'TEST_DATABASE_URL', value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};

describe('the PostgreSQL engine in CI', () => {
  afterEach(() => {
    set('CI', saved.CI);
    set('TEST_DATABASE_URL', saved.TEST_DATABASE_URL);
  });

  it('CI without TEST_DATABASE_URL: the postgres engine is declared and its server fails with a clear message', async () => {
    set('CI', 'true');
    set('TEST_DATABASE_URL', undefined);
    expect(testEngines()).toEqual(['pglite', 'postgres']);
    expect(() => requireTestDatabaseUrl()).toThrow('CI is set but TEST_DATABASE_URL is missing: the [postgres] suites must run in CI.');
    await expect(createTestServer([], { engine: 'postgres' })).rejects.toThrow(/CI is set but TEST_DATABASE_URL is missing/);
  });

  it('outside CI without TEST_DATABASE_URL: PGlite only', () => {
    set('TEST_DATABASE_URL', undefined);
    for (const ci of [undefined, '', '0', 'false']) {
      set('CI', ci);
      expect(testEngines(), String(ci)).toEqual(['pglite']);
    }
    expect(() => requireTestDatabaseUrl()).toThrow(/needs TEST_DATABASE_URL/);
  });

  it('with TEST_DATABASE_URL: both engines, CI or not', () => {
    set('TEST_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres');
    for (const ci of [undefined, 'true']) {
      set('CI', ci);
      expect(testEngines()).toEqual(['pglite', 'postgres']);
    }
    expect(requireTestDatabaseUrl()).toBe('postgres://postgres@127.0.0.1:5432/postgres');
  });
});
