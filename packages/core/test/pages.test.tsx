import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { definePlugin } from '../src/contract';
import { PASSWORD_RESET_MESSAGE, RECOVERY_FAILED_MESSAGE, RECOVERY_NEUTRAL_MESSAGE } from '../src/pages/RecoveryPage';
import { shouldBlockEnter } from '../src/runtime/enterBlocking';
import { getCoreStore, tokenAtom } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, makeSession, makeToken, mockApi } from './helpers';

const home = definePlugin({
  id: 'dashboard',
  title: 'Dashboard',
  basePath: '/',
  tag: 0,
  core: '^1.0.0',
  menu: { label: 'Início' },
  routes: [{ path: '/', title: 'Dashboard', load: async () => ({ default: () => <h1>Painel</h1> }) }],
});

function start(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App plugins={[home]} pollers={false} />);
}

async function fillAndSubmit(login: string, senha: string) {
  fireEvent.change(await screen.findByLabelText(/^Login/), { target: { value: login } });
  fireEvent.change(screen.getByLabelText(/^Senha/), { target: { value: senha } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
  });
}

describe('sign-in page', () => {
  it("'/' shows it to a signed-out visitor: Login, Senha, Entrar, 'Esqueci minha senha'", async () => {
    start('/');
    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    expect(screen.getByLabelText(/^Senha/).getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Esqueci minha senha' }).getAttribute('href')).toBe('/recoveryPass');
    // the form opts in to Enter
    expect(shouldBlockEnter(screen.getByLabelText(/^Login/))).toBe(false);
    expect(window.location.pathname).toBe('/');
  });

  it('shows the API error message (pt-BR) and required-field errors', async () => {
    mockApi({
      'POST /api/auth/signin': () => json({ error: { code: 'invalid_credentials', message: 'Login ou senha inválidos.' } }, 401),
    });
    start('/signin');
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    });
    expect(screen.getByText('Informe o login.')).toBeTruthy();
    expect(screen.getByText('Informe a senha.')).toBeTruthy();
    await fillAndSubmit('maria', 'errada');
    expect((await screen.findByTestId('signin-error')).textContent).toBe('Login ou senha inválidos.');
    expect(getCoreStore().get(tokenAtom)).toBeNull();
  });

  it('more than one entidade: asks which one, then POST /api/auth/entidade', async () => {
    const first = makeToken({ ent: '1' });
    const chosen = makeToken({ ent: '2' });
    const entidadeCall = vi.fn(async (request: Request) => {
      expect(request.headers.get('Authorization')).toBe(`Bearer ${first}`);
      expect(await request.json()).toEqual({ entidadeId: '2' });
      return json({ token: chosen });
    });
    mockApi({
      'POST /api/auth/signin': () =>
        json({
          token: first,
          entidades: [
            { id: '1', nome: 'Prefeitura A' },
            { id: '2', nome: 'Câmara B' },
          ],
        }),
      'POST /api/auth/entidade': entidadeCall,
      'GET /api/session': () => json(makeSession()),
    });
    start('/');
    await fillAndSubmit('maria', 'segredo');
    const form = await screen.findByTestId('entidade-form');
    fireEvent.click(within(form).getByLabelText('Câmara B'));
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Continuar' }));
    });
    await screen.findByRole('heading', { name: 'Painel' });
    expect(entidadeCall).toHaveBeenCalledTimes(1);
    expect(getCoreStore().get(tokenAtom)).toBe(chosen);
  });

  it('preselects the entidade the user worked in last, and keeps its token when it stays chosen', async () => {
    const token = makeToken({ ent: '2' });
    const entidadeCall = vi.fn(async () => json({ token: makeToken({ ent: '1' }) }));
    mockApi({
      'POST /api/auth/signin': () =>
        json({
          token,
          entidadeId: '2',
          entidades: [
            { id: '1', nome: 'Câmara A' },
            { id: '2', nome: 'Prefeitura B' },
          ],
        }),
      'POST /api/auth/entidade': entidadeCall,
      'GET /api/session': () => json(makeSession()),
    });
    start('/');
    await fillAndSubmit('maria', 'segredo');
    const form = await screen.findByTestId('entidade-form');
    expect((within(form).getByLabelText('Prefeitura B') as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByLabelText('Câmara A') as HTMLInputElement).checked).toBe(false);
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Continuar' }));
    });
    await screen.findByRole('heading', { name: 'Painel' });
    expect(entidadeCall).not.toHaveBeenCalled();
    expect(getCoreStore().get(tokenAtom)).toBe(token);
  });

  it('a signed-in visitor of /signin goes home', async () => {
    localStorage.setItem('token', makeToken());
    mockApi({ 'GET /api/session': () => json(makeSession()) });
    start('/signin');
    await screen.findByRole('heading', { name: 'Painel' });
    expect(window.location.pathname).toBe('/');
  });
});

describe('recovery page', () => {
  it("asks 'Login ou e-mail', POSTs /api/auth/recover and answers neutrally", async () => {
    const recover = vi.fn(async (request: Request) => {
      expect(await request.json()).toEqual({ login: 'maria@example.gov.br' });
      return json(null, 204);
    });
    mockApi({ 'POST /api/auth/recover': recover });
    start('/recoveryPass');
    fireEvent.change(await screen.findByLabelText(/^Login ou e-mail/), { target: { value: 'maria@example.gov.br' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    });
    expect((await screen.findByTestId('recovery-message')).textContent).toBe(RECOVERY_NEUTRAL_MESSAGE);
    expect(recover).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.title).toBe('Recuperar senha · Compras'));
  });

  it('a failing endpoint shows a pt-BR error toast', async () => {
    mockApi({}); // 404 for everything: the endpoint does not exist yet
    start('/recoveryPass');
    fireEvent.change(await screen.findByLabelText(/^Login ou e-mail/), { target: { value: 'maria' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    });
    await waitFor(() =>
      expect(
        getCoreStore()
          .get(toastsAtom)
          .map((t) => t.message),
      ).toEqual([RECOVERY_FAILED_MESSAGE]),
    );
    expect(screen.queryByTestId('recovery-message')).toBeNull();
  });
});

