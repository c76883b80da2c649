// The kit's Edit page runs on the headless hooks: a transition from its action bar refreshes what
// a custom page reading the same cache keys shows (the record, the pendências).
import { defineFlow } from '@app/documents';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { type SchemaLike, api, defineDocumentPages, queryKeys, useDocument } from '../src/index';
import { getCoreStore, tokenAtom } from '../src/store';
import { json, makeToken, mockApi } from './helpers';

type Row = Record<string, unknown>;

const fluxo = defineFlow({
  initial: 'rascunho',
  states: { rascunho: { label: 'Rascunho', editable: true }, enviado: { label: 'Enviado' } },
  transitions: { enviar: { from: ['rascunho'], to: 'enviado', label: 'Enviar', tone: 'primary', done: 'enviado' } },
});
const schema: SchemaLike = { safeParse: (value) => ({ success: true, data: value }) };
const ENDPOINT = '/memorandos/memorandos';
const pages = defineDocumentPages({
  endpoint: ENDPOINT,
  title: 'Memorandos',
  newTitle: 'Novo memorando',
  editTitle: 'Editar memorando',
  documento: 'Memorando',
  flow: fluxo,
  schema,
  timeline: false,
  columns: [{ key: 'assunto', header: 'Assunto' }],
  fields: [{ name: 'assunto', type: 'text', label: 'Assunto', required: true }],
});
const memorando = (over: Row = {}): Row => ({
  id: 'm12',
  numero: 12,
  ano: 2026,
  version: 4,
  status: 'rascunho',
  assunto: 'Material de expediente',
  editavel: true,
  transicoes: ['enviar'],
  ...over,
});

/** A custom panel beside the kit's page: the same record (useDocument) and the pendências. */
function Painel() {
  const doc = useDocument(ENDPOINT, 'm12');
  const pendencias = useQuery({ queryKey: queryKeys.pendencias(), queryFn: () => api.get('pendencias').json<{ items: Row[] }>() });
  return (
    <p data-testid="painel">
      {String(doc.record?.status ?? '')} · {pendencias.data?.items.length ?? '…'} pendências
    </p>
  );
}

describe("the kit's Edit page on the hooks", () => {
  it('a transition from the action bar updates the record a custom panel reads and refreshes the pendências', async () => {
    getCoreStore().set(tokenAtom, makeToken());
    let enviado = false;
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando(enviado ? { status: 'enviado', version: 5, editavel: false, transicoes: [] } : {})),
      'GET /api/pendencias': () => json({ items: enviado ? [] : [{ id: 'a-enviar' }] }),
      'POST /api/memorandos/memorandos/m12/enviar': () => {
        enviado = true;
        return json(memorando({ status: 'enviado', version: 5, editavel: false, transicoes: [] }));
      },
    });
    window.history.replaceState(null, '', '/memorando/edit/m12');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
    render(
      <QueryClientProvider client={client}>
        <Router base="/memorando">
          <Suspense fallback={<p>Carregando…</p>}>
            <Route path="/edit/:id">
              <pages.Edit />
            </Route>
          </Suspense>
          <Painel />
        </Router>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('painel').textContent).toBe('rascunho · 1 pendências'));
    const bar = within(await waitFor(() => screen.getByRole('heading', { level: 1 }).closest('.page-header') as HTMLElement));
    await act(async () => {
      fireEvent.click(await bar.findByRole('button', { name: 'Enviar' }));
    });
    await act(async () => {
      fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Enviar' }));
    });
    await waitFor(() => expect(screen.getByTestId('painel').textContent).toBe('enviado · 0 pendências'));
    expect(calls.filter((c) => c.url.endsWith('/api/pendencias'))).toHaveLength(2);
  });
});
