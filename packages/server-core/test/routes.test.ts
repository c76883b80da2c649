import { beforeAll, expect, it } from 'vitest';
import type { Logger } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';
import { TESTE_TAG, testPlugin } from './fixtures/test-plugin.js';

type ErrorJson = { error: { code: string; message: string; fields?: Record<string, string> } };

/** Errors the server logged (kept to assert on, instead of printing them). */
const logged: { message: string; details: unknown[] }[] = [];
const logger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: (message, ...details) => logged.push({ message, details }),
};

describeEachDatabase('plugin routes: permission, validation, errors, audit', { plugins: [testPlugin], logger }, (t) => {
  let admin: string;
  let consulta: string;
  beforeAll(async () => {
    admin = (await t.server.signIn()).token;
    consulta = (await t.server.signIn('consulta', 'demo1234')).token;
  });

  it('answers 403 forbidden when the tag is missing, and audits the denial', async () => {
    const res = await t.server.request('/api/teste/itens', { token: consulta });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: 'forbidden', message: 'Você não tem permissão para acessar este recurso.' },
    });
    const rows = await t.server.sql<{ plugin: string; depois: Record<string, unknown> }>("SELECT plugin, depois FROM audit_log WHERE acao = 'acesso_negado'");
    expect(rows).toEqual([{ plugin: 'teste', depois: { tag: TESTE_TAG, metodo: 'GET', caminho: '/api/teste/itens' } }]);
  });

  it('lets any signed-in user through an exempt tag (0), and the public route without a token', async () => {
    const res = await t.server.request('/api/teste/livre', { token: consulta });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, usuario: 'consulta', tags: [], temTeste: false });
    const pub = await t.server.request('/api/teste/publico');
    expect(pub.status).toBe(200);
    expect(await pub.json()).toEqual({ ok: true, user: null, plugins: ['teste'] });
  });

  it('checks token, then tag, then body: 401 before 403 before 400', async () => {
    const bad = { nome: 'x' };
    expect((await t.server.request('/api/teste/itens', { json: bad })).status).toBe(401);
    expect((await t.server.request('/api/teste/itens', { token: consulta, json: bad })).status).toBe(403);
    expect((await t.server.request('/api/teste/itens', { token: admin, json: bad })).status).toBe(400);
  });

  it('answers 400 validation_error with one pt-BR message per field', async () => {
    const res = await t.server.request('/api/teste/itens', { token: admin, json: { nome: 'ab', cpf: '123', quantidade: -1 } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorJson;
    expect(body.error.code).toBe('validation_error');
    expect(body.error.message).toBe('Verifique os campos destacados.');
    expect(body.error.fields).toEqual({
      nome: 'Informe ao menos 3 letras.',
      cpf: 'CPF deve ter 11 dígitos.',
      quantidade: 'Pequeno demais: esperava que o número fosse > 0',
    });
    const missing = (await (await t.server.request('/api/teste/itens', { token: admin, json: {} })).json()) as ErrorJson;
    expect(missing.error.fields).toEqual({ nome: 'Campo obrigatório.', quantidade: 'Campo obrigatório.' });
    const query = await t.server.request('/api/teste/itens?page=0&pageSize=abc', { token: admin });
    expect(query.status).toBe(400);
    expect(((await query.json()) as ErrorJson).error.fields).toEqual({
      page: 'Pequeno demais: esperava que o número fosse >= 1',
      pageSize: 'Entrada inválida: esperava um número, recebeu um valor "NaN"',
    });
    const params = await t.server.request('/api/teste/itens/nao-e-uuid', { method: 'PUT', token: admin, json: {} });
    expect(params.status).toBe(400);
    expect(((await params.json()) as ErrorJson).error.fields?.id).toBe('Formato do UUID inválido');
  });

  it('creates and changes a record in one transaction with field-level, CPF-masked audit rows', async () => {
    const created = await t.server.request('/api/teste/itens', {
      token: admin,
      json: { nome: 'Caneta azul', cpf: '12345678901', quantidade: 10 },
    });
    expect(created.status).toBe(201);
    const item = (await created.json()) as { id: string; version: number };
    const changed = await t.server.request(`/api/teste/itens/${item.id}`, {
      method: 'PUT',
      token: admin,
      json: { nome: 'Caneta azul', cpf: '12345678902', quantidade: 12, version: item.version },
    });
    expect(changed.status).toBe(200);
    const stale = await t.server.request(`/api/teste/itens/${item.id}`, {
      method: 'PUT',
      token: admin,
      json: { nome: 'Caneta', quantidade: 1, version: item.version },
    });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorJson).error.code).toBe('conflict');

    const rows = await t.server.sql<{
      acao: string;
      plugin: string;
      usuario_id: string;
      entidade_id: string;
      antes: unknown;
      depois: unknown;
    }>('SELECT acao, plugin, usuario_id, entidade_id, antes, depois FROM audit_log WHERE registro = $1 ORDER BY id', [item.id]);
    expect(rows.map((r) => r.acao)).toEqual(['criar', 'alterar']);
    expect(rows[0]!.plugin).toBe('teste');
    expect(rows[0]!.antes).toBeNull();
    expect(rows[0]!.depois).toEqual({ id: item.id, nome: 'Caneta azul', cpf: '***.456.789-**', quantidade: 10, version: 1 });
    // only what changed, old → new; the CPF change is recorded though both sides are masked
    expect(rows[1]!.antes).toEqual({ cpf: '***.456.789-**', quantidade: 10, version: 1 });
    expect(rows[1]!.depois).toEqual({ cpf: '***.456.789-**', quantidade: 12, version: 2 });
    const session = (await (await t.server.request('/api/session', { token: admin })).json()) as {
      user: { id: string };
      entidade: { id: string };
    };
    expect(rows[1]!.usuario_id).toBe(session.user.id);
    expect(rows[1]!.entidade_id).toBe(session.entidade.id);
  });

  it('rolls the change back when the handler fails inside mutate (no row, no audit)', async () => {
    const before = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    const dup = await t.server.request('/api/teste/itens', { token: admin, json: { nome: 'Caneta azul', quantidade: 1 } });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toEqual({ error: { code: 'conflict', message: 'Já existe um registro com estes dados.' } });
    const after = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('lists only the entidade rows, paginated', async () => {
    const res = await t.server.request('/api/teste/itens?q=caneta&page=1&pageSize=5', { token: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ total: 1, page: 1, pageSize: 5, items: [{ nome: 'Caneta azul' }] });
  });

  it('answers 500 JSON without the message or stack of an unexpected error', async () => {
    const res = await t.server.request('/api/teste/erro', { token: admin });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal_error', message: 'Erro interno do servidor. Tente novamente em instantes.' },
    });
    expect(text).not.toContain('segredo');
    expect(text).not.toContain('.ts');
    // …but the server logged it, with its stack
    const entry = logged.find((l) => l.message === 'GET /api/teste/erro failed');
    expect(entry).toBeDefined();
    expect((entry!.details[0] as Error).message).toBe('segredo interno que não pode vazar');
  });

  it('answers 404 JSON for unknown /api paths', async () => {
    for (const path of ['/api/nada', '/api/teste/nada', '/api']) {
      const res = await t.server.request(path, { token: admin });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'Recurso não encontrado.' } });
    }
  });

  it('fails fast (instead of hanging) when ctx.db is used inside mutate on the embedded database', async () => {
    const res = await t.server.request('/api/teste/reentrada', { token: admin });
    expect(res.status).toBe(t.engine === 'pglite' ? 500 : 200);
    if (t.engine === 'pglite') {
      const entry = logged.find((l) => l.message === 'GET /api/teste/reentrada failed');
      expect(entry).toBeDefined();
      expect(String((entry!.details[0] as Error).cause)).toMatch(/Use the transaction handle `tx`/);
    }
  });
});
