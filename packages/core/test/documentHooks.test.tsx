// The headless hooks of a document (useDocument, useDocumentTransition, useDocumentChildren) and the
// one cache-key helper (queryKeys): what a custom page gets without the kit's pages.
import { defineFlow } from '@app/documents';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { queryKeys, useDocument, useDocumentChildren, useDocumentTransition } from '../src/index';
import { getCoreStore, tokenAtom } from '../src/store';
import { json, makeToken, mockApi } from './helpers';

type Row = Record<string, unknown>;

const ENDPOINT = '/memorandos/memorandos';
const fluxo = defineFlow({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true },
    enviado: { label: 'Enviado' },
    devolvido: { label: 'Devolvido', editable: true },
    cancelado: { label: 'Cancelado' },
  },
  transitions: {
    enviar: { from: ['rascunho', 'devolvido'], to: 'enviado', label: 'Enviar', done: 'enviado' },
    devolver: { from: ['enviado'], to: 'devolvido', label: 'Devolver', reason: true, done: 'devolvido' },
    cancelar: { from: ['rascunho', 'devolvido'], to: 'cancelado', label: 'Cancelar', reason: true, reasonMin: 10, done: 'cancelado' },
  },
});
const memorandos = { endpoint: ENDPOINT, flow: fluxo, documento: 'Memorando' };

const memorando = (over: Row = {}): Row => ({
  id: 'm12',
  numero: 12,
  ano: 2026,
  status: 'rascunho',
  assunto: 'Material de expediente',
  version: 4,
  transicoes: ['cancelar', 'enviar'],
  ...over,
});

function setup() {
  getCoreStore().set(tokenAtom, makeToken());
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}

const body = async (req: Request) => (await req.json()) as Row;
const err = (status: number, code: string, message: string, fields?: Record<string, string>) =>
  json({ error: { code, message, ...(fields ? { fields } : {}) } }, status);

describe('queryKeys', () => {
  it('nests everything of a resource under all(endpoint), the kit keys unchanged', () => {
    expect(queryKeys.all(ENDPOINT)).toEqual(['resource', ENDPOINT]);
    expect(queryKeys.list(ENDPOINT, { page: '2' })).toEqual(['resource', ENDPOINT, 'list', { page: '2' }]);
    expect(queryKeys.document(ENDPOINT, 'm12')).toEqual(queryKeys.item(ENDPOINT, 'm12'));
    expect(queryKeys.item(ENDPOINT, 'm12')).toEqual(['resource', ENDPOINT, 'item', 'm12']);
    // children and views of a record start with its key: refreshing the record refreshes them
    expect(queryKeys.children(ENDPOINT, 'm12', 'anexos').slice(0, 4)).toEqual(queryKeys.document(ENDPOINT, 'm12'));
    expect(queryKeys.view(ENDPOINT, 'm12', 'mapa').slice(0, 4)).toEqual(queryKeys.document(ENDPOINT, 'm12'));
    expect(queryKeys.history(ENDPOINT, 'm12').slice(0, 2)).toEqual(queryKeys.all(ENDPOINT));
    expect(queryKeys.pendencias()).toEqual(['pendencias']);
    expect(queryKeys.menuCount('/requisicoes/aprovacao/contagem').slice(0, 1)).toEqual(queryKeys.menuCounts());
    expect(queryKeys.plugin('cotacoes', 'configuracao')).toEqual(['cotacoes', 'configuracao']);
  });
});

