import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import FormPage, { UNSAVED_MESSAGE } from '../src/resource/FormPage';
import ListPage, { SEARCH_DEBOUNCE_MS } from '../src/resource/ListPage';
import { defineResourcePages } from '../src/resource/define';
import { resourceRoutes } from '../src/resource/routes';
import type { ResourceConfig, SchemaLike } from '../src/resource/types';
import { applyMask, parseListState, serializeListState } from '../src/resource/urlState';
import { getCoreStore } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, mockApi } from './helpers';

const defaults = { pageSize: 20, sort: 'nome', filters: ['grupoId'] };

describe('list state in the URL', () => {
  it('parses a bookmarked query string and falls back to defaults on garbage', () => {
    expect(parseListState('?q=a%C3%A7ucar&page=3&pageSize=50&sort=-codigo&ativo=todos&grupoId=g1', defaults)).toEqual({
      q: 'açucar',
      page: 3,
      pageSize: 50,
      sort: '-codigo',
      ativo: 'todos',
      filters: { grupoId: 'g1' },
    });
    expect(parseListState('?page=-2&pageSize=9999&sort=x;drop&ativo=talvez', defaults)).toEqual({
      q: '',
      page: 1,
      pageSize: 20,
      sort: 'nome',
      ativo: 'true',
      filters: {},
    });
  });

  it('serializes without defaults, so the default list is the bare URL; round-trips', () => {
    const base = parseListState('', defaults);
    expect(serializeListState(base, defaults)).toBe('');
    const state = { ...base, q: 'papel', page: 2, sort: '-nome', ativo: 'false' as const, filters: { grupoId: 'g1' } };
    const search = serializeListState(state, defaults);
    expect(search).toBe('q=papel&grupoId=g1&ativo=false&sort=-nome&page=2');
    expect(parseListState(search, defaults)).toEqual(state);
  });

  it('masks as the user types', () => {
    expect(applyMask('9999-9/99', '4761003')).toBe('4761-0/03');
    expect(applyMask('9999-9/99', '4761')).toBe('4761');
    expect(applyMask('9999-9/99', '47a61-0')).toBe('4761-0');
    expect(applyMask('AAA-9999', 'abc1234')).toBe('ABC-1234');
  });

  it('resourceRoutes gives list, new and edit routes that load the page module lazily', async () => {
    const pages = defineResourcePages(config);
    const load = vi.fn(async () => ({ default: pages }));
    const routes = resourceRoutes({ title: 'Grupos', newTitle: 'Novo grupo', editTitle: 'Editar grupo' }, load);
    expect(routes.map((r) => [r.path, r.title])).toEqual([
      ['/', 'Grupos'],
      ['/new', 'Novo grupo'],
      ['/edit/:id', 'Editar grupo'],
    ]);
    expect(load).not.toHaveBeenCalled();
    expect((await routes[2]!.load()).default).toBe(pages.Edit);
  });
});

// ----------------------------------------------------------------------------- pages

/** A hand-written stand-in for the shared zod schema (core does not depend on zod). */
const schema: SchemaLike = {
  safeParse(value) {
    const v = value as Record<string, unknown>;
    const issues: { path: string[]; message: string }[] = [];
    if (!String(v.codigo ?? '').trim()) issues.push({ path: ['codigo'], message: 'Informe o código.' });
    if (String(v.nome ?? '').trim().length < 3) issues.push({ path: ['nome'], message: 'Informe o nome do grupo.' });
    if (v.quantidade !== null && typeof v.quantidade !== 'number') issues.push({ path: ['quantidade'], message: 'Informe um número.' });
    return issues.length ? { success: false, error: { issues } } : { success: true, data: v };
  },
};

const config: ResourceConfig = {
  endpoint: '/registros/grupos',
  title: 'Grupos de Produto ou Serviço',
  newTitle: 'Novo grupo',
  editTitle: 'Editar grupo',
  columns: [
    { key: 'codigo', header: 'Código' },
    { key: 'nome', header: 'Nome' },
  ],
  defaultSort: 'nome',
  schema,
  fields: [
    { name: 'codigo', type: 'text', label: 'Código', required: true },
    { name: 'nome', type: 'text', label: 'Nome', required: true },
    { name: 'quantidade', type: 'number', label: 'Quantidade' },
    { name: 'cnae', type: 'masked', label: 'CNAE', mask: '9999-9/99' },
  ],
};

