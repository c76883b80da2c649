import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../src/App';
import { definePlugin } from '../src/contract';
import { PermissionGate } from '../src/routing/RouteMeta';
import { getCoreStore, routeInfoAtom, sessionAtom } from '../src/store';
import { json, makeSession, makeToken, mockApi } from './helpers';

function renderGate(tag: number, tags: number[]) {
  getCoreStore().set(sessionAtom, makeSession({ tags }));
  const memory = memoryLocation({ path: '/memorando/edit/1', record: true });
  render(
    <Provider store={getCoreStore()}>
      <Router hook={memory.hook}>
        <Switch>
          <Route path="/403">página 403</Route>
          <Route path="/memorando" nest>
            <Route path="/edit/:id">
              <PermissionGate tag={tag}>página protegida</PermissionGate>
            </Route>
          </Route>
        </Switch>
      </Router>
    </Provider>,
  );
  return memory;
}

describe('permission check', () => {
  it.each([0, -1, -2, -3, -4])('tag %i is exempt', (tag) => {
    renderGate(tag, []);
    expect(screen.getByText('página protegida')).toBeTruthy();
  });

  it('a tag the user holds passes', () => {
    renderGate(29, [29, 39]);
    expect(screen.getByText('página protegida')).toBeTruthy();
  });

  it('a missing tag redirects to ~/403 (absolute, from inside the nested plugin router)', async () => {
    const memory = renderGate(29, [39]);
    await screen.findByText('página 403');
    expect(memory.history?.at(-1)).toBe('/403');
    expect(screen.queryByText('página protegida')).toBeNull();
  });
});

describe('routes of the app', () => {
  const page = (text: string) => async () => ({ default: () => <h1>{text}</h1> });
  const plugins = [
    definePlugin({
      id: 'dashboard',
      title: 'Dashboard',
      basePath: '/',
      tag: 0,
      core: '^1.0.0',
      menu: { label: 'Início', group: 'Geral', order: 0 },
      routes: [{ path: '/', title: 'Dashboard', load: page('Bem-vinda') }],
    }),
    definePlugin({
      id: 'memorandos',
      title: 'Memorandos',
      basePath: '/memorando',
      tag: 29,
      core: '^1.0.0',
      menu: { label: 'Memorandos', group: 'Documentos' },
      routes: [{ path: '/', title: 'Memorandos', load: page('Lista de memorandos') }],
    }),
    definePlugin({
      id: 'registros',
      title: 'Grupos',
      basePath: '/ggrupo',
      tag: 24,
      core: '^1.0.0',
      menu: { label: 'Grupos', group: 'Cadastros' },
      routes: [
        { path: '/', title: 'Grupos', load: page('Grupos') },
        { path: '/quebrada', title: 'Quebrada', load: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) },
      ],
    }),
    // several sections under one id, each with its own tag and menu entry
    definePlugin({
      id: 'requisicoes',
      title: 'Requisições',
      core: '^1.0.0',
      mounts: [
        {
          basePath: '/pre-requisicao',
          title: 'Pré-requisições',
          tag: 39,
          menu: { label: 'Pré-requisições', group: 'Documentos' },
          routes: [{ path: '/edit/:id', title: 'Editar pré-requisição', load: page('Pré-requisição em edição') }],
        },
        {
          basePath: '/requisicao',
          title: 'Requisições',
          tag: 40,
          menu: { label: 'Requisições', group: 'Documentos' },
          routes: [{ path: '/', title: 'Requisições', load: page('Lista de requisições') }],
        },
      ],
    }),
  ];

  function start(path: string, tags = [24]) {
    localStorage.setItem('token', makeToken());
    mockApi({ 'GET /api/session': () => json(makeSession({ tags })) });
    window.history.replaceState(null, '', path);
    render(<App plugins={plugins} pollers={false} />);
  }

  it('"/" signed in shows the home plugin inside the layout; the menu lists only allowed entries', async () => {
    start('/');
    await screen.findByRole('heading', { name: 'Bem-vinda' });
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(nav.textContent).toContain('Início');
    expect(nav.textContent).toContain('Grupos');
    expect(nav.textContent).not.toContain('Memorandos');
    expect(screen.getByText('Prefeitura de Exemplo', { selector: '.app-brand__entidade' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Dashboard · Compras'));
    expect(getCoreStore().get(routeInfoAtom)).toEqual({ tag: 0, title: 'Dashboard', path: '/' });
  });

  it('a plugin with several mounts: each section is routed, registers its title and tag, and has its own menu entry', async () => {
    start('/pre-requisicao/edit/7', [39]);
    await screen.findByRole('heading', { name: 'Pré-requisição em edição' });
    await waitFor(() => expect(getCoreStore().get(routeInfoAtom)).toEqual({ tag: 39, title: 'Editar pré-requisição', path: '/pre-requisicao/edit/7' }));
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(nav.textContent).toContain('Pré-requisições');
    expect(nav.textContent).not.toContain('Requisições');
  });

  it('a section of a several-mount plugin whose tag the user lacks lands on Erro 403', async () => {
    start('/requisicao', [39]);
    await screen.findByRole('heading', { name: 'Erro 403' });
    expect(window.location.pathname).toBe('/403');
  });

  it('a section without the tag lands on Erro 403 (tag -3)', async () => {
    start('/memorando');
    await screen.findByRole('heading', { name: 'Erro 403' });
    expect(window.location.pathname).toBe('/403');
    await waitFor(() => expect(getCoreStore().get(routeInfoAtom)?.tag).toBe(-3));
  });

  it('unknown paths show Erro 404 (tag -2), also inside a plugin base path', async () => {
    start('/nada/aqui');
    await screen.findByRole('heading', { name: 'Erro 404' });
    await waitFor(() => expect(document.title).toBe('Erro 404 · Compras'));
    expect(getCoreStore().get(routeInfoAtom)?.tag).toBe(-2);
  });

  it('a page whose chunk fails shows the recoverable fallback', async () => {
    start('/ggrupo/quebrada');
    await screen.findByRole('heading', { name: 'Não foi possível carregar esta página' });
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
    // the layout is still there
    expect(screen.getByRole('navigation', { name: 'Menu principal' })).toBeTruthy();
  });

  it('/500 shows the full-page error screen', async () => {
    start('/500');
    await screen.findByRole('heading', { name: 'Que deselegante' });
    await waitFor(() => expect(getCoreStore().get(routeInfoAtom)?.title).toBe('Erro 500'));
  });

  it('a composition error is shown full-page, naming the plugins', async () => {
    const twin = { ...plugins[1]!, packageName: '@acme/memo' };
    window.history.replaceState(null, '', '/');
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<App plugins={[...plugins, twin]} pollers={false} />);
    await screen.findByRole('heading', { name: 'Que deselegante' });
    expect(screen.getByTestId('error-screen-message').textContent).toMatch(/"memorandos".*"memorandos".*mesmo id/);
    spy.mockRestore();
  });
});