describe('new password from the e-mailed link (/recoveryPass?token=…)', () => {
  async function submitNewPassword(senha: string, confirmacao = senha) {
    fireEvent.change(await screen.findByLabelText(/^Nova senha/), { target: { value: senha } });
    fireEvent.change(screen.getByLabelText(/^Confirmar nova senha/), { target: { value: confirmacao } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    });
  }

  it('checks length and confirmation, POSTs /api/auth/reset, then opens sign-in with a toast', async () => {
    const reset = vi.fn(async (request: Request) => {
      expect(await request.json()).toEqual({ token: 'abc123', senha: 'uma frase bem longa' });
      return json(null, 204);
    });
    mockApi({ 'POST /api/auth/reset': reset });
    start('/recoveryPass?token=abc123');
    await submitNewPassword('curta');
    expect(screen.getByText(/pelo menos 8 caracteres \(recomendamos/)).toBeTruthy();
    await submitNewPassword('uma frase bem longa', 'outra frase longa');
    expect(screen.getByText('As senhas não conferem.')).toBeTruthy();
    expect(reset).not.toHaveBeenCalled();
    await submitNewPassword('uma frase bem longa');
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(window.location.pathname).toBe('/signin');
    expect(
      getCoreStore()
        .get(toastsAtom)
        .map((t) => t.message),
    ).toEqual([PASSWORD_RESET_MESSAGE]);
  });

  it("shows the server's password-policy message on the field, and an invalid link", async () => {
    let answer = json(
      { error: { code: 'validation', message: 'Verifique os campos.', fields: { senha: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.' } } },
      400,
    );
    mockApi({ 'POST /api/auth/reset': () => answer });
    start('/recoveryPass?token=abc123');
    await submitNewPassword('senha1234');
    expect(await screen.findByText('Esta senha é muito comum e fácil de adivinhar. Escolha outra.')).toBeTruthy();
    answer = json({ error: { code: 'invalid_recovery_link', message: 'Link de recuperação inválido ou expirado.' } }, 400);
    await submitNewPassword('uma frase bem longa');
    expect((await screen.findByTestId('reset-error')).textContent).toBe('Link de recuperação inválido ou expirado.');
    expect(screen.getByRole('link', { name: 'Pedir um novo link' }).getAttribute('href')).toBe('/recoveryPass');
  });

  it('too many recovery requests: the API message (429) as a toast', async () => {
    mockApi({
      'POST /api/auth/recover': () => json({ error: { code: 'too_many_attempts', message: 'Muitas tentativas. Aguarde 5 minutos.' } }, 429),
    });
    start('/recoveryPass');
    fireEvent.change(await screen.findByLabelText(/^Login ou e-mail/), { target: { value: 'maria' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    });
    await waitFor(() =>
      expect(
        getCoreStore()
          .get(toastsAtom)
          .map((t) => t.message),
      ).toEqual(['Muitas tentativas. Aguarde 5 minutos.']),
    );
  });
});

describe('shell', () => {
  it("'Sair': POST /api/auth/signout, token cleared, /signin, desktop shell told", async () => {
    const token = makeToken();
    localStorage.setItem('token', token);
    const signout = vi.fn((request: Request) => {
      expect(request.headers.get('Authorization')).toBe(`Bearer ${token}`);
      return json(null, 204);
    });
    mockApi({ 'GET /api/session': () => json(makeSession()), 'POST /api/auth/signout': signout });
    const onSignOut = vi.fn();
    const setTitle = vi.fn();
    window.comprasDesktop = { onSignOut, setTitle };
    start('/');
    await screen.findByRole('heading', { name: 'Painel' });
    // registered by an effect of the route: it may land just after the page shows on a busy machine
    await waitFor(() => expect(setTitle).toHaveBeenCalledWith('Dashboard'));
    fireEvent.click(screen.getByRole('button', { name: /Maria Souza/ }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sair' }));
    });
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(window.location.pathname).toBe('/signin');
    expect(signout).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('redirect')).toBeNull();
    expect(onSignOut).toHaveBeenCalledTimes(1);
    delete window.comprasDesktop;
  });

  it('header shows ENT_NOME and, with several entidades, a switcher', async () => {
    localStorage.setItem('token', makeToken());
    const entidades = [
      { id: '1', nome: 'Prefeitura de Exemplo' },
      { id: '2', nome: 'Câmara de Exemplo' },
    ];
    let current = 0;
    const newToken = makeToken({ ent: '2' });
    mockApi({
      'GET /api/session': () => json(makeSession({ entidades, entidade: { ...makeSession().entidade, ...entidades[current]! } })),
      'POST /api/auth/entidade': () => {
        current = 1;
        return json({ token: newToken });
      },
    });
    start('/');
    await screen.findByRole('heading', { name: 'Painel' });
    const switcher = screen.getByRole('combobox', { name: 'Entidade' });
    await act(async () => {
      fireEvent.change(switcher, { target: { value: '2' } });
    });
    await waitFor(() => expect(document.querySelector('.app-brand__entidade')?.textContent).toBe('Câmara de Exemplo'));
    expect(getCoreStore().get(tokenAtom)).toBe(newToken);
  });
});
