// @vitest-environment jsdom
import { resetCoreState, CORE_VERSION, definePlugin } from '@app/core';
import { makeTestSession, mockApi, renderPlugin, signInForTest } from '@app/core/testing';
import { cleanup, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import about from '../../src/web/index';
import { toServerRows } from '../../src/web/versions';

const memorandos = definePlugin({
  id: 'memorandos',
  title: 'Memorandos',
  basePath: '/memorando',
  tag: 29,
  core: '^1.0.0',
  version: '2.3.4',
  packageName: '@app/memorandos',
  routes: [{ path: '/', title: 'Memorandos', load: async () => ({ default: () => null }) }],
});

const load = async () => ({ default: () => null });
// one plugin, several sections (each with its own tag): one row in the About list
const requisicoes = definePlugin({
  id: 'requisicoes',
  title: 'Requisições',
  core: '^1.0.0',
  version: '0.4.0',
  packageName: '@app/requisicoes',
  mounts: [
    { basePath: '/pre-requisicao', title: 'Pré-requisições', tag: 39, routes: [{ path: '/', title: 'Pré-requisições', load }] },
    { basePath: '/requisicao', title: 'Requisições', tag: 40, routes: [{ path: '/', title: 'Requisições', load }] },
  ],
});

const start = (path: string) => renderPlugin([about, memorandos, requisicoes], { path });

describe('@app/about manifest', () => {
  it("id 'about', basePath '/about', tag 0, menu 'Sobre' in 'Sistema'; '/sistema' needs tag 3", () => {
    expect(about).toMatchObject({ id: 'about', basePath: '/about', tag: 0, title: 'Sobre', packageName: '@app/about' });
    expect(about.menu).toMatchObject({ label: 'Sobre', group: 'Sistema' });
    expect(about.routes.map((r) => [r.path, r.tag])).toEqual([
      ['/', undefined],
      ['/sistema', 3],
    ]);
    const source = readFileSync('src/web/index.ts', 'utf8');
    expect(source).not.toMatch(/^import .*pages/m);
  });
});

describe('about page', () => {
  it('lists @app/core and every enabled plugin with version and tag, plus the server list', async () => {
    signInForTest(makeTestSession());
    mockApi({
      'GET /api/about/versions': () =>
        Response.json({
          core: '1.0.0',
          plugins: [{ id: 'memorandos', version: '2.3.4', core: '^1.0.0', dependsOn: ['registros'], tags: [{ tag: 29, nome: 'Memorandos' }] }],
        }),
    });
    start('/about');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sobre' }, { timeout: 5000 })).toBeTruthy();
    const web = screen.getByTestId('about-web-versions');
    const rows = within(web)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toContain(`@app/core${CORE_VERSION}—`);
    expect(rows.some((r) => r?.startsWith('@app/about') && r.includes(about.version) && r.endsWith('0 (todos os usuários)'))).toBe(true);
    expect(rows.some((r) => r?.startsWith('@app/memorandos') && r.endsWith('2.3.429'))).toBe(true);
    expect(rows.filter((r) => r?.startsWith('@app/requisicoes'))).toEqual(['@app/requisicoes (Requisições)0.4.039, 40']);
    const server = await screen.findByTestId('about-server-versions');
    expect(within(server).getByRole('row', { name: /@app\/server-core 1\.0\.0/ })).toBeTruthy();
    expect(within(server).getByText('core ^1.0.0 · tags 29 (Memorandos) · depende de registros')).toBeTruthy();
    // no tag 3: no link to the system page
    expect(screen.queryByRole('link', { name: 'Detalhes do sistema' })).toBeNull();
  });

  it('a server failure is shown in pt-BR, the web list still renders', async () => {
    signInForTest(makeTestSession());
    mockApi({});
    start('/about');
    await screen.findByRole('heading', { level: 1, name: 'Sobre' }, { timeout: 5000 });
    expect(await screen.findByText('Não foi possível obter as versões do servidor')).toBeTruthy();
    expect(screen.getByTestId('about-web-versions')).toBeTruthy();
  });

  it('/about/sistema: tag 3 opens it, without it → Erro 403', async () => {
    signInForTest(makeTestSession({ tags: [3] }));
    mockApi({});
    start('/about/sistema');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sistema' }, { timeout: 5000 })).toBeTruthy();
    cleanup();
    resetCoreState();
    signInForTest(makeTestSession({ tags: [] }));
    start('/about/sistema');
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, { timeout: 5000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/403');
  });
});

describe('toServerRows', () => {
  it('accepts several shapes', () => {
    expect(toServerRows({ core: '1.2.0', plugins: [] })).toEqual([{ name: '@app/server-core', version: '1.2.0' }]);
    expect(toServerRows({ items: [{ name: 'a', version: '1' }] })).toEqual([{ name: 'a', version: '1' }]);
    expect(toServerRows({ '@app/server': '1.0.0' })).toEqual([{ name: '@app/server', version: '1.0.0' }]);
    expect(toServerRows('x')).toEqual([]);
  });
});
