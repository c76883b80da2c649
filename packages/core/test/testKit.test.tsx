// @app/core/testing: renderPlugin renders a plugin's pages in the whole shell (guard, session, query
// client, router), fetch mocked, and undoes everything when the test ends, so plugins keep no copy
// of this set-up.
import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { definePlugin } from '../src/contract';
import { useApi, useSession } from '../src/hooks';
import { getCoreStore, sessionAtom } from '../src/store';
import { makeTestSession, renderPlugin } from '../src/test-kit';

function Itens() {
  const session = useSession();
  const api = useApi();
  const itens = useQuery({ queryKey: ['kit-itens'], queryFn: () => api.get('kit/itens').json<{ nome: string }[]>() });
  return (
    <main>
      <h1>Itens de {session?.user.nome}</h1>
      <ul>
        {itens.data?.map((i) => (
          <li key={i.nome}>{i.nome}</li>
        ))}
      </ul>
    </main>
  );
}

const kit = definePlugin({
  id: 'kit',
  title: 'Kit',
  basePath: '/kit',
  tag: 77,
  core: '^1.0.0',
  routes: [
    { path: '/', title: 'Itens', load: async () => ({ default: Itens }) },
    { path: '/outra', title: 'Outra', load: async () => ({ default: () => <h1>Outra página</h1> }) },
  ],
});

describe('renderPlugin', () => {
  it("opens the plugin's first page signed in, with the mocked API, and records the calls", async () => {
    const { calls } = renderPlugin(kit, {
      session: makeTestSession({ tags: [77] }),
      api: { 'GET /api/kit/itens': () => Response.json([{ nome: 'Papel sulfite' }]) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Itens de Maria Souza' })).toBeTruthy();
    expect(await screen.findByText('Papel sulfite')).toBeTruthy();
    expect(window.location.pathname).toBe('/kit');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/kit/itens']);
    expect(calls[0]?.headers.get('authorization')).toMatch(/^Bearer /);
  });

  it('opens the given path', async () => {
    renderPlugin([kit], { path: '/kit/outra', session: makeTestSession({ tags: [77] }), api: {} });
    expect(await screen.findByRole('heading', { level: 1, name: 'Outra página' })).toBeTruthy();
  });

  it('without the tag the page is refused', async () => {
    renderPlugin(kit, { session: makeTestSession({ tags: [] }), api: {} });
    expect(await screen.findByRole('heading', { level: 1, name: 'Erro 403' })).toBeTruthy();
    expect(window.location.pathname).toBe('/403');
    expect(screen.queryByText('Papel sulfite')).toBeNull();
  });

  it('undoes everything when the test ends: tree, fetch mock, token, session', async () => {
    // registered first, so it runs after the kit's own end-of-test reset
    onTestFinished(() => {
      expect(document.body.textContent).toBe('');
      expect(localStorage.getItem('token')).toBeNull();
      expect(getCoreStore().get(sessionAtom)).toBeNull();
      expect(globalThis.fetch).toBe(realFetch);
    });
    const realFetch = globalThis.fetch;
    renderPlugin(kit, { session: makeTestSession({ tags: [77] }), api: { 'GET /api/kit/itens': () => Response.json([]) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Itens de Maria Souza' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBeTruthy();
    expect(globalThis.fetch).not.toBe(realFetch);
  });
});
