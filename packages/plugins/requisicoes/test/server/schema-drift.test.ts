// The drizzle tables of @app/requisicoes (src/server/tables.ts) against the database its migrations build.
import memorandos from '@app/memorandos/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import requisicoes from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase(
  'requisicoes: schema drift',
  {
    plugins: [migrationsOnly(registros), migrationsOnly(produtos), migrationsOnly(memorandos), migrationsOnly(requisicoes)],
    seed: false,
  },
  (t) => {
    it('every drizzle table matches its migration', async () => {
      expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
    });
  },
);
