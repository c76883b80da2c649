// defineLookup: read-only picker routes over another table under the calling plugin's tag: the
// caller's entidade only, active rows by default, accent-insensitive search, declared filters.
import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, expect, it } from 'vitest';
import { CONTROLE_INTERNO_TAG, defineLookup, defineServerPlugin } from '../src/index.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';

const itens = pgTable('lk_itens', {
  id: uuid('id').primaryKey(),
  entidadeId: uuid('entidade_id').notNull(),
  codigo: text('codigo').notNull(),
  nome: text('nome').notNull(),
  grupo: text('grupo').notNull(),
  ativo: boolean('ativo').notNull(),
  busca: text('busca').generatedAlwaysAs(sql.raw("compras_busca(codigo || ' ' || nome)")),
});

const plugin = defineServerPlugin({
  id: 'lk',
  version: '0.0.0-test',
  core: '^1.0.0',
  tags: [{ tag: 92, nome: 'Lookup' }],
  migrations: new URL('./fixtures/lookup-migrations/', import.meta.url),
  routes(router) {
    defineLookup(router, {
      path: '/itens',
      tag: 92,
      summary: 'Itens para escolher',
      table: itens,
      fields: { codigo: itens.codigo, nome: itens.nome },
      busca: itens.busca,
      order: itens.codigo,
      filters: { grupo: (_ctx, value) => sql`${itens.grupo} = ${value}` },
    });
    defineLookup(router, {
      path: '/alimentos',
      tag: 92,
      summary: 'Só alimentos',
      table: itens,
      fields: { codigo: itens.codigo, nome: itens.nome },
      busca: itens.busca,
      order: itens.codigo,
      where: () => sql`${itens.grupo} = 'alimentos'`,
    });
    defineLookup(router, {
      path: '/papelaria',
      tag: 92,
      summary: 'Papelaria por nome',
      table: itens,
      fields: { codigo: itens.codigo, nome: itens.nome },
      busca: itens.busca,
      order: itens.nome,
      where: () => sql`${itens.grupo} = 'papelaria'`,
    });
  },
});

type Page = { items: { id: string; codigo: string; nome: string; ativo: boolean }[]; total: number };

describeEachDatabase('defineLookup', { plugins: [plugin] }, (t) => {
  let token: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    const [cam] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj]);
    for (const [key, entidade, codigo, nome, grupo, ativo] of [
      ['acucar', pref!.id, '02', 'Açúcar cristal', 'alimentos', true],
      ['arroz', pref!.id, '01', 'Arroz tipo 1', 'alimentos', true],
      ['caneta', pref!.id, '03', 'Caneta azul', 'expediente', true],
      ['velho', pref!.id, '04', 'Açúcar mascavo antigo', 'alimentos', false],
      ['camara', cam!.id, '01', 'Açúcar da Câmara', 'alimentos', true],
    ] as const) {
      const [row] = await t.server.sql<{ id: string }>(
        'INSERT INTO lk_itens (entidade_id, codigo, nome, grupo, ativo) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [entidade, codigo, nome, grupo, ativo],
      );
      ids[key] = row!.id;
    }
    token = (await t.server.signIn(undefined, undefined, pref!.id)).token;
  });
  const get = async (path: string, as = token) => {
    const res = await t.server.request(`/api/lk${path}`, { token: as });
    return { status: res.status, body: (await res.json()) as Page & { nome?: string } };
  };

  it('lists the active rows of the entidade in order, searched without accents, filtered, paged', async () => {
    expect((await get('/itens')).body.items.map((i) => i.codigo)).toEqual(['01', '02', '03']);
    expect((await get('/itens?q=ACUCAR')).body.items.map((i) => i.id)).toEqual([ids.acucar]);
    expect((await get('/itens?q=acucar&ativo=todos')).body.items.map((i) => i.id)).toEqual([ids.acucar, ids.velho]);
    expect((await get('/itens?grupo=expediente')).body.items.map((i) => i.id)).toEqual([ids.caneta]);
    const page2 = await get('/itens?pageSize=2&page=2');
    expect([page2.body.total, page2.body.items.map((i) => i.codigo)]).toEqual([3, ['03']]);
    expect((await get('/itens?q=arroz')).body.items[0]).toEqual({ id: ids.arroz, ativo: true, codigo: '01', nome: 'Arroz tipo 1' });
  });

  it('lists only the rows `where` admits; reading by id still finds the others (a value chosen before keeps its name)', async () => {
    expect((await get('/alimentos')).body.items.map((i) => i.id)).toEqual([ids.arroz, ids.acucar]);
    expect((await get('/alimentos?q=caneta')).body.total).toBe(0);
    expect((await get(`/alimentos/${ids.caneta}`)).body.nome).toBe('Caneta azul');
  });

  it("reads one row by id (an inactive one too), 404 for another entidade's, 403 without the tag", async () => {
    expect((await get(`/itens/${ids.velho}`)).body.nome).toBe('Açúcar mascavo antigo');
    expect((await get(`/itens/${ids.camara}`)).status).toBe(404);
    const consulta = (await t.server.signIn('consulta', 'demo1234')).token;
    expect((await get('/itens', consulta)).status).toBe(403);
    expect((await get(`/itens/${ids.arroz}`, consulta)).status).toBe(403);
  });

  it('opens to the controle interno, read-only: its lists filter by these names (the auditor had 403 on the centros)', async () => {
    const { token: auditor } = await t.server.createUser({ login: 'auditor_lookup', tags: [CONTROLE_INTERNO_TAG] });
    expect((await get('/itens', auditor)).body.items.map((i) => i.codigo)).toEqual(['01', '02', '03']);
    expect((await get(`/itens/${ids.velho}`, auditor)).body.nome).toBe('Açúcar mascavo antigo');
    expect((await get(`/itens/${ids.camara}`, auditor)).status).toBe(404);
  });

  it('ranks a search by relevance: the name starting with it, then a word starting with it, then the rest (then by name)', async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    for (const [codigo, nome] of [
      ['10', 'Apapelado decorativo'],
      ['11', 'Caixa de papelão'],
      ['12', 'Envelope pardo (papel kraft)'],
      ['13', 'Papel sulfite A4'],
      ['14', 'Papel sulfite A3 reciclado'],
      ['15', 'Bloco de papel sulfite'],
    ]) {
      await t.server.sql("INSERT INTO lk_itens (entidade_id, codigo, nome, grupo, ativo) VALUES ($1, $2, $3, 'papelaria', true)", [pref!.id, codigo, nome]);
    }
    const nomes = async (q: string) => (await get(`/papelaria?q=${encodeURIComponent(q)}`)).body.items.map((i) => i.nome);
    expect(await nomes('papel')).toEqual([
      'Papel sulfite A3 reciclado',
      'Papel sulfite A4',
      'Bloco de papel sulfite',
      'Caixa de papelão',
      'Envelope pardo (papel kraft)',
      'Apapelado decorativo',
    ]);
    expect(await nomes('PAPEL SULFITE a4')).toEqual(['Papel sulfite A4']);
    expect(await nomes('sulfite papel')).toEqual(['Bloco de papel sulfite', 'Papel sulfite A3 reciclado', 'Papel sulfite A4']);
    expect((await get('/papelaria')).body.items.map((i) => i.codigo)).toEqual(['10', '15', '11', '12', '14', '13']);
  });
});
