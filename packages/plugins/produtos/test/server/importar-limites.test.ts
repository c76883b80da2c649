// The products import goes through @app/server-core's BUILT worker (dist/spreadsheet-worker.js):
// a file over the bounds answers 413 with the pt-BR message naming the limit.
import registros from '@app/registros/server';
import { type ErrorBody, describeEachDatabase, migrationsOnly, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import produtos from '../../src/server/index.js';
import { createRegistros } from './helpers.js';

describeEachDatabase('produtos: limites da importação', { plugins: [migrationsOnly(registros), withoutSeed(produtos)] }, (t) => {
  let token: string;
  beforeAll(async () => {
    const { prefeitura } = await createRegistros(t.server);
    token = (await t.server.signIn(undefined, undefined, prefeitura.entidadeId)).token;
  });

  it('a CSV over 10 000 rows answers 413 naming the limit; 2 rows are still validated', async () => {
    const header = 'Código;Descrição;Tipo;Grupo;Unidade;Tipo de material';
    const lines = Array.from({ length: 10_001 }, (_v, i) => `;Item ${i};Material;01;UN;Consumo`);
    const res = await t.server.upload('/api/produtos/produtos/importar?dryRun=true', token, { content: [header, ...lines].join('\n') });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error.message).toBe(
      'A planilha tem mais de 10.000 linhas: divida o arquivo (limite de 10.000 linhas por importação).',
    );
    const ok = await t.server.upload('/api/produtos/produtos/importar?dryRun=true', token, { content: [header, ...lines.slice(0, 2)].join('\n') });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, dryRun: true, total: 2 });
  });
});
