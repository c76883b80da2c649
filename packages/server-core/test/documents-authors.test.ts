// Segregation of duties in the document kit (documento_autores, migration 0012), through the test
// plugins (fixtures/documents-plugin.ts and documents-flow-plugin.ts), on PGlite and PostgreSQL:
// - whoever created, changed or sent a document — or wrote a document it was made from — never
//   performs its independent transitions (accept, return, approve, reject): 403, and not offered;
// - only an author edits, sends or cancels a draft (403 for anyone else, even with every centro),
//   unless they hold RASCUNHOS_ALHEIOS_TAG, and then they become an author ('editor') themselves;
// - a numbered document is never deleted (409 `numerado`) and a flow without a reasoned cancel of
//   its drafts is refused at definition time.
import { defineFlow } from '@app/documents';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documentAuthorSql, isDocumentAuthor } from '../src/kit/documents/authors.js';
import { RASCUNHOS_ALHEIOS_TAG, defineDocumentResource } from '../src/index.js';
import type { PluginRouter } from '../src/platform/router.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { DOC_TAG, documentsPlugin } from './fixtures/documents-plugin.js';
import { FLUXO_TAG, documentsFlowPlugin, fxPedidos } from './fixtures/documents-flow-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describeEachDatabase('document kit: authors and segregation of duties', { plugins: [documentsPlugin, documentsFlowPlugin] }, (t) => {
  const centroA = randomUUID();
  const centroB = randomUUID();
  let produto: string;
  let autora: { id: string; token: string }; // centro A
  let colega: { id: string; token: string }; // centro A too
  let compras: { id: string; token: string }; // every centro (the comprador)
  let chefe: { id: string; token: string }; // every centro, may edit other people's drafts
  let destino: { id: string; token: string }; // centro B

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(path, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const error = async (res: Response, status: number) => (await body<ErrorBody>(res, status)).error;
  const memo = (over: Doc = {}): Doc => ({
    origemId: centroA,
    destinoId: centroB,
    assunto: 'Material de expediente',
    itens: [{ produtoId: produto, quantidade: '3', valorUnitario: '2' }],
    ...over,
  });
  const create = async (token: string) => body(await req('/api/docs/memorandos', token, { json: memo() }), 201);
  const read = async (token: string, id: string) => body(await req(`/api/docs/memorandos/${id}`, token), 200);
  const act = async (token: string, id: string, name: string, extra: Doc = {}) => {
    const { version } = await read(token, id);
    return req(`/api/docs/memorandos/${id}/${name}`, token, { json: { version, ...extra } });
  };
  const put = async (token: string, id: string, over: Doc = {}) => {
    const { version } = await read(autora.token, id);
    return req(`/api/docs/memorandos/${id}`, token, { method: 'PUT', json: { ...memo(over), version } });
  };
  const autores = (id: string) =>
    t.server.sql<{ usuario_id: string; papel: string }>('SELECT usuario_id, papel FROM documento_autores WHERE documento_id = $1 ORDER BY papel, usuario_id', [
      id,
    ]);

  beforeAll(async () => {
    autora = await t.server.createUser({ login: 'seg-autora', tags: [DOC_TAG], centros: [centroA] });
    colega = await t.server.createUser({ login: 'seg-colega', tags: [DOC_TAG], centros: [centroA] });
    compras = await t.server.createUser({ login: 'seg-compras', tags: [DOC_TAG], todosCentros: true });
    chefe = await t.server.createUser({ login: 'seg-chefe', tags: [DOC_TAG, RASCUNHOS_ALHEIOS_TAG], todosCentros: true });
    destino = await t.server.createUser({ login: 'seg-destino', tags: [DOC_TAG], centros: [centroB] });
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    const [p] = await t.server.sql<{ id: string }>("INSERT INTO doc_produtos (entidade_id, descricao) VALUES ($1, 'Papel A4') RETURNING id", [pref!.id]);
    produto = p!.id;
  });

  it("records the authors in the write's transaction: 'autor' on create and duplicate, 'editor' on PUT, 'remetente' on enviar", async () => {
    const doc = await create(autora.token);
    expect(await autores(doc.id)).toEqual([{ usuario_id: autora.id, papel: 'autor' }]);
    await body(await put(chefe.token, doc.id, { assunto: 'Revisado pela chefia' }), 200);
    await body(await act(autora.token, doc.id, 'enviar'), 200);
    expect(await autores(doc.id)).toEqual(
      [
        { usuario_id: autora.id, papel: 'autor' },
        { usuario_id: chefe.id, papel: 'editor' },
        { usuario_id: autora.id, papel: 'remetente' },
      ].sort((a, b) => a.papel.localeCompare(b.papel) || a.usuario_id.localeCompare(b.usuario_id)),
    );
    const copy = await body(await req(`/api/docs/memorandos/${doc.id}/duplicar`, colega.token, { json: {} }), 201);
    expect(await autores(copy.id)).toEqual([{ usuario_id: colega.id, papel: 'autor' }]);
    // a refused write records nobody (same transaction)
    const before = await autores(copy.id);
    expect((await put(destino.token, copy.id)).status).toBe(403);
    expect(await autores(copy.id)).toEqual(before);
    // the two helpers other plugins build on
    expect(await isDocumentAuthor(t.server.db, doc.id, chefe.id)).toBe(true);
    expect(await isDocumentAuthor(t.server.db, doc.id, destino.id)).toBe(false);
    expect(await isDocumentAuthor(t.server.db, 'não é um id', destino.id)).toBe(false);
    const { rows } = await t.server.db.execute<{ id: string }>(sql`SELECT id FROM doc_memos WHERE ${documentAuthorSql(sql.raw('doc_memos.id'), chefe.id)}`);
    expect(rows.map((r) => r.id)).toEqual([doc.id]);
  });

  it("other people's drafts: a colleague of the same centro and a perfil with every centro get 403 on PUT, enviar and cancelar; the button is gone", async () => {
    const doc = await create(autora.token);
    for (const who of [colega, compras]) {
      const refused = await error(await put(who.token, doc.id, { assunto: 'Reescrito por outra pessoa' }), 403);
      expect(refused).toEqual({
        code: 'forbidden',
        message: 'Só quem criou este rascunho pode alterá-lo, enviá-lo ou cancelá-lo (ou quem tem a permissão "Editar rascunhos de outras pessoas").',
      });
      expect((await error(await act(who.token, doc.id, 'enviar'), 403)).message).toMatch(/^Só quem criou este rascunho/);
      expect((await error(await act(who.token, doc.id, 'cancelar', { motivo: 'Não quero' }), 403)).message).toMatch(/^Só quem criou este rascunho/);
      expect(await read(who.token, doc.id)).toMatchObject({ editavel: false, transicoes: [], version: 1, assunto: 'Material de expediente' });
    }
    // the author still may
    expect(await read(autora.token, doc.id)).toMatchObject({ editavel: true, transicoes: ['enviar', 'cancelar'] });
    expect(await autores(doc.id)).toEqual([{ usuario_id: autora.id, papel: 'autor' }]);
  });

  it('whoever wrote, changed or sent a document never accepts nor returns it (403, not offered), even holding every centro', async () => {
    // the comprador case: every centro, so also destino; she edits (with the permission) and sends, then tries to accept
    const doc = await create(autora.token);
    await body(await put(chefe.token, doc.id, { assunto: 'A chefia reescreveu' }), 200);
    await body(await act(chefe.token, doc.id, 'enviar'), 200);
    expect((await read(chefe.token, doc.id)).transicoes).toEqual([]);
    expect(await error(await act(chefe.token, doc.id, 'aceitar'), 403)).toEqual({
      code: 'forbidden',
      message: 'Quem escreveu, alterou ou enviou este memorando não pode aceitá-lo (segregação de funções).',
    });
    expect((await error(await act(chefe.token, doc.id, 'devolver', { motivo: 'Devolvo' }), 403)).message).toBe(
      'Quem escreveu, alterou ou enviou este memorando não pode devolvê-lo (segregação de funções).',
    );
    // someone of the destination who never wrote it decides
    expect((await read(destino.token, doc.id)).transicoes).toEqual(['aceitar', 'devolver']);
    expect((await body(await act(destino.token, doc.id, 'aceitar'), 200)).status).toBe('aceito');
  });

  it("the 'fonte' authors: who wrote a source document never approves the document made from it (queue and per-record check agree)", async () => {
    const aprovador = await t.server.createUser({ login: 'seg-aprovador', tags: [FLUXO_TAG] });
    const pedidoAutor = await t.server.createUser({ login: 'seg-pedido', tags: [FLUXO_TAG] });
    const comprasFluxo = await t.server.createUser({ login: 'seg-compras-fluxo', tags: [FLUXO_TAG] });
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    for (const u of [aprovador, comprasFluxo]) await t.server.sql('INSERT INTO fx_aprovadores (entidade_id, usuario_id) VALUES ($1, $2)', [pref!.id, u.id]);
    // comprasFluxo writes the fonte (a different user from `compras`, who lacks FLUXO_TAG)
    const fonte2 = await body(
      await req('/api/fluxo/fontes', comprasFluxo.token, { json: { titulo: 'Fonte 2', itens: [{ quantidade: '5', valorUnitario: '2' }] } }),
      201,
    );
    const pedido = await body(
      await req('/api/fluxo/pedidos', pedidoAutor.token, {
        json: { titulo: 'Pedido da fonte 2', itens: [{ quantidade: '2', valorUnitario: '2', fonteItemId: fonte2.itens[0].id }] },
      }),
      201,
    );
    const sent = await body(await req(`/api/fluxo/pedidos/${pedido.id}/enviar`, pedidoAutor.token, { json: { version: pedido.version } }), 200);
    expect(
      (
        await t.server.sql<{ papel: string }>('SELECT papel FROM documento_autores WHERE documento_id = $1 AND usuario_id = $2', [pedido.id, comprasFluxo.id])
      ).map((r) => r.papel),
    ).toEqual(['fonte']);
    // the approver role comes from loadRoles, yet the author of the fonte is refused and not offered the buttons
    expect((await body(await req(`/api/fluxo/pedidos/${pedido.id}`, comprasFluxo.token), 200)).transicoes).toEqual([]);
    expect((await error(await req(`/api/fluxo/pedidos/${pedido.id}/aprovar`, comprasFluxo.token, { json: { version: sent.version } }), 403)).message).toBe(
      'Quem escreveu, alterou ou enviou este pedido não pode aprová-lo (segregação de funções).',
    );
    // the SQL form agrees (for queues): the fonte's author is an author of the pedido, the approver is not
    for (const [who, expected] of [
      [comprasFluxo.id, [pedido.id]],
      [aprovador.id, []],
    ] as const) {
      const { rows } = await t.server.db.execute<{ id: string }>(sql`SELECT id FROM fx_pedidos WHERE ${documentAuthorSql(fxPedidos.id, who)}`);
      expect(rows.map((r) => r.id)).toEqual(expected);
    }
    expect((await body(await req(`/api/fluxo/pedidos/${pedido.id}/aprovar`, aprovador.token, { json: { version: sent.version } }), 200)).status).toBe(
      'aprovado',
    );
  });

  it('never deletes a numbered document: 409 numerado in any state; cancelling leaves no gap in the numbers', async () => {
    const a = await create(autora.token);
    expect(await error(await req(`/api/docs/memorandos/${a.id}`, autora.token, { method: 'DELETE' }), 409)).toEqual({
      code: 'numerado',
      message: 'Documentos numerados não são excluídos: cancele este rascunho informando o motivo.',
    });
    expect((await error(await req(`/api/docs/memorandos/${a.id}`, chefe.token, { method: 'DELETE' }), 409)).code).toBe('numerado');
    expect((await body(await act(autora.token, a.id, 'cancelar', { motivo: 'Criado por engano' }), 200)).status).toBe('cancelado');
    const b = await create(autora.token);
    expect([b.numero, b.ano]).toEqual([a.numero + 1, a.ano]);
    const [{ n }] = (await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM doc_memos WHERE id = $1', [a.id])) as [{ n: number }];
    expect(n).toBe(1);
  });
});

