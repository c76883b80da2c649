// The drizzle tables of @app/produtos (src/server/tables.ts) against the database its migrations build.
import registros from '@app/registros/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import produtos from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase('produtos: schema drift', { plugins: [migrationsOnly(registros), migrationsOnly(produtos)], seed: false }, (t) => {
  it('every drizzle table matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
  });
});
