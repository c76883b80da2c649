// The API on a real database (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), through the
// shared plugin test server: create and number, the flow (send, accept by someone else, cancel with a
// reason, never delete), the PDF, the OpenAPI document, tag and entidade.
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import { type ErrorBody, describeEachDatabase, withoutSeed } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import plugin from '../../src/server/index.js';
import { __CONST___TAG } from '../../src/shared/index.js';

type Documento = { id: string; numero: number; ano: number; status: string; version: number; valorTotal: string; transicoes: string[]; editavel: boolean };
type User = { token: string; id: string };

describeEachDatabase('@app/__ID__ API', { plugins: [withoutSeed(registrosPlugin), withoutSeed(produtosPlugin), plugin] }, (t) => {
  let autor: User;
  let outro: User;
  let papel: string;
  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/__ID____BASE_PATH__${path}`, { token, ...init });
  const json = async <R>(res: Response, status: number): Promise<R> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as R;
  };
  const criar = (token = autor.token) =>
    api('', token, { json: { assunto: 'Material de expediente', itens: [{ produtoId: papel, quantidade: '3', valorUnitario: '0,3333' }] } });
  const agir = (d: { id: string; version: number }, acao: string, token: string, motivo?: string) =>
    api(`/${d.id}/${acao}`, token, { json: { version: d.version, ...(motivo ? { motivo } : {}) } });

  beforeAll(async () => {
    const { prefeitura } = await t.server.demoEntidades();
    const grupo = await t.server.insert('registros_grupos', { entidade_id: prefeitura, codigo: 'G1', nome: 'Expediente' });
    const unidade = await t.server.insert('registros_unidades', { entidade_id: prefeitura, sigla: 'RESMA', descricao: 'Resma' });
    papel = await t.server.insert('produtos', { entidade_id: prefeitura, codigo: '000001', descricao: 'Papel sulfite A4', tipo: 'material', grupo_id: grupo, unidade_id: unidade });
    autor = await t.server.createUser({ login: 'autor', nome: 'Ana Autora', tags: [__CONST___TAG] });
    outro = await t.server.createUser({ login: 'outro', nome: 'Otávio Outro', tags: [__CONST___TAG] });
  });

  it('creates a numbered draft with exact totals (3 × 0,3333 = 1,00), audited; the next one takes the next number', async () => {
    const d = await json<Documento>(await criar(), 201);
    expect(d).toMatchObject({ status: 'rascunho', version: 1, valorTotal: '1.00', editavel: true, transicoes: ['enviar', 'cancelar'] });
    expect((await json<Documento>(await criar(), 201)).numero).toBe(d.numero + 1);
    const acoes = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = '__ID__' AND registro = $1", [d.id]);
    expect(acoes.map((a) => a.acao)).toEqual(['criar']);
    const empty = await json<ErrorBody>(await api('', autor.token, { json: { assunto: 'Sem itens', itens: [] } }), 400);
    expect(empty.error.fields).toMatchObject({ itens: 'Inclua ao menos um item.' });
  });

  it('is sent by its author and accepted by someone else (never by its author); a numbered document is never deleted', async () => {
    let d = await json<Documento>(await criar(), 201);
    d = await json<Documento>(await agir(d, 'enviar', autor.token), 200);
    expect(d.status).toBe('enviado');
    expect((await json<ErrorBody>(await agir(d, 'aceitar', autor.token), 403)).error.code).toBe('forbidden');
    d = await json<Documento>(await agir(d, 'aceitar', outro.token), 200);
    expect(d).toMatchObject({ status: 'aceito', editavel: false });
    expect((await json<ErrorBody>(await agir(d, 'aceitar', outro.token), 409)).error.code).toBe('invalid_transition');
    expect((await json<ErrorBody>(await api(`/${d.id}`, autor.token, { method: 'DELETE' }), 409)).error.code).toBe('numerado');
    const rascunho = await json<Documento>(await criar(), 201);
    expect((await json<ErrorBody>(await agir(rascunho, 'cancelar', autor.token), 400)).error.fields).toEqual({ motivo: 'Informe o motivo.' });
    expect((await json<Documento>(await agir(rascunho, 'cancelar', autor.token, 'Não é mais necessário.'), 200)).status).toBe('cancelado');
  });

  it('prints the PDF with its number in the file name', async () => {
    const d = await json<Documento>(await criar(), 201);
    const res = await api(`/${d.id}.pdf`, autor.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="documento-${d.numero}-${d.ano}.pdf"`);
    expect(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  it('publishes its routes in the OpenAPI document, each with the tag and an operationId', async () => {
    type Op = { operationId?: string; 'x-permission-tag'?: number };
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, Op>> };
    const op = (method: string, path: string) => doc.paths[`/api/__ID____BASE_PATH__${path}`]?.[method];
    expect(op('get', '')).toMatchObject({ operationId: '__ID__.__CAMEL__.list', 'x-permission-tag': __CONST___TAG });
    expect(op('post', '')?.operationId).toBe('__ID__.__CAMEL__.create');
    expect(op('post', '/{id}/enviar')?.operationId).toBe('__ID__.__CAMEL__.enviar');
    expect(op('get', '/{id}.pdf')?.operationId).toBe('__ID__.__CAMEL__.pdf');
  });

  it('needs tag __TAG__ (403 without it, 401 without a session); another entidade sees none', async () => {
    const semTag = await t.server.createUser({ login: 'sem.tag', tags: [] });
    expect((await api('', semTag.token)).status).toBe(403);
    expect((await t.server.request('/api/__ID____BASE_PATH__')).status).toBe(401);
    const camara = (await t.server.signIn('admin', 'demo1234', (await t.server.demoEntidades()).camara)).token;
    expect((await json<{ total: number }>(await api('', camara), 200)).total).toBe(0);
  });
});
