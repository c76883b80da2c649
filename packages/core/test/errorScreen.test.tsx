import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { definePlugin } from '../src/contract';
import { makeTestSession, renderPlugin } from '../src/test-kit';
import { ERROR_SCREEN_TITLE, ErrorScreen, LOG_COPIED_MESSAGE, UNKNOWN_PHONE_TEXT } from '../src/errors/ErrorScreen';
import { clearConsoleLog, recordConsole } from '../src/runtime/console';
import { getCoreStore, sessionAtom } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { makeSession } from './helpers';

function renderScreen(error?: unknown) {
  return render(
    <Provider store={getCoreStore()}>
      <ErrorScreen error={error} />
    </Provider>,
  );
}

describe('full-page error screen', () => {
  it('title, illustration with alt text, support phone from the session config, button', () => {
    getCoreStore().set(sessionAtom, makeSession());
    renderScreen(new Error('x'));
    expect(screen.getByRole('heading', { name: ERROR_SCREEN_TITLE })).toBeTruthy();
    expect(screen.getByRole('img', { name: /xícara de café/ })).toBeTruthy();
    expect(screen.getByText(/Se o problema persistir, entre em contato com o suporte pelo telefone \(11\) 4000-1234\./)).toBeTruthy();
    expect(screen.getByText(/A aplicação encontrou um erro\. Pressione o botão abaixo para limpar a aplicação e tentar novamente\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Limpar aplicação e tentar novamente' })).toBeTruthy();
  });

  it('falls back to a text when the phone is unknown (signed out)', () => {
    renderScreen(new Error('x'));
    expect(screen.getByText(new RegExp(`pelo telefone ${UNKNOWN_PHONE_TEXT}\\.`))).toBeTruthy();
  });

  it("'Detalhes técnicos' holds the JSON log; 'Copiar log' copies it and confirms with a toast", async () => {
    clearConsoleLog();
    recordConsole('warn', ['algo estranho']);
    window.history.replaceState(null, '', '/memorando/edit/3?aba=itens');
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderScreen(new TypeError('x is undefined'));

    expect(screen.getByText('Detalhes técnicos').tagName).toBe('SUMMARY');
    const log = JSON.parse(screen.getByTestId('error-log').textContent ?? '');
    expect(Object.keys(log)).toEqual(['error', 'stack', 'route', 'build', 'userAgent', 'at', 'console']);
    expect(log.error).toBe('TypeError: x is undefined');
    expect(log.route).toBe('/memorando/edit/3?aba=itens');
    expect(log.console).toEqual([expect.objectContaining({ level: 'warn', message: 'algo estranho' })]);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copiar log' }));
    });
    expect(writeText).toHaveBeenCalledWith(screen.getByTestId('error-log').textContent);
    expect(
      getCoreStore()
        .get(toastsAtom)
        .map((t) => t.message),
    ).toEqual([LOG_COPIED_MESSAGE]);
  });

  it("'Limpar aplicação' clears token/session, sessionStorage and reloads at /signin", () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('session', 's');
    localStorage.setItem('theme', 'dark');
    sessionStorage.setItem('redirect', '/x');
    const assign = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, assign } });
    try {
      renderScreen(new Error('x'));
      fireEvent.click(screen.getByRole('button', { name: 'Limpar aplicação e tentar novamente' }));
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('session')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(sessionStorage.length).toBe(0);
    expect(assign).toHaveBeenCalledWith('/signin');
  });
});

describe('error screen triggers', () => {
  it('a render error (/__boom) shows it', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/__boom');
    render(<App plugins={[]} pollers={false} />);
    await screen.findByRole('heading', { name: ERROR_SCREEN_TITLE });
    expect(screen.getByTestId('error-log').textContent).toContain('/__boom');
    spy.mockRestore();
  });

  it("window 'unhandledrejection' and 'error' become the error screen", async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/signin');
    render(<App plugins={[]} pollers={false} />);
    await screen.findByRole('button', { name: 'Entrar' });
    act(() => {
      const event = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.assign(event, { reason: new Error('promessa esquecida') });
      window.dispatchEvent(event);
    });
    await screen.findByRole('heading', { name: ERROR_SCREEN_TITLE });
    await waitFor(() => expect(screen.getByTestId('error-log').textContent).toContain('promessa esquecida'));
    spy.mockRestore();
  });

  it("a plugin whose 'core' range the running core does not satisfy: the signed-in shell shows the error screen naming it", async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const antigo = definePlugin({
      id: 'antigo',
      title: 'Antigo',
      basePath: '/antigo',
      tag: 5,
      core: '^0.1.0',
      version: '2.0.0',
      packageName: '@app/antigo',
      routes: [{ path: '/', title: 'Antigo', load: async () => ({ default: () => <p>página do plugin</p> }) }],
    });
    renderPlugin(antigo, { path: '/antigo', session: makeTestSession({ tags: [5] }) });
    await screen.findByRole('heading', { name: ERROR_SCREEN_TITLE });
    expect(screen.getByTestId('error-log').textContent).toContain('requer @app/core');
    expect(screen.getByTestId('error-log').textContent).toContain('@app/antigo@2.0.0');
    expect(screen.queryByText('página do plugin')).toBeNull();
    spy.mockRestore();
  });
});
