// The drizzle tables of @app/cotacoes (src/server/tables.ts) against the database its migrations build.
import fornecedores from '@app/fornecedores/server';
import memorandos from '@app/memorandos/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import requisicoes from '@app/requisicoes/server';
import { checkSchemaDrift, describeEachDatabase, migrationsOnly } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import cotacoes from '../../src/server/index.js';
import * as tables from '../../src/server/tables.js';

const plugins = [registros, produtos, fornecedores, memorandos, requisicoes, cotacoes].map(migrationsOnly);

describeEachDatabase('cotacoes: schema drift', { plugins, seed: false }, (t) => {
  it('every drizzle table matches its migration', async () => {
    expect(await checkSchemaDrift(t.server, tables)).toEqual([]);
  });
});
