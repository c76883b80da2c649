// The API on a real database (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), through the
// shared plugin test server: tag, entidade scope, validation, concurrency and audit.
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import plugin from '../../src/server/index.js';
import { __CONST___TAG } from '../../src/shared/index.js';

type Item = { id: string; nome: string; descricao: string | null; ativo: boolean; version: number };
type PageBody = { items: Item[]; total: number; page: number; pageSize: number };

describeEachDatabase('@app/__ID__ API', { plugins: [plugin] }, (t) => {
  let token: string;
  const api = (path: string, init: Parameters<typeof t.server.request>[1] = {}) => t.server.request(`/api/__ID____BASE_PATH__${path}`, { token, ...init });
  const json = async <R>(res: Response, status: number): Promise<R> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as R;
  };

  beforeAll(async () => {
    // the demo Administrador holds every tag the enabled plugins declare
    token = (await t.server.signIn('admin', 'demo1234', (await t.server.demoEntidades()).prefeitura)).token;
  });

  it('lists the demo rows of the Prefeitura; the Câmara sees none of them', async () => {
    const page = await json<PageBody>(await api('?sort=nome'), 200);
    expect(page.items.map((i) => i.nome)).toEqual(['Primeiro registro', 'Segundo registro']);
    const camara = (await t.server.signIn('admin', 'demo1234', (await t.server.demoEntidades()).camara)).token;
    expect((await json<PageBody>(await t.server.request('/api/__ID____BASE_PATH__', { token: camara }), 200)).total).toBe(0);
  });

  it('create, read, search without accents, update with version (stale → 409), delete; audited', async () => {
    const created = await json<Item>(await api('', { json: { nome: 'Ação de teste', descricao: '' } }), 201);
    expect(created).toMatchObject({ nome: 'Ação de teste', descricao: null, ativo: true, version: 1 });
    expect((await json<Item>(await api(`/${created.id}`), 200)).nome).toBe('Ação de teste');
    expect((await json<PageBody>(await api('?q=acao%20TESTE'), 200)).items.map((i) => i.id)).toEqual([created.id]);
    const updated = await json<Item>(await api(`/${created.id}`, { method: 'PUT', json: { nome: 'Ação revista', version: 1 } }), 200);
    expect(updated.version).toBe(2);
    const stale = await json<ErrorBody>(await api(`/${created.id}`, { method: 'PUT', json: { nome: 'Outra', version: 1 } }), 409);
    expect(stale.error.code).toBe('stale');
    await json(await api(`/${created.id}`, { method: 'DELETE' }), 204);
    await json(await api(`/${created.id}`), 404);
    const acoes = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = '__ID__' AND registro = $1 ORDER BY id", [created.id]);
    expect(acoes.map((a) => a.acao)).toEqual(['criar', 'alterar', 'excluir']);
  });

  it('refuses an empty or duplicate nome with pt-BR messages', async () => {
    const empty = await json<ErrorBody>(await api('', { json: { nome: ' ' } }), 400);
    expect(empty.error.fields).toEqual({ nome: 'Informe o nome.' });
    const dup = await json<ErrorBody>(await api('', { json: { nome: 'PRIMEIRO REGISTRO' } }), 409);
    expect(dup.error.message).toBe('Já existe um registro com este nome.');
  });

  it('needs tag __TAG__: 403 without it, 200 with it, 401 without a session', async () => {
    const without = await t.server.createUser({ login: 'sem.tag', tags: [] });
    expect((await t.server.request('/api/__ID____BASE_PATH__', { token: without.token })).status).toBe(403);
    const withTag = await t.server.createUser({ login: 'com.tag', tags: [__CONST___TAG] });
    expect((await t.server.request('/api/__ID____BASE_PATH__', { token: withTag.token })).status).toBe(200);
    expect((await t.server.request('/api/__ID____BASE_PATH__')).status).toBe(401);
  });
});
