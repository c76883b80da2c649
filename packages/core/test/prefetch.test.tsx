// Issue 23: a list's data starts with its chunk. The route's page knows its query (the one ListPage
// reads, from the same URL), a navigation starts it, the chunks of the menu load when idle, and the
// shell's chunk and the page the address opens load together with the session.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { App } from '../src/App';
import { definePlugin } from '../src/contract';
import { QUERY_DEFAULTS } from '../src/queryDefaults';
import { defineResourcePages } from '../src/resource/define';
import { resourceRoutes } from '../src/resource/routes';
import { listQueryForSearch } from '../src/resource/listQuery';
import type { ResourceConfig } from '../src/resource/types';
import { loadPage } from '../src/routing/preload';
import { getCoreStore } from '../src/store';
import { toasterWantedAtom } from '../src/toast/queue';
import { json, makeSession, makeToken, mockApi } from './helpers';

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
  filters: [
    { name: 'tipo', label: 'Tipo', options: [{ value: 'S', label: 'Serviço' }] },
    { name: 'criado', label: 'Criado', period: true },
  ],
  fields: [{ name: 'nome', type: 'text', label: 'Nome', required: true }],
  schema: { safeParse: (value) => ({ success: true, data: value }) },
};
const TITLES = { title: 'Grupos', newTitle: 'Novo grupo', editTitle: 'Editar grupo' };

const page = (items: { id: string; codigo: string; nome: string }[]) => json({ items, total: items.length, page: 1, pageSize: 20 });
const params = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const listCalls = (calls: Request[]) => calls.filter((c) => new URL(c.url).pathname === '/api/registros/grupos');

describe('a list route prefetches the query its page reads', () => {
  it('after a prefetch for a route, the page renders at once with the data, without a second request', async () => {
    const { calls } = mockApi({ 'GET /api/registros/grupos': () => page([{ id: 'g1', codigo: '01', nome: 'Papelaria' }]) });
    const pages = defineResourcePages(config);
    const [listRoute] = resourceRoutes(TITLES, async () => ({ default: pages }));
    const search = 'q=pap&tipo=S&criadoDe=2026-01-01&sort=-codigo&page=2&pageSize=50&ativo=todos';
    const queryClient = new QueryClient({ defaultOptions: QUERY_DEFAULTS });

    // what a navigation to '/ggrupo?<search>' does: the page module (with the list's chunk), then its data
    const mod = await loadPage(listRoute!);
    await mod.default.prefetch?.({ queryClient, search, params: {} });
    expect(listCalls(calls).map(params)).toEqual([{ ativo: 'todos', sort: '-codigo', q: 'pap', page: '2', pageSize: '50', tipo: 'S', criadoDe: '2026-01-01' }]);
    expect(queryClient.getQueryData(listQueryForSearch(config, search).queryKey)).toMatchObject({ total: 1 });

    window.history.replaceState(null, '', `/ggrupo?${search}`);
    const Page = mod.default;
    render(
      <QueryClientProvider client={queryClient}>
        <Router base="/ggrupo">
          <Page />
        </Router>
      </QueryClientProvider>,
    );
    // no Suspense around it: the chunk is in, and the row is there in the first render
    const table = screen.getByRole('table', { name: 'Grupos de Produto ou Serviço' });
    expect(within(table).getByText('Papelaria')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listCalls(calls)).toHaveLength(1);
  });

  it('the default list (no query string) is the same query as the page’s, defaults from the declaration', () => {
    expect(listQueryForSearch(config, '').queryKey).toEqual([
      'resource',
      '/registros/grupos',
      'list',
      { ativo: 'true', sort: 'nome', page: '1', pageSize: '20' },
    ]);
    // a '?' or not, garbage falls back as the page's parse does
    expect(listQueryForSearch(config, '?page=-1&sort=x;y').queryKey).toEqual(listQueryForSearch(config, '').queryKey);
  });
});

