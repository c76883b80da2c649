// The drizzle tables @app/usuarios uses (src/server/tables.ts) against the database the migrations build.
import registros from '@app/registros/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import usuarios from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase('usuarios: schema drift', { plugins: [migrationsOnly(registros), migrationsOnly(usuarios)], seed: false }, (t) => {
  it('every drizzle table matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
  });
});
