// A line whose total rounds to R$ 0,00 (0,001 × R$ 1,00) is refused, on POST and PUT, on both
// engines (issue 18: it made a memorando of R$ 0,00): 400 at itens.N.quantidade, pt-BR message.
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Fixture, createFixture, plugins } from './helpers.js';

const MENSAGEM = 'O total do item fica em R$ 0,00: aumente a quantidade ou o valor unitário.';

describeEachDatabase('memorandos: linhas de total zero', { plugins }, (t) => {
  let fx: Fixture;
  let token: string;
  beforeAll(async () => {
    fx = await createFixture(t.server);
    token = (await t.server.createUser({ login: 'zero', tags: [29], centros: [fx.educacao] })).token;
  });
  const corpo = (itens: unknown[], extra: Record<string, unknown> = {}) => ({
    origemId: fx.educacao,
    destinoId: fx.compras,
    assunto: 'Material de expediente',
    justificativa: 'Reposição do material de expediente das escolas.',
    prioridade: 'media',
    itens,
    ...extra,
  });

  it('POST and PUT: 400 at itens.N.quantidade; half a cent still counts', async () => {
    const zero = [
      { produtoId: fx.papel, quantidade: '2', valorUnitario: '10' },
      { produtoId: fx.caneta, quantidade: '0,001', valorUnitario: '1,00' },
    ];
    const post = await t.server.request('/api/memorandos/memorandos', { token, json: corpo(zero) });
    expect(post.status).toBe(400);
    expect(((await post.json()) as ErrorBody).error.fields).toEqual({ 'itens.1.quantidade': MENSAGEM });

    const ok = await t.server.request('/api/memorandos/memorandos', {
      token,
      json: corpo([{ produtoId: fx.papel, quantidade: '0,001', valorUnitario: '5,00' }]),
    });
    expect(ok.status).toBe(201);
    const criado = (await ok.json()) as { id: string; version: number; valorTotal: string };
    expect(criado.valorTotal).toBe('0.01');

    const put = await t.server.request(`/api/memorandos/memorandos/${criado.id}`, { token, method: 'PUT', json: corpo(zero, { version: criado.version }) });
    expect(put.status).toBe(400);
    expect(((await put.json()) as ErrorBody).error.fields).toEqual({ 'itens.1.quantidade': MENSAGEM });
    const [row] = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM memorando_itens WHERE memorando_id = $1', [criado.id]);
    expect(Number(row!.n)).toBe(1);
  });
});
