// The document kit's pages: status column and filters, the action bar of the record's transitions
// (reason required where the flow says so), Duplicar, Imprimir (PDF), the duplicar/:id route and the
// timeline.
import { defineFlow } from '@app/documents';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { documentRoutes } from '../src/resource/routes';
import { defineDocumentPages } from '../src/resource/documents/define';
import type { SchemaLike } from '../src/resource/types';
import { getCoreStore, tokenAtom } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, makeToken, mockApi } from './helpers';

type Row = Record<string, unknown>;

const fluxo = defineFlow({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    enviado: { label: 'Enviado', tone: 'info' },
    devolvido: { label: 'Devolvido', editable: true, tone: 'warning' },
    aceito: { label: 'Aceito', tone: 'success' },
    cancelado: { label: 'Cancelado', tone: 'danger' },
  },
  transitions: {
    enviar: { from: ['rascunho', 'devolvido'], to: 'enviado', label: 'Enviar', tone: 'primary', done: 'enviado' },
    aceitar: { from: ['enviado'], to: 'aceito', label: 'Aceitar', who: ['destino'], tone: 'primary', done: 'aceito' },
    devolver: { from: ['enviado'], to: 'devolvido', label: 'Devolver', reason: true, who: ['destino'], done: 'devolvido' },
    cancelar: { from: ['rascunho', 'devolvido'], to: 'cancelado', label: 'Cancelar', reason: true, tone: 'danger', done: 'cancelado' },
  },
});

const schema: SchemaLike = { safeParse: (value) => ({ success: true, data: value }) };

const pages = defineDocumentPages({
  endpoint: '/memorandos/memorandos',
  title: 'Memorandos',
  newTitle: 'Novo memorando',
  editTitle: 'Editar memorando',
  documento: 'Memorando',
  flow: fluxo,
  schema,
  columns: [{ key: 'assunto', header: 'Assunto' }],
  fields: [{ name: 'assunto', type: 'text', label: 'Assunto', required: true }],
  items: { product: { endpoint: '/produtos/produtos', label: (p) => String(p.descricao) } },
  slots: {
    rowActions: (row) => <button type="button">Ver {String(row.assunto)}</button>,
    panels: (record) => <p>Painel do plugin: {String(record.assunto)}</p>,
  },
});

const memorando = (over: Row = {}): Row => ({
  id: 'm12',
  numero: 12,
  ano: 2026,
  version: 4,
  status: 'rascunho',
  assunto: 'Material de expediente',
  editavel: true,
  transicoes: ['enviar', 'cancelar'],
  itens: [{ id: 'i1', produtoId: 'p1', produtoDescricao: 'Papel A4', unidade: 'RESMA', quantidade: '3', valorUnitario: '0.3333' }],
  ...over,
});

const historico = {
  items: [
    {
      id: 2,
      at: '2026-03-02T13:00:00.000Z',
      usuario: { id: 'u1', nome: 'Maria Souza' },
      acao: 'enviar',
      motivo: null,
      mudancas: [{ campo: 'status', antes: 'rascunho', depois: 'enviado' }],
    },
    { id: 1, at: '2026-03-01T12:00:00.000Z', usuario: { id: 'u1', nome: 'Maria Souza' }, acao: 'criar', motivo: null, mudancas: [] },
  ],
};

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <Router base="/memorando">
        <Suspense fallback={<p>Carregando…</p>}>
          <Switch>
            <Route path="/new">
              <pages.New />
            </Route>
            <Route path="/edit/:id">
              <pages.Edit />
            </Route>
            <Route path="/duplicar/:id">
              <pages.Duplicate />
            </Route>
            <Route path="/">
              <pages.List />
            </Route>
          </Switch>
        </Suspense>
      </Router>
    </QueryClientProvider>,
  );
}

const toasts = () =>
  getCoreStore()
    .get(toastsAtom)
    .map((t) => t.message);
const params = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const header = () => screen.getByRole('heading', { level: 1 }).closest('.page-header') as HTMLElement;

