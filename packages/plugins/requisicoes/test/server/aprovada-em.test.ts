// `aprovada_em` (migrations/0005_aprovada_em.sql), the moment a requisição became 'aprovada', on both engines:
// written by the approval of the last level in its own transaction (the instant of that approval record),
// NULL while a level is still awaited, after a rejection or a return, and again when a price research above
// the approved value sends it back to approval; the migration fills the requisições approved before it from
// the last approval of their final round (else their date at 00:00 in America/Sao_Paulo). Never a change in
// the timeline (the approval's own time).
import { readFileSync } from 'node:fs';
import { defineServerPlugin } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { registrarPesquisaDePrecos } from '../../src/server/index.js';
import { type Fixture, type User, createFixture, createPerfil, createUser, insert, plugins } from './helpers.js';

/** What a concluded cotação does to its requisição (@app/cotacoes), in a mutation of its own: POST /api/pesquisa/pesquisa. */
const pesquisa = defineServerPlugin({
  id: 'pesquisa',
  version: '1.0.0',
  core: '^1.0.0',
  dependsOn: ['requisicoes'],
  tags: [],
  routes(router) {
    router.route({
      method: 'post',
      path: '/pesquisa',
      tag: 39,
      summary: 'Pesquisa de preços (teste)',
      request: { body: z.object({ requisicaoId: z.string(), produtoId: z.string(), valorUnitario: z.string() }) },
      responses: { 200: z.object({ reaprovacao: z.boolean() }) },
      handler: async (c, ctx) => {
        const b = c.req.valid('json');
        const r = await ctx.mutate((tx, audit) =>
          registrarPesquisaDePrecos(tx, {
            requisicaoId: b.requisicaoId,
            itens: [{ produtoId: b.produtoId, valorUnitario: b.valorUnitario }],
            origem: 'Cotação 1/2026',
            ctx,
            audit,
          }),
        );
        return c.json({ reaprovacao: r?.reaprovacao ?? false }, 200);
      },
    });
  },
});

type Doc = { id: string; version: number; status: string; aprovadaEm?: string | null };
type Linha = { status: string; aprovada_em: string | null; updated_at: string; ultima: string | null };

