// The drizzle tables (src/server/tables.ts) against the database the migrations build.
import memorandos from '@app/memorandos/server';
import pca from '@app/pca/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import requisicoes from '@app/requisicoes/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import plugin from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

describeEachDatabase(
  '@app/pncp: schema drift',
  {
    plugins: [
      migrationsOnly(registros),
      migrationsOnly(produtos),
      migrationsOnly(memorandos),
      migrationsOnly(requisicoes),
      migrationsOnly(pca),
      migrationsOnly(plugin),
    ],
    seed: false,
  },
  (t) => {
    it('every drizzle table matches its migration', async () => {
      expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
    });
  },
);