describe('document kit: a flow must cancel its drafts with a reason', () => {
  type Estado = 'rascunho' | 'enviado' | 'cancelado';
  type Transicao = { from: Estado[]; to: Estado; label: string; done: string; reason?: boolean };
  const define = (transitions: Record<string, Transicao>) =>
    defineDocumentResource({ pluginId: 'semcancelar' } as PluginRouter, {
      path: '/docs',
      tag: DOC_TAG,
      table: fxPedidos,
      flow: defineFlow({
        initial: 'rascunho',
        states: { rascunho: { label: 'Rascunho', editable: true }, enviado: { label: 'Enviado' }, cancelado: { label: 'Cancelado' } },
        transitions,
      }),
      schema: z.object({ titulo: z.string() }),
      label: { singular: 'doc', plural: 'docs', documento: 'Doc' },
      roles: () => [],
      list: { sortable: ['numero'], columns: [{ key: 'numero', header: 'Número' }] },
    });

  it('throws at definition time without a reasoned cancel from the initial state to a final state', () => {
    const enviar: Transicao = { from: ['rascunho'], to: 'enviado', label: 'Enviar', done: 'enviado' };
    const semMotivo: Transicao = { from: ['rascunho'], to: 'cancelado', label: 'Cancelar', done: 'cancelado' };
    const paraEnviado: Transicao = { from: ['rascunho'], to: 'enviado', label: 'Cancelar', done: 'cancelado', reason: true };
    const casos: Record<string, Transicao>[] = [
      { enviar },
      { enviar, cancelar: semMotivo },
      { cancelar: paraEnviado, voltar: { from: ['enviado'], to: 'rascunho', label: 'Voltar', done: 'voltou' } },
    ];
    for (const transitions of casos) {
      expect(() => define(transitions)).toThrow(/cancels a draft .*numbered documents are never deleted/);
    }
  });
});
