// The drizzle tables of @app/memorandos (src/server/tables.ts) against the database its migrations build.
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import memorandos from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase(
  'memorandos: schema drift',
  { plugins: [migrationsOnly(registros), migrationsOnly(produtos), migrationsOnly(memorandos)], seed: false },
  (t) => {
    it('every drizzle table matches its migration', async () => {
      expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
    });
  },
);