describe('the signed-in app', () => {
  function plugins(loads: { grupos: () => Promise<unknown>; memorandos: () => Promise<unknown> }) {
    const pages = defineResourcePages(config);
    return [
      definePlugin({
        id: 'dashboard',
        title: 'Dashboard',
        basePath: '/',
        tag: 0,
        core: '^1.0.0',
        menu: { label: 'Início' },
        routes: [{ path: '/', title: 'Dashboard', load: async () => ({ default: () => <h1>Bem-vinda</h1> }) }],
      }),
      definePlugin({
        id: 'registros',
        title: 'Grupos',
        basePath: '/ggrupo',
        tag: 24,
        core: '^1.0.0',
        menu: { label: 'Grupos' },
        routes: resourceRoutes(TITLES, () => loads.grupos().then(() => ({ default: pages }))),
      }),
      definePlugin({
        id: 'memorandos',
        title: 'Memorandos',
        basePath: '/memorando',
        tag: 29,
        core: '^1.0.0',
        menu: { label: 'Memorandos' },
        routes: [{ path: '/', title: 'Memorandos', load: () => loads.memorandos().then(() => ({ default: () => <h1>Memorandos</h1> })) }],
      }),
    ];
  }

  it('a cold load: the page the address opens loads with the session, not after it; one list request', async () => {
    let answerSession: (() => void) | undefined;
    const { calls } = mockApi({
      'GET /api/session': () =>
        new Promise<Response>((resolve) => {
          answerSession = () => resolve(json(makeSession({ tags: [24] })));
        }),
      'GET /api/registros/grupos': () => page([{ id: 'g1', codigo: '01', nome: 'Papelaria' }]),
    });
    const grupos = vi.fn(async () => undefined);
    localStorage.setItem('token', makeToken());
    window.history.replaceState(null, '', '/ggrupo?q=pap');
    render(<App plugins={plugins({ grupos, memorandos: async () => undefined })} pollers={false} />);
    await waitFor(() => expect(answerSession).toBeDefined());
    // the session is still on its way: the page's chunk is already asked for
    expect(grupos).toHaveBeenCalledTimes(1);
    answerSession!();
    expect(await screen.findByText('Papelaria')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listCalls(calls).map(params)).toEqual([{ ativo: 'true', sort: 'nome', q: 'pap', page: '1', pageSize: '20' }]);
  });

  it("the menu entries are preloaded only once the page's own data is in (not in the way of its request)", async () => {
    let answerList: (() => void) | undefined;
    mockApi({
      'GET /api/session': () => json(makeSession({ tags: [24, 29] })),
      'GET /api/registros/grupos': () =>
        new Promise<Response>((resolve) => {
          answerList = () => resolve(page([{ id: 'g1', codigo: '01', nome: 'Papelaria' }]));
        }),
    });
    const memorandos = vi.fn(async () => undefined);
    localStorage.setItem('token', makeToken());
    window.history.replaceState(null, '', '/ggrupo');
    render(<App plugins={plugins({ grupos: async () => undefined, memorandos })} pollers={false} />);
    await waitFor(() => expect(answerList).toBeDefined());
    // idle, but the list's request is on its way: nothing preloaded yet
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(memorandos).not.toHaveBeenCalled();
    answerList!();
    expect(await screen.findByText('Papelaria')).toBeTruthy();
    await waitFor(() => expect(memorandos).toHaveBeenCalledTimes(1));
  });

  it("the toaster (Radix Toast's chunk) mounts once the page's own data is in, not during the cold load", async () => {
    let answerList: (() => void) | undefined;
    mockApi({
      'GET /api/session': () => json(makeSession({ tags: [24] })),
      'GET /api/registros/grupos': () =>
        new Promise<Response>((resolve) => {
          answerList = () => resolve(page([{ id: 'g1', codigo: '01', nome: 'Papelaria' }]));
        }),
    });
    localStorage.setItem('token', makeToken());
    window.history.replaceState(null, '', '/ggrupo');
    render(<App plugins={plugins({ grupos: async () => undefined, memorandos: async () => undefined })} pollers={false} />);
    // the shell is up, idle, and the list's request is on its way: no toaster asked for yet
    await screen.findByRole('navigation', { name: 'Menu principal' });
    await waitFor(() => expect(answerList).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(getCoreStore().get(toasterWantedAtom)).toBe(false);
    expect(screen.queryByRole('region', { name: /Notificações/ })).toBeNull();
    answerList!();
    expect(await screen.findByText('Papelaria')).toBeTruthy();
    // then its live region is there before any toast
    await waitFor(() => expect(getCoreStore().get(toasterWantedAtom)).toBe(true));
    expect(await screen.findByRole('region', { name: /Notificações/ }, { timeout: 3000 })).toBeTruthy();
  });

  it('when idle, loads the chunks of the menu entries the person can open, and only those', async () => {
    mockApi({ 'GET /api/session': () => json(makeSession({ tags: [24] })) });
    const grupos = vi.fn(async () => undefined);
    const memorandos = vi.fn(async () => undefined);
    localStorage.setItem('token', makeToken());
    window.history.replaceState(null, '', '/');
    render(<App plugins={plugins({ grupos, memorandos })} pollers={false} />);
    await screen.findByRole('heading', { name: 'Bem-vinda' });
    await waitFor(() => expect(grupos).toHaveBeenCalledTimes(1));
    expect(memorandos).not.toHaveBeenCalled();
  });
});
