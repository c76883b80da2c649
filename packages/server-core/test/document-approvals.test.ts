// Approvals by value level in the document kit (defineDocumentApprovals), on a fixture document
// (fixtures/approvals-plugin.ts), on PGlite and PostgreSQL:
// - the levels an amount needs (a value equal to a minimum takes that level; one cent either side);
//   a centro's own row replaces the general row of its level; no level → 409 sem_alcada;
// - who decides: the titular of the awaited level; when nobody apto is, the next higher level; then
//   the substitutes named on the level (recorded "por substituição");
// - segregation: the author never decides, nor the author of the document's sources, and nobody
//   decides two levels of a round;
// - reasons are required on return and reject; e-mails go to exactly who can act, then to the author;
// - the queue (?aguardandoMinha=1), the menu count and PENDENCIAS agree with the per-record role;
// - one approval per level under concurrency (PostgreSQL): two approvers at once → 200 and 409.
import { defineFlow } from '@app/documents';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDocumentResource } from '../src/index.js';
import { recordDocumentAuthor } from '../src/kit/documents/authors.js';
import type { PluginRouter } from '../src/platform/router.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { AP_TAG, apDocs, approvalsPlugin, aprovacaoAp } from './fixtures/approvals-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type User = { id: string; token: string };

describeEachDatabase('document kit: approvals by value level', { plugins: [approvalsPlugin] }, (t) => {
  const centro = randomUUID();
  const outro = randomUUID();
  let entidadeId: string;
  let autora: User;
  let chefe: User;
  let chefe2: User;
  let ordenador: User;
  let substituta: User;
  let fora: User; // named at level 1, but not of the centro

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(path, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const criar = async (valor: string, titulo = `Pedido ${valor}`, c = centro) =>
    body(await req('/api/apr/pedidos', autora.token, { json: { titulo, centroCustoId: c, valor } }), 201);
  const ler = async (id: string, u: User) => body(await req(`/api/apr/pedidos/${id}`, u.token), 200);
  const agir = async (id: string, nome: string, u: User, extra: Doc = {}) => {
    const { version } = await body(await req(`/api/apr/pedidos/${id}`, autora.token), 200);
    return req(`/api/apr/pedidos/${id}/${nome}`, u.token, { json: { version, ...extra } });
  };
  const enviado = async (valor: string, c = centro) => {
    const d = await criar(valor, `Pedido ${valor} ${randomUUID().slice(0, 6)}`, c);
    return body(await agir(d.id, 'enviar', autora), 200);
  };
  const alcada = (nivel: number, valorMinimo: string, usuarios: string[], c: string | null = null, substitutos: string[] = []) =>
    t.server.sql(
      'INSERT INTO ap_alcadas (entidade_id, nivel, nome, valor_minimo, centro_custo_id, usuarios, substitutos) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        entidadeId,
        nivel,
        nivel === 1 ? 'Chefia' : nivel === 2 ? 'Ordenador' : `Nível ${nivel}`,
        valorMinimo,
        c,
        `{${usuarios.join(',')}}`,
        `{${substitutos.join(',')}}`,
      ],
    );
  const contagem = async (u: User) => (await body<{ total: number }>(await req('/api/apr/pedidos/aguardando-minha-aprovacao/contagem', u.token), 200)).total;
  const fila = async (u: User) =>
    (await body<{ items: Doc[] }>(await req('/api/apr/pedidos?aguardandoMinha=1&pageSize=100', u.token), 200)).items.map((d) => d.id as string);

  beforeAll(async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    entidadeId = pref!.id;
    autora = await t.server.createUser({ login: 'apr-autora', tags: [AP_TAG], centros: [centro, outro] });
    chefe = await t.server.createUser({ login: 'apr-chefe', tags: [AP_TAG], centros: [centro, outro] });
    chefe2 = await t.server.createUser({ login: 'apr-chefe2', tags: [AP_TAG], centros: [centro, outro] });
    ordenador = await t.server.createUser({ login: 'apr-ordenador', tags: [AP_TAG], todosCentros: true });
    substituta = await t.server.createUser({ login: 'apr-substituta', tags: [AP_TAG], todosCentros: true });
    fora = await t.server.createUser({ login: 'apr-fora', tags: [AP_TAG], centros: [randomUUID()] });
    // general: level 1 (chefia, from 0), level 2 (ordenador, from 1.000,00); the other centro: only the autora at level 1, a substitute
    await alcada(1, '0', [chefe.id, chefe2.id, fora.id, autora.id]);
    await alcada(2, '1000.00', [ordenador.id]);
    await alcada(1, '0', [autora.id], outro, [substituta.id]);
  });

  it('the levels an amount needs: equal to a minimum takes that level, one cent under does not; a centro row replaces the general one', async () => {
    expect((await enviado('999.99')).niveis).toBe(1);
    const igual = await enviado('1000.00');
    expect([igual.niveis, igual.nivelAtual, igual.ciclo]).toEqual([2, 1, 1]);
    expect((await enviado('1000.01')).niveis).toBe(2);
    // the other centro has its own level 1 and the general level 2
    expect((await enviado('5000.00', outro)).niveis).toBe(2);
    const levels = await aprovacaoAp.levelsFor(t.server.db, entidadeId, outro);
    expect(levels.map((l) => [l.nivel, l.usuarios])).toEqual([
      [1, [autora.id]],
      [2, [ordenador.id]],
    ]);
    expect(aprovacaoAp.requiredLevels('999.99', levels)).toEqual([1]);
    expect(aprovacaoAp.requiredLevels('1000', levels)).toEqual([1, 2]);
  });

  it('two levels: the titular approves level 1, the same person never approves level 2, the ordenador approves it; approved value recorded; e-mails to who can act', async () => {
    const d = await enviado('1500.00');
    const avisos = () =>
      t.server.sql<{ to: string }>('SELECT to_address AS "to" FROM outbox WHERE subject = $1 ORDER BY to_address', [
        `Pedido ${d.numero}/${d.ano} aguarda a sua aprovação`,
      ]);
    // exactly the apto people named at level 1 (not the author, not the one outside the centro)
    expect((await avisos()).map((r) => r.to)).toEqual(['apr-chefe2@exemplo.gov.br', 'apr-chefe@exemplo.gov.br'].sort());
    expect((await ler(d.id, chefe)).transicoes).toEqual(['aprovar', 'reprovar', 'devolver']);
    expect((await ler(d.id, autora)).transicoes).toEqual([]);
    // named at the level, but the centro is not in her scope: she does not even see it
    expect((await req(`/api/apr/pedidos/${d.id}`, fora.token)).status).toBe(404);
    expect((await agir(d.id, 'aprovar', fora)).status).toBe(404);
    expect((await agir(d.id, 'aprovar', autora)).status).toBe(403);
    const n1 = await body(await agir(d.id, 'aprovar', chefe), 200);
    expect([n1.status, n1.nivelAtual]).toEqual(['em_aprovacao', 2]);
    // nobody approves two levels of a round
    expect((await ler(d.id, chefe)).transicoes).toEqual([]);
    expect((await agir(d.id, 'aprovar', chefe)).status).toBe(403);
    expect(await fila(chefe)).not.toContain(d.id);
    expect(await fila(ordenador)).toContain(d.id);
    const etapas = await body(await req(`/api/apr/pedidos/${d.id}/aprovacao`, chefe.token), 200);
    expect(etapas).toMatchObject({
      niveis: 2,
      nivelAtual: 2,
      ciclo: 1,
      etapas: [
        { nivel: 1, nome: 'Chefia', aprovadoPor: 'Usuário apr-chefe', substituicao: null },
        { nivel: 2, nome: 'Ordenador', aprovadoPor: null },
      ],
      podemDecidir: [{ nome: 'Usuário apr-ordenador', via: 'titular' }],
      valorAprovado: null,
    });
    const fim = await body(await agir(d.id, 'aprovar', ordenador), 200);
    expect([fim.status, fim.nivelAtual, fim.valorAprovado]).toEqual(['aprovado', null, '1500.00']);
    const resultado = await t.server.sql<{ to: string }>('SELECT to_address AS "to" FROM outbox WHERE subject = $1', [
      `Pedido ${d.numero}/${d.ano} foi aprovado`,
    ]);
    expect(resultado.map((r) => r.to)).toEqual(['apr-autora@exemplo.gov.br']);
  });

  it('por substituição: the author named alone at her centro’s level 1 never decides; the next higher level does, then the substitute; recorded in the audit', async () => {
    const d = await enviado('500.00', outro);
    // nobody apto at level 1 (only the autora): the approver of the next higher level decides
    expect((await body(await req(`/api/apr/pedidos/${d.id}/aprovacao`, autora.token), 200)).podemDecidir).toEqual([
      { nome: 'Usuário apr-ordenador', via: 'nivel_superior' },
    ]);
    expect((await ler(d.id, autora)).transicoes).toEqual([]);
    expect((await ler(d.id, substituta)).transicoes).toEqual([]);
    await body(await agir(d.id, 'aprovar', ordenador), 200);
    const [audit] = await t.server.sql<{ depois: Doc }>("SELECT depois FROM audit_log WHERE registro = $1 AND acao = 'aprovar'", [d.id]);
    expect(audit!.depois.porSubstituicao).toBe('por substituição (aprovador do nível superior)');
    // with two levels, the ordenador approved level 1 and may not approve level 2: nobody of level 2 nor above → nobody (no substitute at level 2)
    const e = await enviado('2000.00', outro);
    await body(await agir(e.id, 'aprovar', ordenador), 200);
    expect((await body(await req(`/api/apr/pedidos/${e.id}/aprovacao`, autora.token), 200)).podemDecidir).toEqual([]);
    // a document whose level 1 the ordenador cannot take either (he wrote a source of it): the substitute decides
    const f = await enviado('300.00', outro);
    await recordDocumentAuthor(t.server.db as never, { entidadeId, documentoId: f.id, usuarioId: ordenador.id, papel: 'fonte' });
    expect((await body(await req(`/api/apr/pedidos/${f.id}/aprovacao`, autora.token), 200)).podemDecidir).toEqual([
      { nome: 'Usuário apr-substituta', via: 'substituto' },
    ]);
    expect((await agir(f.id, 'aprovar', ordenador)).status).toBe(403);
    expect((await body(await agir(f.id, 'aprovar', substituta), 200)).status).toBe('aprovado');
  });

  it('return and reject need a reason (400), then clear the level and tell the author', async () => {
    const d = await enviado('100.00');
    const sem = await body<{ error: { fields: Doc } }>(await agir(d.id, 'devolver', chefe), 400);
    expect(sem.error.fields.motivo).toBe('Informe o motivo.');
    expect((await body<{ error: { fields: Doc } }>(await agir(d.id, 'reprovar', chefe), 400)).error.fields.motivo).toBe('Informe o motivo.');
    const dev = await body(await agir(d.id, 'devolver', chefe, { motivo: 'Falta o orçamento.' }), 200);
    expect([dev.status, dev.nivelAtual]).toEqual(['devolvido', null]);
    const [mail] = await t.server.sql<{ to: string; text: string }>('SELECT to_address AS "to", body AS text FROM outbox WHERE subject = $1', [
      `Pedido ${d.numero}/${d.ano} foi devolvido para ajustes`,
    ]);
    expect(mail?.to).toBe('apr-autora@exemplo.gov.br');
    expect(mail?.text).toContain('Motivo: Falta o orçamento.');
    // sent again: a new round, approvals of the old one do not count
    expect((await body(await agir(d.id, 'enviar', autora), 200)).ciclo).toBe(2);
  });

  it('the queue, the menu count and PENDENCIAS: one SQL definition, equal to the per-record role', async () => {
    for (const u of [autora, chefe, chefe2, ordenador, substituta, fora]) {
      const ids = await fila(u);
      expect(await contagem(u)).toBe(ids.length);
      const pend = await body<{ items: { id: string; total: number }[] }>(await req('/api/pendencias', u.token), 200);
      expect(pend.items.find((p) => p.id === 'apr.aguardando-minha-aprovacao')?.total).toBe(ids.length);
      // the per-record role (transicoes) is offered on exactly the records of the queue
      const todos = (await body<{ items: Doc[] }>(await req('/api/apr/pedidos?status=em_aprovacao&pageSize=100', u.token), 200)).items;
      expect(
        todos
          .filter((d) => (d.transicoes as string[]).includes('aprovar'))
          .map((d) => d.id)
          .sort(),
      ).toEqual([...ids].sort());
    }
    expect(await contagem(autora)).toBe(0);
    expect(await contagem(chefe)).toBeGreaterThan(0);
  });

  it('no level applies: 409 sem_alcada on enviar', async () => {
    await t.server.sql('DELETE FROM ap_alcadas WHERE centro_custo_id IS NULL AND nivel = 1');
    try {
      const d = await criar('10.00', 'Sem alçada');
      const erro = await body<{ error: { code: string; message: string } }>(await agir(d.id, 'enviar', autora), 409);
      expect(erro.error).toEqual({
        code: 'sem_alcada',
        message: 'Nenhuma alçada de aprovação se aplica a este pedido: peça ao administrador que configure as alçadas.',
      });
    } finally {
      await alcada(1, '0', [chefe.id, chefe2.id, fora.id, autora.id]);
    }
  });

  it.runIf(t.engine === 'postgres')('two approvers of the same level at once: one approval, the other 409', async () => {
    for (let i = 0; i < 3; i++) {
      const d = await enviado('200.00');
      const [a, b] = await Promise.all([
        req(`/api/apr/pedidos/${d.id}/aprovar`, chefe.token, { json: { version: d.version } }),
        req(`/api/apr/pedidos/${d.id}/aprovar`, chefe2.token, { json: { version: d.version } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const rows = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM ap_aprovacoes WHERE doc_id = $1', [d.id]);
      expect(rows[0]!.n).toBe(1);
      expect((await ler(d.id, autora)).status).toBe('aprovado');
    }
  });
});

describe('document kit: approvals refuse a flow they do not fit', () => {
  const define = (transitions: Record<string, unknown>) =>
    defineDocumentResource({ pluginId: 'apr', declareDocument: () => undefined } as unknown as PluginRouter, {
      path: '/outros',
      tag: AP_TAG,
      table: apDocs,
      flow: defineFlow({
        initial: 'rascunho',
        states: {
          rascunho: { label: 'Rascunho', editable: true },
          em_aprovacao: { label: 'Em aprovação' },
          aprovado: { label: 'Aprovado' },
          reprovado: { label: 'Reprovado' },
          devolvido: { label: 'Devolvido', editable: true },
          cancelado: { label: 'Cancelado' },
        },
        transitions: {
          cancelar: { from: ['rascunho'], to: 'cancelado', label: 'Cancelar', reason: true, done: 'cancelado' },
          ...transitions,
        } as never,
      }),
      schema: z.object({ titulo: z.string() }),
      label: { singular: 'pedido', plural: 'pedidos', documento: 'Pedido' },
      roles: () => [],
      approvals: aprovacaoAp,
      list: { sortable: ['numero'], columns: [] },
    });
  const t = (to: string, who?: string[]) => ({ from: ['em_aprovacao'], to, label: to, done: to, ...(who ? { who } : {}) });
  const enviar = { from: ['rascunho'], to: 'em_aprovacao', label: 'Enviar', done: 'enviado' };

  it('a transition it names is missing, or approve/decide is open to anyone: refused at definition time', () => {
    expect(() => define({ enviar, aprovar: t('aprovado', ['aprovador']), reprovar: t('reprovado', ['aprovador']) })).toThrow(
      /approvals name the transition 'devolver', which the flow does not declare/,
    );
    expect(() => define({ enviar, aprovar: t('aprovado'), reprovar: t('reprovado', ['aprovador']), devolver: t('devolvido', ['aprovador']) })).toThrow(
      /the transition 'aprovar' must be only for 'aprovador'/,
    );
  });
});
