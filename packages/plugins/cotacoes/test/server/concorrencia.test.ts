// One live cotação per requisição whatever the route, under any concurrency (issue 18), on PGlite and
// PostgreSQL (where requests really run in parallel): the kit's POST/PUT and POST /cotacoes/de-requisicao
// lock the requisição the same way, the first wins (201), the others are 409 naming it, never a 5xx;
// the database refuses a second one too (partial unique index). A requisição of another centro in a
// body is a 404, as for a read, and nothing is created.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Mundo, cliente, dia, plugins, prepararMundo, requisicaoAprovada } from './helpers.js';

describeEachDatabase('@app/cotacoes: one live cotação per requisição, body ids in scope', { plugins }, (t) => {
  let m: Mundo;
  const api = cliente(t, () => m.tokens.comprador);
  let numero = 9700;

  beforeAll(async () => {
    m = await prepararMundo(t, 'conc');
  });

  const corpo = (requisicaoId: string | null, itens: { produtoId: string; requisicaoItemId?: string }[], centroCustoId = m.centros.educacao) => ({
    objeto: 'Pesquisa de preços da requisição',
    centroCustoId,
    requisicaoId,
    dataReferencia: dia(),
    metodo: 'media',
    iterar: false,
    itens: itens.map((i) => ({ ...i, quantidade: '1' })),
  });
  const vivas = async (requisicaoId: string) =>
    (await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM cotacoes WHERE requisicao_id = $1 AND status <> 'cancelada'", [requisicaoId]))[0]!.n;
  const nova = async () => requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '1', valorUnitario: '1' }]);

  it('8 parallel POST /cotacoes with one requisicaoId: exactly 1 created, 7 × 409 naming it', async () => {
    const req = await nova();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.call<{ numero: number; ano: number }>('POST', '/cotacoes', corpo(req.id, [{ produtoId: m.produtos[0]!, requisicaoItemId: req.itens[0]! }])),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const criada = answers.find((a) => a.status === 201)!.body;
    const erro = answers.find((a) => a.status === 409)!.body.error!;
    expect(erro.code).toBe('requisicao_cotada');
    expect(erro.message).toBe(`Esta requisição já tem a cotação ${criada.numero}/${criada.ano}: cancele-a para cotar de novo.`);
    expect(erro.fields?.requisicaoId).toBe(erro.message);
    expect(await vivas(req.id)).toBe(1);
  });

  it('8 parallel creations mixing POST /cotacoes and /cotacoes/de-requisicao: 1 live cotação, the rest 409, no 5xx', async () => {
    const req = await nova();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? api.call('POST', '/cotacoes', corpo(req.id, [{ produtoId: m.produtos[0]! }]))
          : api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, i % 4 === 1 ? m.tokens.comprador : m.tokens.autoridade),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(await vivas(req.id)).toBe(1);
  });

  it('a PUT re-linking another cotação to a quoted requisição is 409; the database refuses a second live one too', async () => {
    const req = await nova();
    const primeira = await api.ok<{ id: string; numero: number; ano: number }>('POST', '/cotacoes/de-requisicao', { requisicaoId: req.id }, 201);
    const outra = await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao });
    const put = await api.call('PUT', `/cotacoes/${outra.id}`, { ...corpo(req.id, [{ produtoId: m.produtos[0]! }]), version: outra.version });
    expect(put.status).toBe(409);
    expect(put.body.error?.message).toContain(`${primeira.numero}/${primeira.ano}`);
    await expect(t.server.sql('UPDATE cotacoes SET requisicao_id = $1 WHERE id = $2', [req.id, outra.id])).rejects.toThrow();
    expect(await vivas(req.id)).toBe(1);
  });

  it('a requisição of another centro in a body is a 404 and nothing is created (POST, PUT, de-requisicao)', async () => {
    const saude = await requisicaoAprovada(t, m, ++numero, [{ produtoId: m.produtos[0]!, quantidade: '1', valorUnitario: '1' }], {
      centroCustoId: m.centros.saude,
    });
    const antes = (await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM cotacoes'))[0]!.n;
    const post = await api.call('POST', '/cotacoes', corpo(saude.id, [{ produtoId: m.produtos[0]! }]));
    expect(post.status).toBe(404);
    expect((await api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: saude.id })).status).toBe(404);
    const minha = await api.criar([m.produtos[0]!], { centroCustoId: m.centros.educacao });
    const put = await api.call('PUT', `/cotacoes/${minha.id}`, { ...corpo(saude.id, [{ produtoId: m.produtos[0]! }]), version: minha.version });
    expect(put.status).toBe(404);
    expect(await vivas(saude.id)).toBe(0);
    expect((await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM cotacoes'))[0]!.n).toBe(antes + 1);
    // an id that does not exist answers the same (existence is not revealed); Saúde quotes its own
    expect((await api.call('POST', '/cotacoes', corpo('00000000-0000-4000-8000-000000000099', [{ produtoId: m.produtos[0]! }]))).status).toBe(404);
    expect((await api.call('POST', '/cotacoes/de-requisicao', { requisicaoId: saude.id }, m.tokens.outroCentro)).status).toBe(201);
  });
});