describe('documentRoutes', () => {
  it('list, new, edit and duplicar/:id, loaded lazily', async () => {
    const load = vi.fn(async () => ({ default: pages }));
    const routes = documentRoutes({ title: 'Memorandos', newTitle: 'Novo memorando', editTitle: 'Editar memorando' }, load, { tag: 29 });
    expect(routes.map((r) => [r.path, r.title, r.tag])).toEqual([
      ['/', 'Memorandos', 29],
      ['/new', 'Novo memorando', 29],
      ['/edit/:id', 'Editar memorando', 29],
      ['/duplicar/:id', 'Duplicar memorando', 29],
    ]);
    expect(load).not.toHaveBeenCalled();
    expect((await routes[3]!.load()).default).toBe(pages.Duplicate);
  });
});

describe('document list', () => {
  it('Número and a status badge; status (several) and period filters in the URL and the query; no ativo', async () => {
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos': () =>
        json({
          items: [memorando(), memorando({ id: 'm11', numero: 11, status: 'enviado', editavel: false, assunto: 'Cadeiras' })],
          total: 2,
          page: 1,
          pageSize: 20,
        }),
    });
    renderAt('/memorando');
    const table = await screen.findByRole('table', { name: 'Memorandos' });
    await within(table).findByText('Material de expediente');
    const rows = within(table).getAllByRole('row');
    expect([...rows[0]!.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Número', 'Assunto', 'Situação', 'Ações']);
    expect([...rows[1]!.children].slice(0, 3).map((c) => c.textContent)).toEqual(['12/2026', 'Material de expediente', 'Rascunho']);
    expect(within(rows[2]!).getByText('Enviado').getAttribute('data-status')).toBe('enviado');
    // an editable one is edited, the other opened; the plugin's row action is there
    expect(within(rows[1]!).getByRole('link', { name: 'Editar 12/2026' }).getAttribute('href')).toBe('/memorando/edit/m12');
    expect(within(rows[2]!).getByRole('link', { name: 'Abrir 11/2026' })).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Ver Cadeiras' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Situação' })).toBeNull();
    expect(params(calls[0]!)).toEqual({ sort: '-numero', page: '1', pageSize: '20' });

    // status: several at once, in a disclosure that Escape closes
    const summary = screen.getByText('Todas').closest('summary') as HTMLElement;
    const disclosure = summary.parentElement as HTMLDetailsElement;
    fireEvent.click(summary);
    expect(disclosure.open).toBe(true);
    fireEvent.keyDown(screen.getByRole('checkbox', { name: 'Enviado' }), { key: 'Escape' });
    expect(disclosure.open).toBe(false);
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Enviado' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Aceito' }));
    });
    expect(new URLSearchParams(window.location.search).get('status')).toBe('enviado,aceito');
    expect(summary.textContent).toBe('Situação: Enviado, Aceito');
    // period
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Período: de'), { target: { value: '2026-01-01' } });
    });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('até'), { target: { value: '2026-03-31' } });
    });
    await waitFor(() =>
      expect(params(calls.at(-1)!)).toEqual({
        status: 'enviado,aceito',
        dataDe: '2026-01-01',
        dataAte: '2026-03-31',
        sort: '-numero',
        page: '1',
        pageSize: '20',
      }),
    );
  });
});

