// Scale-out: two server instances (two app objects, each with its own pool) over ONE PostgreSQL
// database. 50 concurrent approvals of the same level spread over both → exactly 1 recorded, the rest
// 409; 100 concurrent conversions of the same pré-requisição item → never more than its quantity.
import { createServer, openDatabase, silentLogger } from '@app/server-core';
import { type TestServer, createTestServer, testEngines } from '@app/server-core/testing';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, type User, createFixture, createPerfil, createUser, plugins } from './helpers.js';

const base = process.env.TEST_DATABASE_URL;

// declared in CI even without TEST_DATABASE_URL (testEngines): it then fails, naming the variable
describe.runIf(testEngines().includes('postgres'))('requisicoes on two server instances [postgres]', () => {
  let a: TestServer;
  let b: Awaited<ReturnType<typeof createServer>>;
  let fx: Fixture;
  let rita: User;
  const aprovadores: User[] = [];
  const jwtSecret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    a = await createTestServer(plugins, { engine: 'postgres', jwtSecret });
    const [db] = await a.sql<{ name: string }>('SELECT current_database() AS name');
    const url = new URL(base!);
    url.pathname = `/${db!.name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolMax: 10, logger: silentLogger });
    b = await createServer({ plugins, database, jwtSecret, logger: silentLogger, seed: false });
    fx = await createFixture(a);
    const chefia = await createPerfil(a, fx, 'Chefia', { todos: true });
    rita = await createUser(a, fx, 'rita', await createPerfil(a, fx, 'Requisitante'), [fx.educacao]);
    for (let i = 0; i < 5; i++) aprovadores.push(await createUser(a, fx, `chefe${i}`, chefia));
    const admin = (await a.signIn(undefined, undefined, fx.entidadeId)).token;
    const res = await a.request('/api/requisicoes/alcadas', { token: admin, json: { nivel: 1, nome: 'Chefia', valorMinimo: '0', perfis: [chefia] } });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Request on instance A (even i) or B (odd i). */
  const on = (i: number, path: string, token: string, json: unknown) => {
    const init = { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) };
    return i % 2 === 0 ? a.app.request(`/api/requisicoes${path}`, init) : b.app.request(`/api/requisicoes${path}`, init);
  };

  it('records exactly one approval of a level out of 50 concurrent ones', async () => {
    const created = await on(0, '/requisicoes', rita.token, {
      centroCustoId: fx.educacao,
      tipoSolicitacaoId: fx.tipo,
      categoria: 'compras',
      justificativa: 'Material para o funcionamento das escolas.',
      itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '50' }],
    });
    expect(created.status).toBe(201);
    const r = (await created.json()) as { id: string; version: number };
    const sent = (await (await on(1, `/requisicoes/${r.id}/enviar`, rita.token, { version: r.version })).json()) as { version: number };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => on(i, `/requisicoes/${r.id}/aprovar`, aprovadores[i % aprovadores.length]!.token, { version: sent.version })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const rows = await a.sql<{ n: number }>('SELECT count(*)::int AS n FROM requisicao_aprovacoes WHERE requisicao_id = $1', [r.id]);
    expect(rows[0]!.n).toBe(1);
    const [audit] = await a.sql<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE registro = $1 AND acao = 'aprovar'", [r.id]);
    expect(audit!.n).toBe(1);
  });

  it('never converts more than the quantity of a pré-requisição item under 100 concurrent conversions', async () => {
    const res = await on(0, '/pre-requisicoes', rita.token, {
      centroCustoId: fx.educacao,
      tipoSolicitacaoId: fx.tipo,
      justificativa: 'Demanda de papel das escolas no semestre.',
      itens: [{ produtoId: fx.papel, quantidade: '10', valorUnitario: '25' }],
    });
    const pre = (await res.json()) as { id: string; version: number; itens: { id: string }[] };
    expect((await on(1, `/pre-requisicoes/${pre.id}/enviar`, rita.token, { version: pre.version })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        on(i, '/requisicoes', aprovadores[i % aprovadores.length]!.token, {
          centroCustoId: fx.educacao,
          tipoSolicitacaoId: fx.tipo,
          categoria: 'compras',
          justificativa: 'Conversão concorrente da pré-requisição.',
          itens: [{ produtoId: fx.papel, quantidade: '3', valorUnitario: '25', preRequisicaoItemId: pre.itens[0]!.id }],
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 400)).toHaveLength(97);
    const [sum] = await a.sql<{ total: string }>('SELECT sum(quantidade)::text AS total FROM requisicao_itens WHERE pre_requisicao_item_id = $1', [
      pre.itens[0]!.id,
    ]);
    expect(Number(sum!.total)).toBe(9);
    const [status] = await a.sql<{ status: string }>('SELECT status FROM pre_requisicoes WHERE id = $1', [pre.id]);
    expect(status!.status).toBe('parcialmente_atendida');
  });
});
