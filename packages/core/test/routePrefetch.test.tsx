import { defineFlow } from '@app/documents';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../src/api';
import { App } from '../src/App';
import { definePlugin, type PluginRoute, type RoutePrefetchContext } from '../src/contract';
import { queryKeys } from '../src/queryKeys';
import { defineResourcePages, resourceRoutes } from '../src/resource/define';
import { documentResource } from '../src/resource/documents/build';
import { documentListOptions } from '../src/resource/documents/list';
import { listDefaults, listQuery, prefetchList } from '../src/resource/listQuery';
import type { ResourceConfig } from '../src/resource/types';
import { apiParams, parseListState } from '../src/resource/urlState';
import { loadRoute, preloadRoutesWhenIdle, startRoute, whenIdle } from '../src/routing/preload';
import { json, makeSession, makeToken, mockApi } from './helpers';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const context = (search = ''): RoutePrefetchContext => ({ queryClient: new QueryClient(), path: '/x', search, params: {} });

describe('startRoute: the data starts with the chunk', () => {
  it("calls the route's prefetch at once, while its chunk is still loading, then the page's own prefetch when it arrives", async () => {
    const chunk = deferred<{ default: () => null }>();
    const order: string[] = [];
    const pageOwn = vi.fn(() => order.push('page'));
    const route: PluginRoute = {
      path: '/',
      title: 'Lista',
      load: () => {
        order.push('load');
        return chunk.promise;
      },
      prefetch: () => order.push('route'),
    };
    startRoute(route, context());
    expect(order).toEqual(['route']);
    await Promise.resolve();
    expect(order).toEqual(['route', 'load']);
    chunk.resolve({ default: Object.assign(() => null, { prefetch: pageOwn }) });
    await waitFor(() => expect(pageOwn).toHaveBeenCalledTimes(1));
    expect(order).toEqual(['route', 'load', 'page']);
  });

  it('loads a route once, and a failing prefetch is ignored', async () => {
    const load = vi.fn(async () => ({ default: () => null }));
    const route: PluginRoute = {
      path: '/',
      title: 'Lista',
      load,
      prefetch: () => {
        throw new Error('falhou');
      },
    };
    startRoute(route, context());
    startRoute(route, context());
    await loadRoute(route);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a module without a default component is a ChunkLoadError', async () => {
    const route = { path: '/', title: 'X', load: async () => ({}) } as unknown as PluginRoute;
    await expect(loadRoute(route)).rejects.toMatchObject({ name: 'ChunkLoadError' });
  });
});

describe('the list query: the page and the prefetch ask for the same key', () => {
  const config = {
    endpoint: '/registros/grupos',
    title: 'Grupos',
    columns: [{ key: 'nome', header: 'Nome' }],
    fields: [],
    filters: [{ name: 'tipo', label: 'Tipo', options: [] }],
  } as unknown as Parameters<typeof listDefaults>[0] & { endpoint: string };

  it('prefetchList fills the key the list page reads for the same URL', async () => {
    const { fetchMock } = mockApi({ 'GET /api/registros/grupos': () => json({ items: [{ id: '1', nome: 'Limpeza' }], total: 1, page: 2, pageSize: 20 }) });
    const ctx = context('q=limp&page=2&tipo=a&foo=bar');
    await prefetchList(config, ctx);
    const defaults = listDefaults(config);
    const params = apiParams(parseListState(new URLSearchParams('q=limp&page=2&tipo=a&foo=bar'), defaults), defaults);
    expect(params).toEqual({ ativo: 'true', sort: 'nome', q: 'limp', page: '2', pageSize: '20', tipo: 'a' });
    expect(ctx.queryClient.getQueryData(listQuery(config.endpoint, params).queryKey)).toMatchObject({ total: 1 });
    expect(listQuery(config.endpoint, params).queryKey).toEqual(queryKeys.list('/registros/grupos', params));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("a document's list options are the ones the document kit gives its list page", () => {
    const flow = defineFlow({
      initial: 'rascunho',
      states: { rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' }, enviado: { label: 'Enviado', tone: 'info' } },
      transitions: { enviar: { from: ['rascunho'], to: 'enviado', label: 'Enviar', done: 'enviado' } },
    });
    const doc = {
      endpoint: '/memorandos/memorandos',
      title: 'Memorandos',
      newTitle: 'Novo memorando',
      editTitle: 'Editar memorando',
      documento: 'Memorando',
      flow,
      columns: [{ key: 'assunto', header: 'Assunto' }],
      fields: [],
      filters: [{ name: 'prioridade', label: 'Prioridade', options: [] }],
      period: { name: 'emissao', label: 'Emissão' },
    } as unknown as Parameters<typeof documentListOptions>[0];
    const built = documentResource(doc).resource;
    const options = documentListOptions(doc);
    expect(listDefaults(built)).toEqual(listDefaults({ ...(doc as unknown as ResourceConfig), ...options }));
    expect(listDefaults(built)).toEqual({ pageSize: 20, sort: '-numero', filters: ['status', 'emissaoDe', 'emissaoAte', 'prioridade'], ativo: false });
  });
});

describe('idle preload', () => {
  it('whenIdle falls back to a timer without requestIdleCallback (jsdom)', async () => {
    const run = vi.fn();
    whenIdle(run, 1);
    await waitFor(() => expect(run).toHaveBeenCalled());
  });

  it("preloads each route's chunk once, one after the other; a failure is forgotten", async () => {
    let fail = true;
    const a = vi.fn(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => null };
    });
    const b = vi.fn(async () => ({ default: () => null }));
    const routes: PluginRoute[] = [
      { path: '/', title: 'A', load: a },
      { path: '/', title: 'B', load: b },
    ];
    preloadRoutesWhenIdle(routes);
    await waitFor(() => expect(b).toHaveBeenCalledTimes(1));
    expect(a).toHaveBeenCalledTimes(1);
    fail = false;
    // the failed preload left nothing behind: the navigation loads it again
    await expect(loadRoute(routes[0]!)).resolves.toHaveProperty('default');
    expect(a).toHaveBeenCalledTimes(2);
  });
});

/**
 * Runs `steps` as a browser would (outside act(): the shell's navigations are transitions, which
 * React does not retry once act() has returned; see TransitionRouter).
 */
async function asInABrowser(steps: () => Promise<void>) {
  const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const previous = env.IS_REACT_ACT_ENVIRONMENT;
  env.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    await steps();
  } finally {
    env.IS_REACT_ACT_ENVIRONMENT = previous;
  }
}