describe('document edit page', () => {
  it('shows exactly the transitions of the record; one without a reason asks, posts the version, reloads the record and says what happened', async () => {
    let posted: Row | undefined;
    // the server's record: GET answers what the transition left (the page reads it again after a write)
    let atual = memorando();
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(atual),
      'GET /api/memorandos/memorandos/m12/historico': () => json(historico),
      'POST /api/memorandos/memorandos/m12/enviar': async (req) => {
        posted = (await req.json()) as Row;
        atual = memorando({ status: 'enviado', version: 5, editavel: false, transicoes: [] });
        return json(atual);
      },
    });
    renderAt('/memorando/edit/m12');
    expect(await screen.findByText('Memorando 12/2026 · Rascunho')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Editar memorando' })).toBeTruthy();
    const bar = within(header());
    expect(await bar.findByRole('button', { name: 'Enviar' })).toBeTruthy();
    expect(bar.getByRole('button', { name: 'Cancelar' })).toBeTruthy();
    expect(bar.queryByRole('button', { name: 'Aceitar' })).toBeNull();
    expect(bar.queryByRole('button', { name: 'Devolver' })).toBeNull();
    expect(bar.getByRole('button', { name: 'Duplicar' })).toBeTruthy();
    expect(bar.getByRole('button', { name: 'Imprimir (PDF)' })).toBeTruthy();
    // the plugin's panel, then the timeline with the flow's words
    expect(screen.getByText('Painel do plugin: Material de expediente')).toBeTruthy();
    const timeline = await screen.findByRole('list', { name: 'Histórico' });
    expect(timeline.textContent).toContain('Maria Souza');
    expect(timeline.textContent).toContain('Situação: Rascunho → Enviado');

    await act(async () => {
      fireEvent.click(bar.getByRole('button', { name: 'Enviar' }));
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Enviar memorando 12/2026?' });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    });
    await waitFor(() => expect(toasts()).toContain('Memorando 12/2026 enviado.'));
    expect(posted).toEqual({ version: 4 });
    // the record as the server answered: enviado, read-only, no transitions left for this person
    expect(await screen.findByText('Memorando 12/2026 · Enviado')).toBeTruthy();
    expect(screen.getByText('Este memorando está enviado: somente leitura.')).toBeTruthy();
    // read-only: titled by what it is, not 'Editar memorando'
    expect(screen.getByRole('heading', { level: 1, name: 'Memorando' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(within(header()).queryByRole('button', { name: 'Enviar' })).toBeNull();
    expect((screen.getByLabelText(/^Assunto/) as HTMLInputElement).readOnly).toBe(true);
  });

  it("a numbered draft has no Excluir (it is cancelled); another person's draft opens read-only, saying who may change it", async () => {
    mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando()),
      'GET /api/memorandos/memorandos/m13': () => json(memorando({ id: 'm13', numero: 13, editavel: false, transicoes: [] })),
      'GET /api/memorandos/memorandos/m12/historico': () => json(historico),
      'GET /api/memorandos/memorandos/m13/historico': () => json(historico),
    });
    const view = renderAt('/memorando/edit/m12');
    expect(await screen.findByRole('button', { name: 'Salvar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    expect(within(header()).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
    view.unmount();
    renderAt('/memorando/edit/m13');
    expect(await screen.findByText('Só quem criou este rascunho pode alterá-lo: somente leitura.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    expect(within(header()).queryByRole('button', { name: 'Enviar' })).toBeNull();
  });

  it('a transition with a reason requires it (pt-BR message) and sends it', async () => {
    let posted: Row | undefined;
    let atual = memorando({ status: 'enviado', editavel: false, transicoes: ['aceitar', 'devolver'] });
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(atual),
      'GET /api/memorandos/memorandos/m12/historico': () => json({ items: [] }),
      'POST /api/memorandos/memorandos/m12/devolver': async (req) => {
        posted = (await req.json()) as Row;
        atual = memorando({ status: 'devolvido', version: 5, editavel: true, transicoes: ['enviar', 'cancelar'] });
        return json(atual);
      },
    });
    renderAt('/memorando/edit/m12');
    const bar = within(await waitFor(() => header()));
    await act(async () => {
      fireEvent.click(await bar.findByRole('button', { name: 'Devolver' }));
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Devolver memorando 12/2026?' });
    const motivo = within(dialog).getByLabelText(/Motivo/) as HTMLTextAreaElement;
    await waitFor(() => expect(document.activeElement).toBe(motivo));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Devolver' }));
    });
    expect(within(dialog).getByText('Informe o motivo (ao menos 3 caracteres).')).toBeTruthy();
    expect(motivo.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.change(motivo, { target: { value: '  Faltou a justificativa dos itens.  ' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Devolver' }));
    });
    await waitFor(() => expect(toasts()).toContain('Memorando 12/2026 devolvido.'));
    expect(posted).toEqual({ version: 4, motivo: 'Faltou a justificativa dos itens.' });
    // devolvido is editable again, and offers what the server says
    expect(await screen.findByRole('button', { name: 'Salvar' })).toBeTruthy();
    expect(within(header()).getByRole('button', { name: 'Enviar' })).toBeTruthy();
  });

  it('a refused transition (409) says why and shows the record as it is now', async () => {
    let reads = 0;
    mockApi({
      'GET /api/memorandos/memorandos/m12': () => {
        reads++;
        return json(reads === 1 ? memorando() : memorando({ status: 'cancelado', editavel: false, transicoes: [], version: 5 }));
      },
      'GET /api/memorandos/memorandos/m12/historico': () => json({ items: [] }),
      'POST /api/memorandos/memorandos/m12/enviar': () =>
        json({ error: { code: 'invalid_transition', message: 'Não é possível enviar: o documento está cancelado.' } }, 409),
    });
    renderAt('/memorando/edit/m12');
    const bar = within(await waitFor(() => header()));
    await act(async () => {
      fireEvent.click(await bar.findByRole('button', { name: 'Enviar' }));
    });
    await act(async () => {
      fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Enviar' }));
    });
    await waitFor(() => expect(toasts()).toContain('Não é possível enviar: o documento está cancelado.'));
    expect(await screen.findByText('Memorando 12/2026 · Cancelado')).toBeTruthy();
  });

  it('Duplicar creates the new draft and opens it; the toast names both numbers', async () => {
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando({ status: 'aceito', editavel: false, transicoes: [] })),
      'GET /api/memorandos/memorandos/m13': () => json(memorando({ id: 'm13', numero: 13 })),
      'GET /api/memorandos/memorandos/m12/historico': () => json({ items: [] }),
      'GET /api/memorandos/memorandos/m13/historico': () => json({ items: [] }),
      'POST /api/memorandos/memorandos/m12/duplicar': () => json(memorando({ id: 'm13', numero: 13 }), 201),
    });
    renderAt('/memorando/edit/m12');
    const bar = within(await waitFor(() => header()));
    await act(async () => {
      fireEvent.click(await bar.findByRole('button', { name: 'Duplicar' }));
    });
    await waitFor(() => expect(window.location.pathname).toBe('/memorando/edit/m13'));
    expect(toasts()).toContain('Memorando 13/2026 criado a partir de 12/2026.');
    expect(await screen.findByText('Memorando 13/2026 · Rascunho')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('the duplicar/:id route duplicates once and replaces itself with the new draft', async () => {
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando()),
      'GET /api/memorandos/memorandos/m13': () => json(memorando({ id: 'm13', numero: 13 })),
      'GET /api/memorandos/memorandos/m13/historico': () => json({ items: [] }),
      'POST /api/memorandos/memorandos/m12/duplicar': () => json(memorando({ id: 'm13', numero: 13 }), 201),
    });
    window.history.replaceState(null, '', '/memorando');
    window.history.pushState(null, '', '/memorando/duplicar/m12');
    renderAt('/memorando/duplicar/m12');
    await waitFor(() => expect(window.location.pathname).toBe('/memorando/edit/m13'));
    expect(await screen.findByRole('heading', { name: 'Editar memorando' })).toBeTruthy();
    expect(toasts()).toContain('Memorando 13/2026 criado a partir de 12/2026.');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('Imprimir (PDF) fetches the PDF with the bearer token and opens it in a new tab', async () => {
    const token = makeToken();
    getCoreStore().set(tokenAtom, token);
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m12': () => json(memorando()),
      'GET /api/memorandos/memorandos/m12/historico': () => json({ items: [] }),
      'GET /api/memorandos/memorandos/m12.pdf': () => new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'content-type': 'application/pdf' } }),
    });
    const tab = { closed: false, opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    // jsdom has no object URLs
    const blobUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/pdf-1');
    URL.revokeObjectURL = vi.fn();
    try {
      renderAt('/memorando/edit/m12');
      const bar = within(await waitFor(() => header()));
      await act(async () => {
        fireEvent.click(await bar.findByRole('button', { name: 'Imprimir (PDF)' }));
      });
      await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/pdf-1'));
    } finally {
      Object.assign(URL, blobUrls);
    }
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    const pdf = calls.find((c) => c.url.endsWith('/m12.pdf'))!;
    expect(pdf.headers.get('Authorization')).toBe(`Bearer ${token}`);
  });
});