describeEachDatabase('requisicoes: aprovada_em, the moment of approval', { plugins: [...plugins, pesquisa] }, (t) => {
  let fx: Fixture;
  let rita: User; // requisitante, Educação
  let chefe: User; // level 1
  let diretor: User; // level 2 (from R$ 10.000,00)

  const api = (path: string, token: string, json?: unknown) => t.server.request(`/api/requisicoes${path}`, { token, ...(json ? { json } : {}) });
  const criar = async (valorUnitario: string) => {
    const res = await api('/requisicoes', rita.token, {
      centroCustoId: fx.educacao,
      tipoSolicitacaoId: fx.tipo,
      categoria: 'compras',
      justificativa: 'Material para o funcionamento das escolas.',
      itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Doc;
  };
  const agir = async (d: Doc, acao: string, token: string, extra: Record<string, unknown> = {}) => {
    const res = await api(`/requisicoes/${d.id}/${acao}`, token, { version: d.version, ...extra });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Doc;
  };
  /**
   * The row as stored, with the instant of the last approval of its round (epoch ms as text: both engines
   * alike), truncated to the millisecond as a JS Date (and so the API's ISO string) truncates it: a bigint
   * cast rounds, and an instant at .5 µs and more read 1 ms later than the answer (flaky in CI).
   */
  const linha = async (id: string) =>
    (
      await t.server.sql<Linha>(
        `SELECT r.status, floor(extract(epoch FROM r.aprovada_em) * 1000)::bigint::text AS aprovada_em,
                floor(extract(epoch FROM r.updated_at) * 1000)::bigint::text AS updated_at,
                (SELECT floor(extract(epoch FROM max(a.created_at)) * 1000)::bigint::text FROM requisicao_aprovacoes a
                  WHERE a.requisicao_id = r.id AND a.ciclo = r.ciclo) AS ultima
           FROM requisicoes r WHERE r.id = $1`,
        [id],
      )
    )[0]!;

  beforeAll(async () => {
    fx = await createFixture(t.server);
    const admin = (await t.server.signIn(undefined, undefined, fx.entidadeId)).token;
    rita = await createUser(t.server, fx, 'rita', await createPerfil(t.server, fx, 'Requisitante'), [fx.educacao]);
    chefe = await createUser(t.server, fx, 'chefe', await createPerfil(t.server, fx, 'Chefia'), [fx.educacao]);
    const diretoria = await createPerfil(t.server, fx, 'Diretoria', { todos: true });
    diretor = await createUser(t.server, fx, 'diretor', diretoria);
    for (const a of [
      { nivel: 1, nome: 'Chefia', valorMinimo: '0', usuarios: [chefe.id] },
      { nivel: 2, nome: 'Diretoria', valorMinimo: '10.000,00', perfis: [diretoria] },
    ]) {
      const res = await api('/alcadas', admin, a);
      expect(res.status, await res.clone().text()).toBe(201);
    }
  });

  it('the approval of the last level sets it, in its transaction, to the instant of that approval', async () => {
    const r = await criar('100');
    expect((await linha(r.id)).aprovada_em).toBeNull();
    const enviada = await agir(r, 'enviar', rita.token);
    expect((await linha(r.id)).aprovada_em).toBeNull();
    const aprovada = await agir(enviada, 'aprovar', chefe.token);
    expect(aprovada.status).toBe('aprovada');
    const l = await linha(r.id);
    expect(l.status).toBe('aprovada');
    expect(l.aprovada_em).not.toBeNull();
    // the approval record and the status change share the transaction's clock
    expect(l.aprovada_em).toBe(l.ultima);
    expect(l.aprovada_em).toBe(l.updated_at);
    // the answer carries it; the timeline does not list it as a change
    expect(new Date(String(aprovada.aprovadaEm)).getTime()).toBe(Number(l.aprovada_em));
    const historico = await (await api(`/requisicoes/${r.id}/historico`, rita.token)).text();
    expect(historico).not.toContain('aprovadaEm');
  });

  it('two levels: NULL while the second awaits, then the second approval; a rejection or a return leaves it NULL', async () => {
    const r = await criar('15000');
    let d = await agir(r, 'enviar', rita.token);
    d = await agir(d, 'aprovar', chefe.token);
    expect(d.status).toBe('em_aprovacao');
    expect((await linha(r.id)).aprovada_em).toBeNull();
    d = await agir(d, 'aprovar', diretor.token);
    const l = await linha(r.id);
    expect([l.status, l.aprovada_em]).toEqual(['aprovada', l.ultima]);

    const reprovada = await agir(await agir(await criar('50'), 'enviar', rita.token), 'reprovar', chefe.token, { motivo: 'Não há dotação.' });
    expect(reprovada.status).toBe('reprovada');
    expect((await linha(reprovada.id)).aprovada_em).toBeNull();
    const devolvida = await agir(await agir(await criar('60'), 'enviar', rita.token), 'devolver', chefe.token, { motivo: 'Detalhe a justificativa.' });
    expect(devolvida.status).toBe('devolvida');
    expect((await linha(devolvida.id)).aprovada_em).toBeNull();
  });

  it('a price research above the approved value sends it back to approval and clears it; the next approval sets it again', async () => {
    const r = await criar('100');
    const aprovada = await agir(await agir(r, 'enviar', rita.token), 'aprovar', chefe.token);
    expect((await linha(r.id)).aprovada_em).not.toBeNull();
    const res = await t.server.request('/api/pesquisa/pesquisa', {
      token: rita.token,
      json: { requisicaoId: r.id, produtoId: fx.papel, valorUnitario: '120' },
    });
    expect(await res.json()).toEqual({ reaprovacao: true });
    expect(await linha(r.id)).toMatchObject({ status: 'em_aprovacao', aprovada_em: null });
    const lida = (await (await api(`/requisicoes/${r.id}`, rita.token)).json()) as Doc;
    expect(lida.version).toBeGreaterThan(aprovada.version);
    await agir(lida, 'aprovar', chefe.token);
    const l = await linha(r.id);
    expect([l.status, l.aprovada_em]).toEqual(['aprovada', l.ultima]);
  });

  it('the migration fills the approved requisições: the last approval of the final round, else the date at 00:00 in São Paulo', async () => {
    let numero = 9000;
    const requisicao = async (status: string, data: string, ciclo: number, aprovacoes: [number, number, string][]) => {
      const id = await insert(t.server, 'requisicoes', {
        entidade_id: fx.entidadeId,
        numero: ++numero,
        ano: 2020,
        data,
        status,
        centro_custo_id: fx.educacao,
        tipo_solicitacao_id: fx.tipo,
        categoria: 'compras',
        justificativa: 'Requisição de antes da migração.',
        solicitante_id: rita.id,
        solicitante_nome: 'Pessoa rita',
        ciclo,
      });
      for (const [round, nivel, instante] of aprovacoes) {
        await insert(t.server, 'requisicao_aprovacoes', {
          entidade_id: fx.entidadeId,
          requisicao_id: id,
          ciclo: round,
          nivel,
          usuario_id: nivel === 1 ? chefe.id : diretor.id,
          usuario_nome: 'Aprovador',
          created_at: instante,
        });
      }
      return id;
    };
    // approved in round 1, back to approval, approved again in round 2 with two levels: the last of round 2
    const duasRodadas = await requisicao('aprovada', '2020-01-02', 2, [
      [1, 1, '2020-01-05T12:00:00Z'],
      [2, 1, '2020-02-10T12:00:00Z'],
      [2, 2, '2020-02-11T02:30:00Z'],
    ]);
    const semAprovacao = await requisicao('aprovada', '2020-03-15', 1, []);
    const emAprovacao = await requisicao('em_aprovacao', '2020-04-01', 1, [[1, 1, '2020-04-02T12:00:00Z']]);
    const migration = readFileSync(new URL('../../migrations/0005_aprovada_em.sql', import.meta.url), 'utf8');
    for (const statement of migration.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim())) await t.server.sql(statement);
    const em = async (id: string) =>
      (
        await t.server.sql<{ em: string | null }>(
          `SELECT to_char(aprovada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS em FROM requisicoes WHERE id = $1`,
          [id],
        )
      )[0]!.em;
    expect(await em(duasRodadas)).toBe('2020-02-11T02:30');
    expect(await em(semAprovacao)).toBe('2020-03-15T03:00');
    expect(await em(emAprovacao)).toBeNull();
    // the consumption's index exists, partial on the approved ones
    const [indice] = await t.server.sql<{ def: string }>("SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'requisicoes_aprovada_em_idx'");
    expect(indice?.def).toMatch(/\(entidade_id, aprovada_em\) INCLUDE \(id, centro_custo_id\) WHERE \(status = 'aprovada'::text\)/);
  });
});
