// @vitest-environment jsdom
// The web half as the browser runs it: core's App (renderPlugin) with this plugin, the API mocked.
import { buildMenu } from '@app/core';
import { makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import server from '../../src/server/index';
import { __CONST___TAG, __CAMEL__Schema } from '../../src/shared/index';
import plugin from '../../src/web/index';

const T = { timeout: 8000 };
const TITLE = __TITLE_TS__;
const row = { id: '00000000-0000-4000-8000-000000000001', nome: 'Registro de exemplo', descricao: 'Uma descrição', ativo: true, version: 1 };
const api = { 'GET /api/__ID____BASE_PATH__': () => Response.json(pageOf([row])) };

describe('@app/__ID__ manifest', () => {
  it("id '__ID__' like its server half, '__BASE_PATH__' with list, new and edit behind tag __TAG__; lazy pages only", () => {
    expect(plugin).toMatchObject({ id: '__ID__', basePath: '__BASE_PATH__', tag: __TAG__, title: TITLE, packageName: '@app/__ID__' });
    expect(plugin.id).toBe(server.id);
    expect(server.tags).toEqual([{ tag: __CONST___TAG, nome: TITLE }]);
    expect(plugin.routes.map((r) => r.path)).toEqual(['/', '/new', '/edit/:id']);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });

  it('is a menu entry only for who holds tag __TAG__', () => {
    expect(buildMenu([plugin], [__TAG__]).map((m) => [m.href, m.label])).toEqual([['__BASE_PATH__', TITLE]]);
    expect(buildMenu([plugin], [])).toEqual([]);
  });

  it('the shared schema answers in pt-BR', () => {
    const empty = __CAMEL__Schema.safeParse({ nome: '  ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((i) => i.message)).toEqual(['Informe o nome.']);
    expect(__CAMEL__Schema.parse({ nome: ' Um nome ', descricao: '' })).toEqual({ nome: 'Um nome', descricao: null });
  });
});

describe('pages', () => {
  it('a user holding tag __TAG__ sees the menu entry and the list', async () => {
    renderPlugin(plugin, { path: '__BASE_PATH__', session: makeTestSession({ tags: [__TAG__] }), api });
    expect(await screen.findByRole('heading', { level: 1, name: TITLE }, T)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getByRole('link', { name: TITLE }).getAttribute('href')).toBe('__BASE_PATH__');
    expect(await screen.findByText('Registro de exemplo', {}, T)).toBeTruthy();
  });

  it('without tag __TAG__: no menu entry, and the page answers Erro 403', async () => {
    renderPlugin(plugin, { path: '__BASE_PATH__', session: makeTestSession({ tags: [] }), api });
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
    expect(window.location.pathname).toBe('/403');
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).queryByRole('link', { name: TITLE })).toBeNull();
  });

  it('the new form validates with the shared schema before any request', async () => {
    const { calls } = renderPlugin(plugin, { path: '__BASE_PATH__/new', session: makeTestSession({ tags: [__TAG__] }), api });
    expect(await screen.findByRole('heading', { level: 1, name: 'Novo registro' }, T)).toBeTruthy();
    screen.getByRole('button', { name: 'Salvar' }).click();
    expect(await screen.findByText('Informe o nome.', {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});
