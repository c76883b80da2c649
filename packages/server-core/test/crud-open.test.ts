// The opened CRUD core on a registry without `ativo` ('notas' of fixtures/documents-plugin.ts):
// no ativo filter nor ativar/desativar routes, per-record edit/delete rules (409 locked), range
// filters on date, timestamp and numeric columns, set filters with allowed values and uuids.
import { today as saoPauloToday } from '@app/br';
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { documentsPlugin } from './fixtures/documents-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Nota = Record<string, any>;
type Page = { items: Nota[]; total: number };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describeEachDatabase('defineCrudResource without ativo, with rules and filters', { plugins: [documentsPlugin] }, (t) => {
  let token: string;
  let camara: string;
  const tag = `n${randomUUID().slice(0, 8)}`;
  const req = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
    t.server.request(`/api/docs${path}`, {
      token: init.token ?? token,
      ...(init.method ? { method: init.method } : {}),
      ...(init.json === undefined ? {} : { json: init.json }),
    });
  const create = async (json: Nota, as?: string) => {
    const res = await req('/notas', { json, ...(as ? { token: as } : {}) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Nota;
  };
  const textos = async (query: string) => {
    const res = await req(`/notas?q=${tag}&sort=texto&${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as Page).items.map((n) => n.texto.split(' ')[1]);
  };

  beforeAll(async () => {
    const { entidades } = await t.server.signIn();
    const idOf = (prefix: string) => entidades.find((e) => e.nome.startsWith(prefix))!.id;
    token = (await t.server.signIn(DEMO.admin.login, DEMO.senha, idOf('Prefeitura'))).token;
    camara = (await t.server.signIn(DEMO.admin.login, DEMO.senha, idOf('Câmara'))).token;
    await create({ texto: `${tag} um`, categoria: 'a', dia: '2026-01-01', valor: '10.00' });
    await create({ texto: `${tag} dois`, categoria: 'b', dia: '2026-01-31', valor: '20.50' });
    await create({ texto: `${tag} tres`, categoria: 'c', dia: '2026-02-01', valor: null });
    await create({ texto: `${tag} outra`, categoria: 'a', dia: '2026-01-15' }, camara);
  });

  it('has no ativo: answers without it, ignores ?ativo=, has no ativar/desativar routes', async () => {
    const nota = await create({ texto: `${tag} quatro`, categoria: 'a', dia: '2026-03-01' });
    expect(nota).toMatchObject({ version: 1, bloqueada: false });
    expect(nota).not.toHaveProperty('ativo');
    expect(await textos('ativo=false')).toEqual(['dois', 'quatro', 'tres', 'um']);
    expect((await req(`/notas/${nota.id}/desativar`, { method: 'POST' })).status).toBe(404);
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/api/docs/notas'))
        .sort(),
    ).toEqual(['/api/docs/notas', '/api/docs/notas.csv', '/api/docs/notas.xlsx', '/api/docs/notas/{id}']);
    // deleting does not suggest deactivating
    expect((await req(`/notas/${nota.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await textos('')).toEqual(['dois', 'tres', 'um']);
  });

  it('refuses to change or delete a record its rules lock (409 locked, under the row lock)', async () => {
    const nota = await create({ texto: `${tag} travada`, categoria: 'a', dia: '2026-03-02', bloqueada: true });
    const put = await req(`/notas/${nota.id}`, { method: 'PUT', json: { texto: 'mudou', categoria: 'a', dia: '2026-03-02', version: 1 } });
    expect(put.status).toBe(409);
    expect(await put.json()).toEqual({ error: { code: 'locked', message: 'Esta nota está bloqueada.' } });
    const del = await req(`/notas/${nota.id}`, { method: 'DELETE' });
    expect(await del.json()).toEqual({ error: { code: 'locked', message: 'Uma nota bloqueada não pode ser excluída.' } });
    // the version is checked first: an old version is 'stale' even on a locked record
    const stale = await req(`/notas/${nota.id}`, { method: 'PUT', json: { texto: 'mudou', categoria: 'a', dia: '2026-03-02', version: 9 } });
    expect(((await stale.json()) as ErrorBody).error.code).toBe('stale');
    // unlocked in the database: the rule follows the row, not the request
    await t.server.sql('UPDATE doc_notas SET bloqueada = false WHERE id = $1', [nota.id]);
    const ok = await req(`/notas/${nota.id}`, { method: 'PUT', json: { texto: `${tag} solta`, categoria: 'a', dia: '2026-03-02', version: 1 } });
    expect(ok.status).toBe(200);
    expect((await req(`/notas/${nota.id}`, { method: 'DELETE' })).status).toBe(204);
    // another entidade's record: 404 before any rule
    const theirs = await create({ texto: `${tag} alheia`, categoria: 'a', dia: '2026-03-03', bloqueada: true }, camara);
    expect((await req(`/notas/${theirs.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('sorts by a date column (no text collation on dates, numerics or uuids)', async () => {
    const res = await req(`/notas?q=${tag}&sort=-dia`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Page).items.map((n) => n.dia)).toEqual(['2026-02-01', '2026-01-31', '2026-01-01']);
  });

  it('filters by date, timestamp and numeric ranges (inclusive)', async () => {
    expect(await textos('diaDe=2026-01-01&diaAte=2026-01-31')).toEqual(['dois', 'um']);
    expect(await textos('diaDe=2026-01-31')).toEqual(['dois', 'tres']);
    // @app/br's one date schema also reads dd/mm/aaaa (as people write it): the same day
    expect(await textos('diaDe=31/01/2026')).toEqual(['dois', 'tres']);
    expect(await textos('diaAte=2025-12-31')).toEqual([]);
    expect(await textos('diaDe=&diaAte=')).toEqual(['dois', 'tres', 'um']);
    expect(await textos('valorDe=10&valorAte=20.5')).toEqual(['dois', 'um']);
    expect(await textos('valorDe=10.01')).toEqual(['dois']);
    const today = saoPauloToday();
    expect(await textos(`criadaEmDe=${today}&criadaEmAte=${today}`)).toEqual(['dois', 'tres', 'um']);
    expect(await textos('criadaEmAte=2020-01-01')).toEqual([]);
    for (const [query, field, message] of [
      ['diaDe=31-01-2026', 'diaDe', 'Data: use o formato dd/mm/aaaa.'],
      ['diaDe=31/02/2026', 'diaDe', 'Data: data inexistente.'],
      ['diaAte=2026-02-29', 'diaAte', 'Data: data inexistente.'],
      ['diaDe=2026-02-01&diaAte=2026-01-01', 'diaAte', 'A data final é anterior à inicial.'],
      ['valorDe=1,5', 'valorDe', 'Informe um número, por exemplo 1234.56.'],
    ] as const) {
      const res = await req(`/notas?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as ErrorBody).error.fields, query).toEqual({ [field]: message });
    }
    // the export takes the same filters
    const csv = await (await req(`/notas.csv?q=${tag}&sort=texto&diaDe=2026-01-01&diaAte=2026-01-31`)).text();
    expect(csv.trimEnd().split('\r\n')).toEqual(['Texto;Dia', `${tag} dois;2026-01-31`, `${tag} um;2026-01-01`]);
  });

  it('filters by sets: a comma list or repeated parameters, allowed values only, uuids checked', async () => {
    expect(await textos('categoria=a,b')).toEqual(['dois', 'um']);
    expect(await textos('categoria=a&categoria=c')).toEqual(['tres', 'um']);
    expect(await textos('categoria= b , b ,')).toEqual(['dois']);
    const bad = await req('/notas?categoria=a,z');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.fields).toEqual({ categoria: "Valor inválido: 'z'. Use a, b, c." });
    const um = (await (await req(`/notas?q=${tag}%20um`)).json()) as Page;
    expect(await textos(`id=${um.items[0]!.id},${randomUUID()}`)).toEqual(['um']);
    const badId = await req('/notas?id=abc');
    expect(((await badId.json()) as ErrorBody).error.fields).toEqual({ id: 'Identificador inválido.' });
    const many = Array.from({ length: 101 }, () => randomUUID()).join(',');
    expect(((await (await req(`/notas?id=${many}`)).json()) as ErrorBody).error.fields).toEqual({ id: 'Informe no máximo 100 valores.' });
  });
});