const rows = Array.from({ length: 45 }, (_, i) => ({
  id: `id-${i + 1}`,
  codigo: String(i + 1).padStart(2, '0'),
  nome: `Grupo ${i + 1}`,
  quantidade: null,
  cnae: null,
  ativo: true,
  version: 1,
}));

function renderAt(path: string, children: ReactNode) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <Router base="/ggrupo">{children}</Router>
    </QueryClientProvider>,
  );
}

const params = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

describe('resource list page', () => {
  it('keeps search (debounced), sort, page and ativo in the URL; Back restores them', async () => {
    const { calls } = mockApi({
      'GET /api/registros/grupos': (request) => {
        const p = params(request);
        const page = Number(p.page);
        const filtered = rows.filter((r) => !p.q || r.nome.includes(p.q));
        return json({ items: filtered.slice((page - 1) * 20, page * 20), total: filtered.length, page, pageSize: 20 });
      },
    });
    renderAt('/ggrupo', <ListPage config={config} />);
    expect(await screen.findByRole('heading', { name: 'Grupos de Produto ou Serviço' })).toBeTruthy();
    expect(await screen.findByText('Grupo 1')).toBeTruthy();
    expect(params(calls[0]!)).toEqual({ ativo: 'true', sort: 'nome', page: '1', pageSize: '20' });
    expect(screen.getByText('45 registros')).toBeTruthy();

    // next page → ?page=2 (a history entry)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    });
    expect(window.location.search).toBe('?page=2');
    await screen.findByText('Grupo 21');

    // sort by Código descending: click twice → ?sort=-codigo, back to page 1
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Código/ }));
    });
    expect(window.location.search).toBe('?sort=codigo');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Código/ }));
    });
    expect(window.location.search).toBe('?sort=-codigo');
    expect(screen.getByRole('columnheader', { name: /Código/ }).getAttribute('aria-sort')).toBe('descending');

    // Situação: Todos
    fireEvent.change(screen.getByLabelText('Situação'), { target: { value: 'todos' } });
    expect(window.location.search).toBe('?ativo=todos&sort=-codigo');

    // search: nothing until the pause, then ?q= (replacing the entry), page 1
    // (the fake clock stays until the answer is painted: a timer the query or the list sets meanwhile is a fake
    // one, and would never fire once real timers are back — a busy CI machine made that a flaky test)
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.change(screen.getByLabelText('Buscar'), { target: { value: 'Grupo 4' } });
      expect(window.location.search).toBe('?ativo=todos&sort=-codigo');
      await act(async () => {
        vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS + 10);
      });
      expect(window.location.search).toBe('?q=Grupo+4&ativo=todos&sort=-codigo');
      await waitFor(() => expect(params(calls[calls.length - 1]!)).toMatchObject({ q: 'Grupo 4', ativo: 'todos', sort: '-codigo', page: '1' }));
      expect(await screen.findByText('7 registros')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }

    // Back: the search replaced its entry, so Back returns to "sorted descending, page 1"
    const back = async (search: string) => {
      await act(async () => {
        window.history.back();
      });
      await waitFor(() => expect(window.location.search).toBe(search));
    };
    await back('?sort=-codigo');
    await waitFor(() => expect((screen.getByLabelText('Buscar') as HTMLInputElement).value).toBe(''));
    expect((screen.getByLabelText('Situação') as HTMLSelectElement).value).toBe('true');

    // further Back: ascending, then page 2 as it was
    const last = calls.length;
    await back('?sort=codigo');
    await back('?page=2');
    await waitFor(() => expect(params(calls[calls.length - 1]!)).toMatchObject({ page: '2', sort: 'nome' }));
    expect(calls.length).toBeGreaterThan(last);
    expect(screen.getByText('Página 2 de 3')).toBeTruthy();
  });

  it('links each row to its edit page and the button to the new page', async () => {
    mockApi({ 'GET /api/registros/grupos': () => json({ items: rows.slice(0, 2), total: 2, page: 1, pageSize: 20 }) });
    renderAt('/ggrupo?q=x', <ListPage config={config} />);
    const link = await screen.findByRole('link', { name: 'Editar 01' });
    expect(link.getAttribute('href')).toBe('/ggrupo/edit/id-1');
    expect(screen.getByRole('link', { name: 'Novo grupo' }).getAttribute('href')).toBe('/ggrupo/new');
  });
});

