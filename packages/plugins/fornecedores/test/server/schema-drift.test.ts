// The drizzle tables of @app/fornecedores (src/server/tables.ts) against the database its migrations build.
import registros from '@app/registros/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import fornecedores from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase('fornecedores: schema drift', { plugins: [migrationsOnly(registros), migrationsOnly(fornecedores)], seed: false }, (t) => {
  it('every drizzle table matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
  });
});
