// What a form needs beyond its declaration, in general terms: an API that answers a create with
// `{ id }` only, rules the schema cannot check (`validate`), notices above the form, leaving from a
// panel past the guard, and a config the page builds at run time (`ResourceForm`).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ReactNode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import FormPage from '../src/resource/FormPage';
import { ResourceForm } from '../src/resource/define';
import type { ResourceConfig, SchemaLike } from '../src/resource/types';
import { getCoreStore } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, mockApi } from './helpers';

afterEach(() => {
  vi.unstubAllGlobals();
});

const schema: SchemaLike = {
  safeParse(value) {
    const v = value as Record<string, unknown>;
    return String(v.nome ?? '').trim().length < 3
      ? { success: false, error: { issues: [{ path: ['nome'], message: 'Informe o nome.' }] } }
      : { success: true, data: v };
  },
};

const base: ResourceConfig = {
  endpoint: '/teste/contas',
  title: 'Contas',
  newTitle: 'Nova conta',
  editTitle: 'Editar conta',
  columns: [{ key: 'nome', header: 'Nome' }],
  schema,
  fields: [
    { name: 'nome', type: 'text', label: 'Nome', required: true },
    { name: 'codigo', type: 'text', label: 'Código' },
  ],
  ativo: false,
};

function renderAt(path: string, children: ReactNode) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <Router base="/conta">
        <Suspense fallback={<p>Carregando…</p>}>{children}</Suspense>
      </Router>
    </QueryClientProvider>,
  );
}

const routes = (config: ResourceConfig) => (
  <Switch>
    <Route path="/new">
      <FormPage config={config} mode="new" />
    </Route>
    <Route path="/edit/:id">
      <FormPage config={config} mode="edit" />
    </Route>
    <Route>
      <h1>Lista</h1>
    </Route>
  </Switch>
);

const toasts = () =>
  getCoreStore()
    .get(toastsAtom)
    .map((t) => t.message);

describe("createAnswer: 'id'", () => {
  it('names the record from what was sent, then its Edit page reads it (the answer is not taken for the record)', async () => {
    const { calls } = mockApi({
      'POST /api/teste/contas': () => json({ id: 'c9' }, 201),
      'GET /api/teste/contas/c9': () => json({ id: 'c9', nome: 'Conta Nove', codigo: 'C-9', version: 1 }),
    });
    renderAt('/conta/new', routes({ ...base, createAnswer: 'id' }));
    fireEvent.change(await screen.findByLabelText(/^Nome/), { target: { value: 'Conta Nove' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    expect(await screen.findByRole('heading', { name: 'Editar conta' })).toBeTruthy();
    expect(window.location.pathname).toBe('/conta/edit/c9');
    // the Edit page read the record: the code the server holds is shown
    expect(((await screen.findByLabelText('Código')) as HTMLInputElement).value).toBe('C-9');
    expect(calls.filter((c) => c.method === 'GET').map((c) => new URL(c.url).pathname)).toEqual(['/api/teste/contas/c9']);
    expect(toasts()).toContain('Conta Conta Nove salva.');
  });

  it('without it, the answer is the record: shown at once', async () => {
    mockApi({
      'POST /api/teste/contas': () => json({ id: 'c8', nome: 'Conta Oito', codigo: 'C-8', version: 1 }, 201),
    });
    renderAt('/conta/new', routes(base));
    fireEvent.change(await screen.findByLabelText(/^Nome/), { target: { value: 'Conta Oito' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    // (no GET route: the record shown is the answer)
    expect(((await screen.findByLabelText('Código')) as HTMLInputElement).value).toBe('C-8');
  });
});

describe('validate: rules beyond the schema', () => {
  it('shows its messages with the schema’s (the schema wins on the same path) and sends nothing', async () => {
    const validate = vi.fn((body: Record<string, unknown>, _ctx: unknown) => ({
      codigo: body.codigo ? '' : 'Informe o código desta entidade.',
      nome: String(body.nome).length < 3 ? 'Mensagem que o schema substitui.' : '',
    }));
    const { calls } = mockApi({ 'POST /api/teste/contas': () => json({ id: 'c1' }, 201) });
    renderAt('/conta/new', routes({ ...base, validate: (body, ctx) => Object.fromEntries(Object.entries(validate(body, ctx)).filter(([, m]) => m)) }));
    fireEvent.change(await screen.findByLabelText(/^Nome/), { target: { value: 'ab' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    expect(screen.getByText('Informe o código desta entidade.')).toBeTruthy();
    expect(screen.getByText('Informe o nome.')).toBeTruthy();
    expect(screen.queryByText('Mensagem que o schema substitui.')).toBeNull();
    expect(validate).toHaveBeenCalledWith({ nome: 'ab', codigo: '' }, { values: { nome: 'ab', codigo: '' }, record: null });
    expect(calls).toEqual([]);

    // a valid body passes both
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'Conta Um' } });
    fireEvent.change(screen.getByLabelText('Código'), { target: { value: 'C-1' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
  });
});

describe('slots: notices, and goToList from a panel', () => {
  it('a notice above the form of the record; a panel leaves past the guard, without asking', async () => {
    mockApi({ 'GET /api/teste/contas/c2': () => json({ id: 'c2', nome: 'Conta Dois', codigo: '', bloqueada: true, version: 3 }) });
    const config: ResourceConfig = {
      ...base,
      slots: {
        notices: (row) => (row.bloqueada ? <p role="note">Conta bloqueada: só o titular altera o código.</p> : null),
        panels: (_row, ctx) => (
          <button type="button" onClick={ctx.goToList}>
            Remover e voltar
          </button>
        ),
      },
    };
    renderAt('/conta/edit/c2', routes(config));
    expect((await screen.findByRole('note')).textContent).toBe('Conta bloqueada: só o titular altera o código.');
    // the notice is above the form
    const note = screen.getByRole('note');
    const form = screen.getByRole('form', { name: 'Editar conta' });
    expect(note.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'Conta Dois B' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remover e voltar' }));
    expect(await screen.findByRole('heading', { name: 'Lista' })).toBeTruthy();
    expect(window.location.pathname).toBe('/conta');
    expect(screen.queryByText('Sair sem salvar?')).toBeNull();
  });

  it('no notice on the New form', async () => {
    mockApi({});
    renderAt('/conta/new', routes({ ...base, slots: { notices: <p role="note">Aviso</p> } }));
    expect(await screen.findByRole('heading', { name: 'Nova conta' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('ResourceForm', () => {
  it('renders the kit form (its own chunk) for a config built while the page runs', async () => {
    let sent: unknown;
    mockApi({
      'POST /api/teste/contas': async (req) => {
        sent = await req.json();
        return json({ id: 'c3', nome: 'Conta Três', codigo: '', tipo: 'B', version: 1 }, 201);
      },
    });
    const choices = ['A', 'B'];
    const config: ResourceConfig = {
      ...base,
      fields: [...base.fields, { name: 'tipo', type: 'select', label: 'Tipo', options: choices.map((c) => ({ value: c, label: `Tipo ${c}` })) }],
    };
    renderAt('/conta/new', <ResourceForm config={config} mode="new" />);
    expect(await screen.findByRole('heading', { name: 'Nova conta' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'Conta Três' } });
    fireEvent.change(screen.getByLabelText('Tipo'), { target: { value: 'B' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    await waitFor(() => expect(sent).toEqual({ nome: 'Conta Três', codigo: '', tipo: 'B' }));
    // then to the new record's Edit page, as every kit form
    await waitFor(() => expect(window.location.pathname).toBe('/conta/edit/c3'));
  });
});