function FormRoutes() {
  return (
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
}

describe('resource form page', () => {
  it('validates with the shared schema (pt-BR messages) before calling the API', async () => {
    const { calls } = mockApi({ 'POST /api/registros/grupos': () => json({ id: 'n1' }, 201) });
    renderAt('/ggrupo/new', <FormRoutes />);
    expect(await screen.findByRole('heading', { name: 'Novo grupo' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'ab' } });
    fireEvent.change(screen.getByLabelText('Quantidade'), { target: { value: '1x' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    expect(screen.getByText('Informe o código.')).toBeTruthy();
    expect(screen.getByText('Informe o nome do grupo.')).toBeTruthy();
    expect(screen.getByText('Verifique os campos destacados.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('saves: masked and number fields are sent clean; then stays on the new record, saying which was saved', async () => {
    let sent: unknown;
    mockApi({
      'POST /api/registros/grupos': async (req) => {
        sent = await req.json();
        return json({ id: 'n1', ...(sent as object), ativo: true, version: 1 }, 201);
      },
      'GET /api/registros/grupos/n1': () => json({ id: 'n1', ...(sent as object), ativo: true, version: 1 }),
    });
    renderAt('/ggrupo/new', <FormRoutes />);
    fireEvent.change(await screen.findByLabelText(/^Código/), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'Material Esportivo' } });
    fireEvent.change(screen.getByLabelText('Quantidade'), { target: { value: '1.234,5' } });
    fireEvent.change(screen.getByLabelText('CNAE'), { target: { value: '4761003' } });
    expect((screen.getByLabelText('CNAE') as HTMLInputElement).value).toBe('4761-0/03');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    // the new record's edit page, in place of /new in the history
    expect(await screen.findByRole('heading', { name: 'Editar grupo' })).toBeTruthy();
    expect(window.location.pathname).toBe('/ggrupo/edit/n1');
    expect(sent).toEqual({ codigo: '10', nome: 'Material Esportivo', quantidade: 1234.5, cnae: '4761-0/03' });
    expect((screen.getByLabelText(/^Nome/) as HTMLInputElement).value).toBe('Material Esportivo');
    expect((screen.getByLabelText('Quantidade') as HTMLInputElement).value).toBe('1234,5');
    expect(
      getCoreStore()
        .get(toastsAtom)
        .map((t) => t.message),
    ).toContain('Grupo 10 salvo.');
  });

  it('after saving changes says which record was saved, then goes back to the list', async () => {
    mockApi({
      'GET /api/registros/grupos/g1': () => json({ id: 'g1', codigo: '01', nome: 'Expediente', quantidade: null, cnae: null, ativo: true, version: 1 }),
      'PUT /api/registros/grupos/g1': async (req) => json({ id: 'g1', ...((await req.json()) as object), ativo: true, version: 2 }),
    });
    const named = { ...config, recordLabel: (row: Record<string, unknown>) => String(row.nome) };
    renderAt(
      '/ggrupo/edit/g1',
      <Switch>
        <Route path="/edit/:id">
          <FormPage config={named} mode="edit" />
        </Route>
        <Route>
          <h1>Lista</h1>
        </Route>
      </Switch>,
    );
    const nome = (await screen.findByDisplayValue('Expediente')) as HTMLInputElement;
    fireEvent.change(nome, { target: { value: 'Medicamentos' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    expect(await screen.findByRole('heading', { name: 'Lista' })).toBeTruthy();
    expect(
      getCoreStore()
        .get(toastsAtom)
        .map((t) => t.message),
    ).toContain('Grupo Medicamentos salvo.');
  });

  it('warns before leaving with unsaved changes (beforeunload and in-app links)', async () => {
    mockApi({});
    renderAt('/ggrupo/new', <FormRoutes />);
    fireEvent.change(await screen.findByLabelText(/^Nome/), { target: { value: 'Algo' } });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    const native = vi.spyOn(window, 'confirm');
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    });
    // the app's dialog, not the browser's
    let dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    expect(within(dialog).getByText(UNSAVED_MESSAGE)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(window.location.pathname).toBe('/ggrupo/new');
    expect((screen.getByLabelText(/^Nome/) as HTMLInputElement).value).toBe('Algo');
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    });
    dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Sair sem salvar' }));
    });
    expect(await screen.findByRole('heading', { name: 'Lista' })).toBeTruthy();
    expect(native).not.toHaveBeenCalled();
  });

  it('the question goes away with the page (e.g. signed out while it was open)', async () => {
    mockApi({});
    const view = renderAt('/ggrupo/new', <FormRoutes />);
    fireEvent.change(await screen.findByLabelText(/^Nome/), { target: { value: 'Algo' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    });
    expect(await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' })).toBeTruthy();
    view.unmount();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.body.querySelector('[aria-hidden="true"]')).toBeNull();
  });

  it('asks before Back leaves a form with unsaved changes; staying keeps the form, leaving goes back', async () => {
    mockApi({});
    window.history.replaceState(null, '', '/ggrupo?q=papel');
    window.history.pushState(null, '', '/ggrupo/new');
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <Router base="/ggrupo">
          <FormRoutes />
        </Router>
      </QueryClientProvider>,
    );
    fireEvent.change(await screen.findByLabelText(/^Nome/), { target: { value: 'Algo' } });
    await act(async () => {
      window.history.back();
    });
    let dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(window.location.pathname).toBe('/ggrupo/new');
    expect((screen.getByLabelText(/^Nome/) as HTMLInputElement).value).toBe('Algo');
    await act(async () => {
      window.history.back();
    });
    dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Sair sem salvar' }));
    });
    expect(await screen.findByRole('heading', { name: 'Lista' })).toBeTruthy();
    expect(window.location.search).toBe('?q=papel');
  });

  it("on 409 stale shows an Alert offering 'Recarregar', which loads the current version", async () => {
    let version = 1;
    mockApi({
      'GET /api/registros/grupos/g1': () =>
        json({ id: 'g1', codigo: '01', nome: version === 1 ? 'Expediente' : 'Expediente (alterado)', quantidade: 2.5, cnae: '4761003', ativo: true, version }),
      'PUT /api/registros/grupos/g1': () => {
        version = 2;
        return json({ error: { code: 'stale', message: 'Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.' } }, 409);
      },
    });
    renderAt('/ggrupo/edit/g1', <FormRoutes />);
    const nome = (await screen.findByLabelText(/^Nome/)) as HTMLInputElement;
    await waitFor(() => expect(nome.value).toBe('Expediente'));
    expect((screen.getByLabelText('Quantidade') as HTMLInputElement).value).toBe('2,5');
    expect((screen.getByLabelText('CNAE') as HTMLInputElement).value).toBe('4761-0/03');
    fireEvent.change(nome, { target: { value: 'Meu nome' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    const alert = await screen.findByText(/Este registro foi alterado por outra pessoa/);
    await act(async () => {
      fireEvent.click(within(alert.closest('.alert') as HTMLElement).getByRole('button', { name: 'Recarregar' }));
    });
    await waitFor(() => expect((screen.getByLabelText(/^Nome/) as HTMLInputElement).value).toBe('Expediente (alterado)'));
    expect(screen.queryByText(/Este registro foi alterado por outra pessoa/)).toBeNull();
  });

  it('Excluir asks for confirmation; a record in use stays and the reason is shown', async () => {
    const { calls } = mockApi({
      'GET /api/registros/grupos/g1': () => json({ id: 'g1', codigo: '01', nome: 'Expediente', quantidade: null, cnae: null, ativo: true, version: 1 }),
      'DELETE /api/registros/grupos/g1': () =>
        json({ error: { code: 'in_use', message: 'Usado em 3 sub-grupos. Para tirá-lo das listas de escolha, desative-o.' } }, 409),
      'POST /api/registros/grupos/g1/desativar': () => json({ id: 'g1', codigo: '01', nome: 'Expediente', ativo: false, version: 2 }),
    });
    renderAt('/ggrupo/edit/g1', <FormRoutes />);
    await screen.findByDisplayValue('Expediente');
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Excluir' }));
    });
    const dialog = screen.getByRole('alertdialog', { name: 'Excluir este registro?' });
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    });
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() =>
      expect(
        getCoreStore()
          .get(toastsAtom)
          .map((t) => t.message),
      ).toContain('Usado em 3 sub-grupos. Para tirá-lo das listas de escolha, desative-o.'),
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Desativar' }));
    });
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Desativar este registro?' })).getByRole('button', { name: 'Desativar' }));
    });
    expect(await screen.findByRole('button', { name: 'Ativar' })).toBeTruthy();
    expect(screen.getByText(/Inativo/)).toBeTruthy();
  });
});