const relatorioKey = ['relatorio'];
const relatorioFn = () => api.get('relatorio').json<{ nome: string }>();
function RelatorioPage() {
  // the page's own query: the same key and function as the route's prefetch
  const { data } = useQuery({ queryKey: relatorioKey, queryFn: relatorioFn });
  return <h1>{data?.nome ?? 'sem dados'}</h1>;
}

describe('navigating in the signed-in shell', () => {
  function start(plugins: Parameters<typeof App>[0]['plugins'], extra: Parameters<typeof mockApi>[0] = {}) {
    localStorage.setItem('token', makeToken());
    const api = mockApi({ 'GET /api/session': () => json(makeSession({ tags: [0, 24] })), ...extra });
    window.history.replaceState(null, '', '/');
    render(<App plugins={plugins} pollers={false} />);
    return api;
  }

  it("a route's data request starts with its chunk, before the page's chunk has arrived; the page then reads it from the cache", async () => {
    const chunk = deferred<{ default: () => ReactNode }>();
    const fetchList = vi.fn(() => json({ nome: 'Relatório de compras' }));
    const plugins = [
      definePlugin({
        id: 'inicio',
        title: 'Início',
        basePath: '/',
        tag: 0,
        core: '^1.0.0',
        routes: [{ path: '/', title: 'Início', load: async () => ({ default: () => <h1>Bem-vinda</h1> }) }],
      }),
      definePlugin({
        id: 'relatorio',
        title: 'Relatório',
        basePath: '/relatorio',
        tag: 24,
        core: '^1.0.0',
        menu: { label: 'Relatório', group: 'Geral' },
        routes: [
          {
            path: '/',
            title: 'Relatório',
            load: () => chunk.promise,
            prefetch: ({ queryClient }) => queryClient.prefetchQuery({ queryKey: relatorioKey, queryFn: relatorioFn }),
          },
        ],
      }),
    ];
    start(plugins, { 'GET /api/relatorio': fetchList });
    await screen.findByRole('heading', { name: 'Bem-vinda' });

    await asInABrowser(async () => {
      // a native click (fireEvent would wrap it in act())
      screen.getByRole('link', { name: 'Relatório' }).click();
      // the request went out while the page's chunk is still loading
      await waitFor(() => expect(fetchList).toHaveBeenCalledTimes(1));
      // a transition: the previous page stays on screen, no fallback
      expect(screen.getByRole('heading', { name: 'Bem-vinda' })).toBeTruthy();
      expect(screen.queryByText('Carregando…')).toBeNull();

      chunk.resolve({ default: RelatorioPage });
      expect(await screen.findByRole('heading', { name: 'Relatório de compras' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Bem-vinda' })).toBeNull();
    });
    expect(fetchList).toHaveBeenCalledTimes(1);
  });

  it("a kit list asks for its data under the list page's key, with the URL's query string", async () => {
    const grupos = defineResourcePages({
      endpoint: '/registros/grupos',
      title: 'Grupos',
      newTitle: 'Novo grupo',
      editTitle: 'Editar grupo',
      columns: [{ key: 'nome', header: 'Nome' }],
      fields: [{ name: 'nome', type: 'text', label: 'Nome' }],
      schema: { safeParse: (value: unknown) => ({ success: true, data: value }) },
    } as ResourceConfig);
    const load = vi.fn(async () => ({ default: grupos }));
    const list = vi.fn((request: Request) => {
      const url = new URL(request.url);
      return json({ items: [{ id: '1', nome: `Grupo ${url.searchParams.get('q')}` }], total: 1, page: 1, pageSize: 20 });
    });
    const plugins = [
      definePlugin({
        id: 'inicio',
        title: 'Início',
        basePath: '/',
        tag: 0,
        core: '^1.0.0',
        routes: [{ path: '/', title: 'Início', load: async () => ({ default: () => <h1>Bem-vinda</h1> }) }],
      }),
      definePlugin({
        id: 'registros',
        title: 'Grupos',
        basePath: '/ggrupo',
        tag: 24,
        core: '^1.0.0',
        menu: { label: 'Grupos', group: 'Cadastros' },
        routes: resourceRoutes({ title: 'Grupos', newTitle: 'Novo grupo', editTitle: 'Editar grupo' }, load),
      }),
    ];
    start(plugins, { 'GET /api/registros/grupos': list });
    await screen.findByRole('heading', { name: 'Bem-vinda' });

    await asInABrowser(async () => {
      window.history.pushState(null, '', '/ggrupo?q=limpeza');
      expect(await screen.findByText('Grupo limpeza')).toBeTruthy();
    });
    // the navigation's request is the page's (one, unless the page mounted after the data went stale: 1 s)
    expect(list).toHaveBeenCalled();
    for (const [request] of list.mock.calls) {
      expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({ ativo: 'true', sort: 'nome', q: 'limpeza', page: '1', pageSize: '20' });
    }
  });

  it("the menu's pages are fetched when the browser is idle, before any click (their chunks, not their data)", async () => {
    const grupos = defineResourcePages({
      endpoint: '/registros/grupos',
      title: 'Grupos',
      newTitle: 'Novo grupo',
      editTitle: 'Editar grupo',
      columns: [{ key: 'nome', header: 'Nome' }],
      fields: [{ name: 'nome', type: 'text', label: 'Nome' }],
      schema: { safeParse: (value: unknown) => ({ success: true, data: value }) },
    } as ResourceConfig);
    const load = vi.fn(async () => ({ default: grupos }));
    const list = vi.fn((request: Request) => {
      const url = new URL(request.url);
      return json({ items: [{ id: '1', nome: `Grupo ${url.searchParams.get('q')}` }], total: 1, page: 1, pageSize: 20 });
    });
    const plugins = [
      definePlugin({
        id: 'inicio',
        title: 'Início',
        basePath: '/',
        tag: 0,
        core: '^1.0.0',
        routes: [{ path: '/', title: 'Início', load: async () => ({ default: () => <h1>Bem-vinda</h1> }) }],
      }),
      definePlugin({
        id: 'registros',
        title: 'Grupos',
        basePath: '/ggrupo',
        tag: 24,
        core: '^1.0.0',
        menu: { label: 'Grupos', group: 'Cadastros' },
        routes: resourceRoutes({ title: 'Grupos', newTitle: 'Novo grupo', editTitle: 'Editar grupo' }, load),
      }),
    ];
    await asInABrowser(async () => {
      start(plugins, { 'GET /api/registros/grupos': list });
      await screen.findByRole('heading', { name: 'Bem-vinda' });
      await waitFor(() => expect(load).toHaveBeenCalled());
    });
    expect(list).not.toHaveBeenCalled();
  });

  it("in a test's act() a navigation is a plain update, and the kit list shows as before", async () => {
    const grupos = defineResourcePages({
      endpoint: '/registros/grupos',
      title: 'Grupos',
      newTitle: 'Novo grupo',
      editTitle: 'Editar grupo',
      columns: [{ key: 'nome', header: 'Nome' }],
      fields: [{ name: 'nome', type: 'text', label: 'Nome' }],
      schema: { safeParse: (value: unknown) => ({ success: true, data: value }) },
    } as ResourceConfig);
    const load = vi.fn(async () => ({ default: grupos }));
    const list = vi.fn((request: Request) => {
      const url = new URL(request.url);
      return json({ items: [{ id: '1', nome: `Grupo ${url.searchParams.get('q')}` }], total: 1, page: 1, pageSize: 20 });
    });
    const plugins = [
      definePlugin({
        id: 'inicio',
        title: 'Início',
        basePath: '/',
        tag: 0,
        core: '^1.0.0',
        routes: [{ path: '/', title: 'Início', load: async () => ({ default: () => <h1>Bem-vinda</h1> }) }],
      }),
      definePlugin({
        id: 'registros',
        title: 'Grupos',
        basePath: '/ggrupo',
        tag: 24,
        core: '^1.0.0',
        menu: { label: 'Grupos', group: 'Cadastros' },
        routes: resourceRoutes({ title: 'Grupos', newTitle: 'Novo grupo', editTitle: 'Editar grupo' }, load),
      }),
    ];
    start(plugins, { 'GET /api/registros/grupos': list });
    await screen.findByRole('heading', { name: 'Bem-vinda' });

    act(() => {
      window.history.pushState(null, '', '/ggrupo?q=limpeza');
    });
    expect(await screen.findByText('Grupo limpeza')).toBeTruthy();
    const url = new URL(list.mock.calls[0]![0].url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ ativo: 'true', sort: 'nome', q: 'limpeza', page: '1', pageSize: '20' });
  });
});
