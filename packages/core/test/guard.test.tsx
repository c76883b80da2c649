import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../src/App';
import { checkToken, decideGuard, isRememberablePath } from '../src/auth';
import { definePlugin } from '../src/contract';
import { Guard } from '../src/routing/Guard';
import { getCoreStore } from '../src/store';
import { json, makeSession, makeToken, mockApi } from './helpers';

const nowS = () => Math.floor(Date.now() / 1000);

describe('checkToken / decideGuard (pure)', () => {
  it('no token → sign-in, remembering the path', () => {
    expect(checkToken(null)).toEqual({ status: 'no-token' });
    expect(decideGuard(checkToken(''))).toEqual({ action: 'signin', remember: true });
  });

  it('exp is in seconds: future → allow, past → expire', () => {
    const now = Date.now();
    expect(checkToken(makeToken({ exp: Math.floor(now / 1000) + 60 }), now).status).toBe('ok');
    expect(checkToken(makeToken({ exp: Math.floor(now / 1000) - 1 }), now).status).toBe('expired');
    expect(decideGuard(checkToken(makeToken({ exp: 1 })))).toEqual({ action: 'expire', remember: true });
  });

  it('undecodable → sign-in without remembering', () => {
    expect(checkToken('não-é-um-jwt')).toEqual({ status: 'invalid' });
    expect(checkToken(makeToken({ exp: 'amanhã' })).status).toBe('invalid');
    expect(decideGuard(checkToken('x.y.z'))).toEqual({ action: 'signin', remember: false });
  });
});

function renderGuard(path: string) {
  const memory = memoryLocation({ path, record: true });
  render(
    <Provider store={getCoreStore()}>
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <Switch>
          <Route path="/signin">página de login</Route>
          <Route>
            <Guard>conteúdo protegido</Guard>
          </Route>
        </Switch>
      </Router>
    </Provider>,
  );
  return memory;
}

describe('<Guard>', () => {
  it('no token: stores the current path in sessionStorage "redirect" and goes to /signin', async () => {
    const memory = renderGuard('/memorando/edit/7?origem=lista');
    await screen.findByText('página de login');
    expect(memory.history?.at(-1)).toBe('/signin');
    expect(sessionStorage.getItem('redirect')).toBe('/memorando/edit/7?origem=lista');
  });

  it("expired token: stores the path, logs 'Token expired', sets signed-out state, goes to /signin", async () => {
    localStorage.setItem('token', makeToken({ exp: nowS() - 5 }));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const memory = renderGuard('/requisicao');
    await screen.findByText('página de login');
    expect(log).toHaveBeenCalledWith('Token expired');
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('redirect')).toBe('/requisicao');
    expect(memory.history?.at(-1)).toBe('/signin');
  });

  it('undecodable token: goes to /signin (token dropped, nothing remembered)', async () => {
    localStorage.setItem('token', 'lixo');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    renderGuard('/fornecedor');
    await screen.findByText('página de login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('redirect')).toBeNull();
    expect(log).not.toHaveBeenCalledWith('Token expired');
  });

  it('valid token: loads the session once, then renders the page', async () => {
    localStorage.setItem('token', makeToken());
    const { fetchMock } = mockApi({ 'GET /api/session': () => json(makeSession()) });
    renderGuard('/fornecedor');
    await screen.findByText('conteúdo protegido');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('sign-in returns to the remembered path', () => {
  it('guarded URL → sign-in → back to that URL with the page rendered', async () => {
    const memorandos = definePlugin({
      id: 'memorandos',
      title: 'Memorandos',
      basePath: '/memorando',
      tag: 29,
      core: '^1.0.0',
      routes: [
        { path: '/', title: 'Memorandos', load: async () => ({ default: () => <h1>Lista de memorandos</h1> }) },
        { path: '/edit/:id', title: 'Editar memorando', load: async () => ({ default: () => <h1>Edição</h1> }) },
      ],
    });
    const token = makeToken();
    const signin = vi.fn(async (request: Request) => {
      expect(await request.json()).toEqual({ login: 'maria', senha: 'segredo' });
      return json({ token, entidades: [{ id: '1', nome: 'Prefeitura de Exemplo' }] });
    });
    mockApi({
      'POST /api/auth/signin': signin,
      'GET /api/session': (request) => {
        expect(request.headers.get('Authorization')).toBe(`Bearer ${token}`);
        return json(makeSession({ tags: [29] }));
      },
    });
    window.history.replaceState(null, '', '/memorando/edit/12');
    render(<App plugins={[memorandos]} pollers={false} />);

    const login = await screen.findByLabelText(/^Login/);
    expect(window.location.pathname).toBe('/signin');
    expect(sessionStorage.getItem('redirect')).toBe('/memorando/edit/12');
    fireEvent.change(login, { target: { value: 'maria' } });
    fireEvent.change(screen.getByLabelText(/^Senha/), { target: { value: 'segredo' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    });

    await screen.findByRole('heading', { name: 'Edição' });
    expect(window.location.pathname).toBe('/memorando/edit/12');
    expect(localStorage.getItem('token')).toBe(token);
    expect(sessionStorage.getItem('redirect')).toBeNull();
    await waitFor(() => expect(document.title).toBe('Editar memorando · Compras'));
  });
});

describe('the remembered path is only followed when it stays in the app', () => {
  const home = definePlugin({
    id: 'dashboard',
    title: 'Dashboard',
    basePath: '/',
    tag: 0,
    core: '^1.0.0',
    routes: [{ path: '/', title: 'Dashboard', load: async () => ({ default: () => <h1>Painel</h1> }) }],
  });

  it('refuses control characters, backslashes and // after decoding; keeps ordinary paths', () => {
    for (const bad of [
      '/%09/evil.example',
      '/\t/evil.example',
      '/%0a/evil.example',
      '/%5C/evil.example',
      '/%2F/evil.example',
      '/\\evil.example',
      '/a%00b',
      '//evil.example',
      'https://evil.example/',
      '/%2509/evil.example',
    ]) {
      expect(isRememberablePath(bad), bad).toBe(false);
    }
    for (const ok of ['/memorando/edit/12', '/produtos?q=50%25', '/produtos?q=a%20b&sort=-nome', '/fornecedores/ação']) {
      expect(isRememberablePath(ok), ok).toBe(true);
    }
  });

  it("'/%09/evil.example' stored before sign-in: the user lands on the home page, not a blank one", async () => {
    const token = makeToken();
    mockApi({
      'POST /api/auth/signin': () => json({ token, entidades: [{ id: '1', nome: 'Prefeitura de Exemplo' }] }),
      'GET /api/session': () => json(makeSession()),
    });
    sessionStorage.setItem('redirect', '/%09/evil.example');
    window.history.replaceState(null, '', '/signin');
    render(<App plugins={[home]} pollers={false} />);
    fireEvent.change(await screen.findByLabelText(/^Login/), { target: { value: 'maria' } });
    fireEvent.change(screen.getByLabelText(/^Senha/), { target: { value: 'segredo' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    });
    await screen.findByRole('heading', { name: 'Painel' });
    expect(window.location.pathname).toBe('/');
    expect(sessionStorage.getItem('redirect')).toBeNull();
  });
});
