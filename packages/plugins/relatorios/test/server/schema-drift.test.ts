// The drizzle table (src/server/tables.ts) against the database the migration builds.
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import plugin from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase('@app/relatorios: schema drift', { plugins: [migrationsOnly(plugin)], seed: false }, (t) => {
  it('every drizzle table matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
  });
});
