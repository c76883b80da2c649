// Automatic códigos come from a counter per entidade (migrations/0003_codigo_contador.sql): a manual
// código far above the sequence neither truncates the next number nor blocks later creations, taken
// códigos are skipped, and concurrent creations (and imports) get distinct códigos.
import { readFileSync } from 'node:fs';
import registros from '@app/registros/server';
import { type ErrorBody, describeEachDatabase, migrationsOnly, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import produtos from '../../src/server/index.js';
import type { Produto } from '../../src/shared/index.js';
import { type Fixture, createRegistros } from './helpers.js';

type ImportBody = { ok: boolean; imported: number; errors: { linha: number; coluna: string; motivo: string }[] };

describeEachDatabase('produtos: código automático', { plugins: [migrationsOnly(registros), withoutSeed(produtos)] }, (t) => {
  let token: string;
  let camaraToken: string;
  let pref: Fixture;

  beforeAll(async () => {
    const fixtures = await createRegistros(t.server);
    pref = fixtures.prefeitura;
    token = (await t.server.signIn(undefined, undefined, pref.entidadeId)).token;
    camaraToken = (await t.server.signIn(undefined, undefined, fixtures.camara.entidadeId)).token;
  });

  let seq = 0;
  const item = (codigo?: string) => ({
    ...(codigo === undefined ? {} : { codigo }),
    descricao: `Item de teste número ${++seq}`,
    tipo: 'material',
    grupoId: pref.expediente,
    subGrupoId: null,
    unidadeId: pref.un,
    tipoMaterialId: pref.consumo,
  });
  const create = async (body: Record<string, unknown>) => {
    const res = await t.server.request('/api/produtos/produtos', { token, json: body });
    return { status: res.status, body: (await res.json()) as Produto & ErrorBody };
  };

  it('after a manual código 999999999999999 the automatic ones stay whole, distinct and valid (no 409)', async () => {
    expect((await create(item('999999999999999'))).status).toBe(201);
    const codigos: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { status, body } = await create(item());
      expect(status, JSON.stringify(body)).toBe(201);
      codigos.push(body.codigo);
    }
    expect(new Set(codigos).size).toBe(3);
    for (const codigo of codigos) expect(codigo).toMatch(/^[0-9]{6,}$/);
    // the counter does not jump to the manual código: the sequence goes on
    expect(codigos).toEqual(['000001', '000002', '000003']);
  });

  it('skips códigos already taken by a manual one', async () => {
    expect((await create(item('000004'))).status).toBe(201);
    expect((await create(item('000005'))).status).toBe(201);
    const { status, body } = await create(item());
    expect(status).toBe(201);
    expect(body.codigo).toBe('000006');
  });

  it('concurrent creations get distinct códigos, none refused', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => create(item())));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const codigos = results.map((r) => r.body.codigo);
    expect(new Set(codigos).size).toBe(12);
    for (const codigo of codigos) expect(codigo).toMatch(/^[0-9]{6,}$/);
  });

  it('the import numbers with the same counter, skipping a código written in the same file', async () => {
    const csv = [
      'Código;Descrição;Tipo;Grupo;Unidade;Tipo de material',
      ';Clipe de papel nº 2;Material;01;UN;Consumo',
      '000001;Borracha branca;Material;01;UN;Consumo',
      ';Grampo 26/6;Material;01;UN;Consumo',
    ].join('\n');
    const res = await t.server.upload('/api/produtos/produtos/importar?dryRun=false', camaraToken, { content: csv });
    const body = (await res.json()) as ImportBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ ok: true, imported: 3 });
    const rows = await t.server.sql<{ codigo: string; descricao: string }>(
      "SELECT codigo, descricao FROM produtos WHERE entidade_id = (SELECT entidade_id FROM produtos WHERE descricao = 'Borracha branca') ORDER BY codigo",
    );
    expect(rows.map((r) => [r.codigo, r.descricao])).toEqual([
      ['000001', 'Borracha branca'],
      ['000002', 'Clipe de papel nº 2'],
      ['000003', 'Grampo 26/6'],
    ]);
    // and an automatic creation afterwards goes on from there
    const next = await t.server.request('/api/produtos/produtos', {
      token: camaraToken,
      json: {
        descricao: 'Fita adesiva transparente',
        tipo: 'material',
        grupoId: (await t.server.sql<{ id: string }>("SELECT grupo_id AS id FROM produtos WHERE descricao = 'Borracha branca'"))[0]!.id,
        unidadeId: (await t.server.sql<{ id: string }>("SELECT unidade_id AS id FROM produtos WHERE descricao = 'Borracha branca'"))[0]!.id,
      },
    });
    expect(next.status).toBe(201);
    expect(((await next.json()) as Produto).codigo).toBe('000004');
  });

  it('after a manual 999999999999999, an import with empty códigos gets distinct whole códigos', async () => {
    const csv = [
      'Código;Descrição;Tipo;Grupo;Unidade;Tipo de material',
      ';Pincel atômico azul;Material;01;UN;Consumo',
      ';Pincel atômico preto;Material;01;UN;Consumo',
    ].join('\n');
    const res = await t.server.upload('/api/produtos/produtos/importar?dryRun=false', token, { content: csv });
    const body = (await res.json()) as ImportBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const rows = await t.server.sql<{ codigo: string }>("SELECT codigo FROM produtos WHERE descricao LIKE 'Pincel atômico%' ORDER BY codigo");
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.codigo)).size).toBe(2);
    for (const r of rows) expect(r.codigo).toMatch(/^[0-9]{6,}$/);
  });

  it('the migration starts an existing entidade after its largest numeric código, which is then never cut', async () => {
    const migration = readFileSync(new URL('../../migrations/0003_codigo_contador.sql', import.meta.url), 'utf8');
    const init = /INSERT INTO produtos_codigo_contador \(entidade_id, ultimo\)[\s\S]*?;/.exec(migration)![0];
    await t.server.sql('DELETE FROM produtos_codigo_contador');
    await t.server.sql(init);
    const [row] = await t.server.sql<{ ultimo: string }>('SELECT ultimo::text FROM produtos_codigo_contador WHERE entidade_id = $1', [pref.entidadeId]);
    expect(row?.ultimo).toBe('999999999999999');
    const { status, body } = await create(item());
    expect(status).toBe(201);
    // the old trigger's lpad(…, 6) made this '100000'
    expect(body.codigo).toBe('1000000000000000');
  });
});
