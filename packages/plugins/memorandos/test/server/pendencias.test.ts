// "Memorandos a aceitar" on the kit's GET /api/pendencias: the memorandos sent (enviado) to a centro of
// the person, never counted for their solicitante nor for any of their authors (who sent them), only
// for holders of tag 29, and equal, for each person, to the memorandos whose row offers 'aceitar'.
import { RASCUNHOS_ALHEIOS_TAG } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type Fixture, createFixture, plugins } from './helpers.js';

type Pessoa = { token: string; id: string };
type Pendencias = { items: { id: string; label: string; href: string; total: number }[] };

describeEachDatabase('memorandos: pendências (a aceitar)', { plugins }, (t) => {
  let fx: Fixture;
  let rita: Pessoa;
  let bruno: Pessoa;
  let sara: Pessoa;
  let gestor: Pessoa;
  let duda: Pessoa;
  let semTag: Pessoa;

  beforeAll(async () => {
    fx = await createFixture(t.server);
    rita = await t.server.createUser({ login: 'p.rita', tags: [29], centros: [fx.educacao] });
    bruno = await t.server.createUser({ login: 'p.bruno', tags: [29], centros: [fx.compras] });
    sara = await t.server.createUser({ login: 'p.sara', tags: [29], centros: [fx.saude] });
    gestor = await t.server.createUser({ login: 'p.gestor', tags: [29], todosCentros: true });
    // works in both the origin and the destination, and may act on other people's drafts (tag 40)
    duda = await t.server.createUser({ login: 'p.duda', tags: [29, RASCUNHOS_ALHEIOS_TAG], centros: [fx.educacao, fx.compras] });
    semTag = await t.server.createUser({ login: 'p.sem', tags: [], todosCentros: true });
  });

  const api = (path: string, token: string, json?: unknown) => t.server.request(`/api/memorandos${path}`, { token, ...(json ? { json } : {}) });
  const criar = async (token: string) => {
    const res = await api('/memorandos', token, {
      origemId: fx.educacao,
      destinoId: fx.compras,
      assunto: 'Material de expediente',
      justificativa: 'Reposição do material de expediente das escolas no semestre.',
      prioridade: 'media',
      dataDesejada: '2099-03-31',
      itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '10' }],
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; version: number };
  };
  const agir = async (m: { id: string; version: number }, acao: string, token: string) => {
    const res = await api(`/memorandos/${m.id}/${acao}`, token, { version: m.version });
    expect(res.status, acao).toBe(200);
    return (await res.json()) as { id: string; version: number };
  };
  const aAceitar = async (p: Pessoa) => {
    const res = await t.server.request('/api/pendencias', { token: p.token });
    expect(res.status).toBe(200);
    return ((await res.json()) as Pendencias).items.find((i) => i.id === 'memorandos.a-aceitar')?.total;
  };
  /** The per-row rule: the memorandos the person sees whose row offers 'aceitar'. */
  const porLinha = async (p: Pessoa) => {
    const res = await api('/memorandos?status=enviado&pageSize=100', p.token);
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: { transicoes: string[] }[] }).items.filter((m) => m.transicoes.includes('aceitar')).length;
  };

  it('counts the memorandos sent to the person’s centro, not their own nor the ones they sent, as the rows say', async () => {
    const m1 = await agir(await criar(rita.token), 'enviar', rita.token); // Rita's, sent by Rita
    await agir(await criar(gestor.token), 'enviar', gestor.token); // the gestor's own
    await agir(await criar(rita.token), 'enviar', duda.token); // Rita's, sent by Duda (a remetente: an author)
    const esperado: [string, Pessoa, number][] = [
      ['rita', rita, 0], // the solicitante, and Educação is not the destino
      ['bruno', bruno, 3],
      ['sara', sara, 0],
      ['gestor', gestor, 2], // every centro, except the one the gestor wrote
      ['duda', duda, 2], // Compras: Rita's and the gestor's, not the one Duda sent (a remetente: 3 without that rule)
    ];
    for (const [login, p, n] of esperado) {
      expect([login, await aAceitar(p)]).toEqual([login, n]);
      expect([login, await porLinha(p)]).toEqual([login, n]);
    }
    expect(((await (await t.server.request('/api/pendencias', { token: bruno.token })).json()) as Pendencias).items).toContainEqual({
      id: 'memorandos.a-aceitar',
      label: 'Memorandos a aceitar',
      href: '/memorando?status=enviado',
      total: 3,
      dias: 0, // sent today
    });
    // without tag 29: nothing of memorandos
    expect(await aAceitar(semTag)).toBeUndefined();
    // once accepted, it no longer waits
    await agir(m1, 'aceitar', bruno.token);
    expect(await aAceitar(bruno)).toBe(2);
  });
});
