// The drizzle tables of @app/registros (src/server/tables.ts) against the database its migrations build.
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import registros from '../src/server/index.js';
import * as tables from '../src/server/tables.js';

describeEachDatabase('registros: schema drift', { plugins: [migrationsOnly(registros)], seed: false }, (t) => {
  it('every drizzle table matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
  });
});