describe('useDocument', () => {
  it('reads the record in the kit cache entry and saves it with the version read', async () => {
    let put: Row | undefined;
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando()),
      'PUT /api/memorandos/memorandos/m12': async (req) => {
        put = await body(req);
        return json(memorando({ assunto: put.assunto, version: 5 }));
      },
    });
    const { client, wrapper } = setup();
    const { result } = renderHook(() => useDocument(memorandos, 'm12'), { wrapper });
    await waitFor(() => expect(result.current.record?.assunto).toBe('Material de expediente'));
    expect(client.getQueryData(queryKeys.document(ENDPOINT, 'm12'))).toEqual(memorando());

    let saved: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      saved = await result.current.save({ assunto: 'Papel A4' });
    });
    expect(put).toEqual({ assunto: 'Papel A4', version: 4 });
    expect(saved).toMatchObject({ ok: true, record: { assunto: 'Papel A4', version: 5 } });
    // cached at once, then read again with the lists (the save invalidated the resource)
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it("maps a 400's fields to fieldErrors and a 409 stale to `stale`; a load error is `error`", async () => {
    let answer = 0;
    mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando()),
      'GET /api/memorandos/memorandos/m99': () => err(404, 'not_found', 'Memorando não encontrado.'),
      'PUT /api/memorandos/memorandos/m12': () =>
        ++answer === 1
          ? err(400, 'invalid', 'Verifique os campos destacados.', { assunto: 'Informe o assunto.', 'itens.0.quantidade': 'Informe a quantidade.' })
          : err(409, 'stale', 'Este registro foi alterado por outra pessoa.'),
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useDocument(ENDPOINT, 'm12'), { wrapper });
    await waitFor(() => expect(result.current.record).toBeTruthy());
    let first: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      first = await result.current.save({ assunto: '' });
    });
    expect(first).toMatchObject({ ok: false, reason: 'invalid', message: 'Verifique os campos destacados.' });
    expect(result.current.fieldErrors).toEqual({ assunto: 'Informe o assunto.', 'itens.0.quantidade': 'Informe a quantidade.' });
    await act(async () => {
      await result.current.save({ assunto: 'X' });
    });
    expect(result.current.stale).toBe('Este registro foi alterado por outra pessoa.');

    const missing = renderHook(() => useDocument(ENDPOINT, 'm99'), { wrapper });
    await waitFor(() => expect(missing.result.current.error).toBeTruthy());
    expect((missing.result.current.error as Error).message).toBe('Memorando não encontrado.');
  });
});

describe('useDocumentTransition', () => {
  it('offers the record’s transitions in the flow’s order, with their confirmation; run posts the version and refreshes record, lists and pendências', async () => {
    let posted: Row | undefined;
    mockApi({
      'POST /api/memorandos/memorandos/m12/enviar': async (req) => {
        posted = await body(req);
        return json(memorando({ status: 'enviado', version: 5, transicoes: [] }));
      },
    });
    const { client, wrapper } = setup();
    client.setQueryData(queryKeys.pendencias(), { items: [] });
    client.setQueryData(queryKeys.list(ENDPOINT, {}), { items: [] });
    const { result } = renderHook(() => useDocumentTransition(memorandos, memorando()), { wrapper });
    expect(result.current.available).toEqual(['enviar', 'cancelar']);
    expect(result.current.confirmText('enviar')).toBe('Enviar memorando 12/2026?');
    // a label of several words: the verb, the document, then the rest
    const paraAprovacao = {
      ...memorandos,
      flow: { ...fluxo, transitions: { ...fluxo.transitions, enviar: { ...fluxo.transitions.enviar, label: 'Enviar para aprovação' } } },
    };
    const { result: outro } = renderHook(() => useDocumentTransition(paraAprovacao, memorando()), { wrapper });
    expect(outro.current.confirmText('enviar')).toBe('Enviar memorando 12/2026 para aprovação?');
    let done: Awaited<ReturnType<typeof result.current.run>> | undefined;
    await act(async () => {
      done = await result.current.run('enviar');
    });
    expect(posted).toEqual({ version: 4 });
    expect(done).toMatchObject({ ok: true, record: { status: 'enviado' } });
    expect(result.current.doneMessage('enviar')).toBe('Memorando 12/2026 enviado.');
    expect(client.getQueryData(queryKeys.document(ENDPOINT, 'm12'))).toMatchObject({ status: 'enviado', version: 5 });
    expect(client.getQueryState(queryKeys.pendencias())?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.list(ENDPOINT, {}))?.isInvalidated).toBe(true);
  });

  it('checks the reason before sending; a 400 naming a field comes back as fieldErrors; a refusal reads the record again', async () => {
    let answer = 0;
    const posted: Row[] = [];
    mockApi({
      'POST /api/memorandos/memorandos/m12/cancelar': async (req) => {
        posted.push(await body(req));
        return ++answer === 1
          ? err(400, 'invalid', 'Verifique os campos destacados.', { ciente: 'Confirme que viu o alerta.' })
          : err(409, 'invalid_transition', 'Não é possível cancelar: o documento está enviado.');
      },
    });
    const { client, wrapper } = setup();
    client.setQueryData(queryKeys.document(ENDPOINT, 'm12'), memorando());
    const { result } = renderHook(() => useDocumentTransition(memorandos, memorando()), { wrapper });
    let r: Awaited<ReturnType<typeof result.current.run>> | undefined;
    await act(async () => {
      r = await result.current.run('cancelar', { motivo: 'curto' });
    });
    expect(r).toMatchObject({ ok: false, reason: 'invalid', fields: { motivo: 'Informe o motivo (ao menos 10 caracteres).' } });
    expect(posted).toHaveLength(0);
    await act(async () => {
      r = await result.current.run('cancelar', { motivo: '  Pedido feito em duplicidade.  ', body: { ciente: false } });
    });
    expect(posted[0]).toEqual({ ciente: false, version: 4, motivo: 'Pedido feito em duplicidade.' });
    expect(result.current.fieldErrors).toEqual({ ciente: 'Confirme que viu o alerta.' });
    await act(async () => {
      r = await result.current.run('cancelar', { motivo: 'Pedido feito em duplicidade.' });
    });
    expect(r).toMatchObject({ ok: false, reason: 'refused', status: 409, message: 'Não é possível cancelar: o documento está enviado.' });
    expect(result.current.error).toBe('Não é possível cancelar: o documento está enviado.');
    expect(client.getQueryState(queryKeys.document(ENDPOINT, 'm12'))?.isInvalidated).toBe(true);
  });
});

