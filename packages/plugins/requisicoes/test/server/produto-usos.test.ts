// The products a pré-requisição or requisição uses are registered by the document kit (issue 19): a
// product is refused deletion naming a document that exists; one taken out of the items is free again;
// a cancelled document keeps its uses (it still references the product); no use is left without its
// document. PGlite and PostgreSQL.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, plugins } from './helpers.js';

type Doc = { id: string; numero: number; ano: number; status: string; version: number };

describeEachDatabase('requisicoes: product uses', { plugins }, (t) => {
  let fx: Fixture;
  let admin: string;
  let rita: User;

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });
  const ok = async (res: Response, status: number): Promise<Doc> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as Doc;
  };
  const excluirProduto = (id: string) => t.server.request(`/api/produtos/produtos/${id}`, { token: admin, method: 'DELETE' });
  const recusa = async (id: string) => {
    const res = await excluirProduto(id);
    expect(res.status).toBe(409);
    return ((await res.json()) as ErrorBody).error;
  };
  const corpo = (produtos: string[], extra: Record<string, unknown> = {}) => ({
    centroCustoId: fx.educacao,
    tipoSolicitacaoId: fx.tipo,
    justificativa: 'Material de expediente para as escolas.',
    itens: produtos.map((produtoId) => ({ produtoId, quantidade: '10', valorUnitario: '2' })),
    ...extra,
  });
  /** Uses of products whose document no longer exists (must stay none). */
  const orfaos = async () =>
    (
      await t.server.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM produto_usos u
          WHERE u.origem = 'requisicoes'
            AND NOT EXISTS (SELECT 1 FROM pre_requisicoes p WHERE p.id::text = u.documento_id)
            AND NOT EXISTS (SELECT 1 FROM requisicoes r WHERE r.id::text = u.documento_id)`,
      )
    )[0]!.n;

  beforeAll(async () => {
    fx = await createFixture(t.server);
    admin = (await t.server.signIn(undefined, undefined, fx.entidadeId)).token;
    rita = await createUser(t.server, fx, 'rita', await createPerfil(t.server, fx, 'Requisitante'), [fx.educacao]);
  });

  it('a product taken out of a draft pré-requisição is free to delete; the one it keeps is refused naming it', async () => {
    const pre = await ok(await api('/pre-requisicoes', rita.token, { json: corpo([fx.papel, fx.caneta]) }), 201);
    const nome = `Pré-requisição ${pre.numero}/${pre.ano}`;
    expect((await recusa(fx.papel)).message).toBe(`Usado em ${nome}. Para tirá-lo das listas de escolha, desative-o.`);

    const alterada = await ok(
      await api(`/pre-requisicoes/${pre.id}`, rita.token, { method: 'PUT', json: { ...corpo([fx.caneta]), version: pre.version } }),
      200,
    );
    expect((await excluirProduto(fx.papel)).status).toBe(204);
    expect((await recusa(fx.caneta)).message).toBe(`Usado em ${nome}. Para tirá-lo das listas de escolha, desative-o.`);

    // numbered, so never deleted: the draft is cancelled and still uses the product it references
    expect(((await (await api(`/pre-requisicoes/${pre.id}`, rita.token, { method: 'DELETE' })).json()) as ErrorBody).error.code).toBe('numerado');
    const cancelada = await ok(
      await api(`/pre-requisicoes/${pre.id}/cancelar`, rita.token, { json: { version: alterada.version, motivo: 'Não precisa mais' } }),
      200,
    );
    expect(cancelada.status).toBe('cancelada');
    expect((await recusa(fx.caneta)).message).toBe(`Usado em ${nome}. Para tirá-lo das listas de escolha, desative-o.`);
    expect(await orfaos()).toBe(0);
  });

  it('a requisição and its duplicate each name themselves; a cancelled one still does', async () => {
    const r = await ok(await api('/requisicoes', rita.token, { json: corpo([fx.cimento], { categoria: 'compras', dotacao: '3.3.90.30' }) }), 201);
    const copia = await ok(await api(`/requisicoes/${r.id}/duplicar`, rita.token, { method: 'POST' }), 201);
    const usos = await t.server.sql<{ descricao: string }>('SELECT descricao FROM produto_usos WHERE produto_id = $1 ORDER BY descricao', [fx.cimento]);
    expect(usos.map((u) => u.descricao).sort()).toEqual([`Requisição ${r.numero}/${r.ano}`, `Requisição ${copia.numero}/${copia.ano}`].sort());

    await ok(await api(`/requisicoes/${r.id}/cancelar`, rita.token, { json: { version: r.version, motivo: 'Feita em duplicidade' } }), 200);
    await ok(await api(`/requisicoes/${copia.id}/cancelar`, rita.token, { json: { version: copia.version, motivo: 'Feita em duplicidade' } }), 200);
    expect((await recusa(fx.cimento)).message).toContain(`Requisição ${r.numero}/${r.ano}`);
    expect(await orfaos()).toBe(0);
  });
});