describe('useDocumentChildren', () => {
  it('lists, creates, updates (with the version read) and deletes a child collection; each change refreshes the parent', async () => {
    let convites: Row[] = [{ id: 'c1', fornecedorNome: 'Papelaria Central', version: 2 }];
    const sent: { method: string; body: unknown }[] = [];
    mockApi({
      'GET /api/cotacoes/cotacoes/k1/fornecedores': () => json({ items: convites }),
      'POST /api/cotacoes/cotacoes/k1/fornecedores': async (req) => {
        const b = await body(req);
        sent.push({ method: 'POST', body: b });
        if (b.fornecedorId === 'impedido') return err(400, 'impedido', 'Impedido.', { fornecedorId: 'Este fornecedor está impedido.' });
        const novo = { id: 'c2', fornecedorNome: 'Comercial Sul', version: 1 };
        convites = [...convites, novo];
        return json(novo, 201);
      },
      'PATCH /api/cotacoes/cotacoes/k1/fornecedores/c1': async (req) => {
        const b = await body(req);
        sent.push({ method: 'PATCH', body: b });
        convites = convites.map((c) => (c.id === 'c1' ? { ...c, ...b, version: 3 } : c));
        return json(convites[0]);
      },
      'DELETE /api/cotacoes/cotacoes/k1/fornecedores/c2': () => {
        convites = convites.filter((c) => c.id !== 'c2');
        return new Response(null, { status: 204 });
      },
    });
    const { client, wrapper } = setup();
    client.setQueryData(queryKeys.view('/cotacoes/cotacoes', 'k1', 'mapa'), { itens: [] });
    const { result } = renderHook(() => useDocumentChildren('/cotacoes/cotacoes', 'k1', 'fornecedores'), { wrapper });
    await waitFor(() => expect(result.current.items).toHaveLength(1));

    let r: Awaited<ReturnType<typeof result.current.create>> | undefined;
    await act(async () => {
      r = await result.current.create({ fornecedorId: 'impedido' });
    });
    expect(r).toMatchObject({ ok: false, reason: 'invalid' });
    expect(result.current.fieldErrors).toEqual({ fornecedorId: 'Este fornecedor está impedido.' });

    await act(async () => {
      r = await result.current.create({ fornecedorId: 'f2' });
    });
    expect(r).toMatchObject({ ok: true, record: { id: 'c2' } });
    expect(result.current.fieldErrors).toEqual({});
    await waitFor(() => expect(result.current.items.map((c) => c.id)).toEqual(['c1', 'c2']));
    // the record's other reads (a mapa) are refreshed with it
    expect(client.getQueryState(queryKeys.view('/cotacoes/cotacoes', 'k1', 'mapa'))?.isInvalidated).toBe(true);

    await act(async () => {
      r = await result.current.update('c1', { motivoEscolha: 'Fornecedor habitual' });
    });
    expect(sent.at(-1)).toEqual({ method: 'PATCH', body: { motivoEscolha: 'Fornecedor habitual', version: 2 } });

    let removed: Awaited<ReturnType<typeof result.current.remove>> | undefined;
    await act(async () => {
      removed = await result.current.remove('c2');
    });
    expect(removed).toMatchObject({ ok: true });
    await waitFor(() => expect(result.current.items.map((c) => c.id)).toEqual(['c1']));
  });

  it('an action on one child (POST, or PUT with its body) and an answer without a body (204)', async () => {
    const sent: { method: string; path: string; body: unknown }[] = [];
    const record = (method: string) => async (req: Request) => {
      sent.push({ method, path: new URL(req.url).pathname, body: await body(req) });
      return method === 'PUT' ? json({ id: 'c1', situacao: 'respondeu' }) : new Response(null, { status: 204 });
    };
    mockApi({
      'PUT /api/cotacoes/cotacoes/k1/fornecedores/c1/resposta': record('PUT'),
      'POST /api/cotacoes/cotacoes/k1/precos/p1/restaurar': record('POST'),
    });
    const { wrapper } = setup();
    const convites = renderHook(() => useDocumentChildren('/cotacoes/cotacoes', 'k1', 'fornecedores', { list: false }), { wrapper });
    const precos = renderHook(() => useDocumentChildren('/cotacoes/cotacoes', 'k1', 'precos', { list: false }), { wrapper });
    let a: Awaited<ReturnType<typeof convites.result.current.action>> | undefined;
    let b: Awaited<ReturnType<typeof precos.result.current.action>> | undefined;
    await act(async () => {
      a = await convites.result.current.action('c1', 'resposta', { validade: null }, { method: 'put' });
      b = await precos.result.current.action('p1', 'restaurar');
    });
    expect(sent).toEqual([
      { method: 'PUT', path: '/api/cotacoes/cotacoes/k1/fornecedores/c1/resposta', body: { validade: null } },
      { method: 'POST', path: '/api/cotacoes/cotacoes/k1/precos/p1/restaurar', body: {} },
    ]);
    expect(a).toEqual({ ok: true, record: { id: 'c1', situacao: 'respondeu' } });
    expect(b).toEqual({ ok: true, record: null });
  });

  it('a refused change (409) says why and reads the children again', async () => {
    let reads = 0;
    mockApi({
      'GET /api/cotacoes/cotacoes/k1/fornecedores': () => {
        reads++;
        return json({ items: [] });
      },
      'DELETE /api/cotacoes/cotacoes/k1/fornecedores/c1': () =>
        err(409, 'in_use', 'Papelaria Central já tem preços nesta cotação: o convite fica no registro.'),
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useDocumentChildren('/cotacoes/cotacoes', 'k1', 'fornecedores'), { wrapper });
    await waitFor(() => expect(reads).toBe(1));
    let r: Awaited<ReturnType<typeof result.current.remove>> | undefined;
    await act(async () => {
      r = await result.current.remove('c1');
    });
    expect(r).toMatchObject({ ok: false, reason: 'refused', message: 'Papelaria Central já tem preços nesta cotação: o convite fica no registro.' });
    expect(result.current.mutationError).toBe('Papelaria Central já tem preços nesta cotação: o convite fica no registro.');
    await waitFor(() => expect(reads).toBe(2));
  });
});
