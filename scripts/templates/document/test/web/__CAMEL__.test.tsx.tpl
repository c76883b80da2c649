// @vitest-environment jsdom
// The web half as the browser runs it: core's App (renderPlugin) with this plugin, the API mocked.
import { buildMenu } from '@app/core';
import { makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import server from '../../src/server/index';
import { __CONST___TAG } from '../../src/shared/index';
import plugin from '../../src/web/index';

const T = { timeout: 8000 };
const TITLE = __TITLE_TS__;
const ID = '00000000-0000-4000-8000-000000000001';
const documento = (over: Record<string, unknown> = {}) => ({
  id: ID,
  numero: 12,
  ano: 2026,
  data: '2026-03-02',
  status: 'enviado',
  version: 2,
  solicitanteNome: 'Ana Autora',
  assunto: 'Material de expediente',
  observacao: null,
  valorTotal: '1.00',
  itens: [{ produtoId: 'p1', produtoDescricao: 'Papel sulfite A4', unidadeSigla: 'RESMA', ordem: 1, quantidade: '3.0000', valorUnitario: '0.3333', valorTotal: '1.00' }],
  transicoes: ['aceitar', 'devolver'],
  editavel: false,
  ...over,
});
const api = (row = documento()) => ({
  'GET /api/__ID____BASE_PATH__': () => Response.json(pageOf([row])),
  [`GET /api/__ID____BASE_PATH__/${ID}`]: () => Response.json(row),
  [`GET /api/__ID____BASE_PATH__/${ID}/historico`]: () => Response.json({ items: [], truncated: false }),
});

describe('@app/__ID__ manifest', () => {
  it("id '__ID__' like its server half, '__BASE_PATH__' with list, new, edit and duplicar behind tag __TAG__; lazy pages only", () => {
    expect(plugin).toMatchObject({ id: '__ID__', basePath: '__BASE_PATH__', tag: __CONST___TAG, title: TITLE, packageName: '@app/__ID__' });
    expect(plugin.id).toBe(server.id);
    expect(plugin.routes.map((r) => r.path)).toEqual(['/', '/new', '/edit/:id', '/duplicar/:id']);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
    expect(buildMenu([plugin], [__CONST___TAG]).map((m) => [m.href, m.label])).toEqual([['__BASE_PATH__', TITLE]]);
    expect(buildMenu([plugin], [])).toEqual([]);
  });
});

describe('pages', () => {
  it('a user holding tag __TAG__ sees the menu entry and the list with number and status', async () => {
    renderPlugin(plugin, { path: '__BASE_PATH__', session: makeTestSession({ tags: [__TAG__] }), api: api() });
    expect(await screen.findByRole('heading', { level: 1, name: TITLE }, T)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getByRole('link', { name: TITLE }).getAttribute('href')).toBe('__BASE_PATH__');
    const row = (await screen.findByText('Material de expediente', {}, T)).closest('tr') as HTMLElement;
    const cells = [...row.querySelectorAll('th,td')].map((td) => td.textContent?.trim());
    expect(cells).toEqual(expect.arrayContaining(['12/2026', '02/03/2026', 'R$ 1,00', 'Enviado']));
  });

  it('a sent document opens read-only with the transitions the server allows (Aceitar, Devolver), PDF and Duplicar; no Excluir', async () => {
    renderPlugin(plugin, { path: `__BASE_PATH__/edit/${ID}`, session: makeTestSession({ tags: [__TAG__] }), api: api() });
    const header = (await screen.findByRole('heading', { level: 1 }, T)).closest('.page-header') as HTMLElement;
    await waitFor(() => expect(within(header).getByRole('button', { name: 'Aceitar' })).toBeTruthy(), T);
    expect(within(header).getByRole('button', { name: 'Devolver' })).toBeTruthy();
    expect(within(header).queryByRole('button', { name: 'Enviar' })).toBeNull();
    expect(within(header).getByRole('button', { name: 'Imprimir (PDF)' })).toBeTruthy();
    expect(within(header).getByRole('button', { name: 'Duplicar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
  });

  it('the new form validates with the shared schema before any request', async () => {
    const { calls } = renderPlugin(plugin, { path: '__BASE_PATH__/new', session: makeTestSession({ tags: [__TAG__] }), api: api() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Novo documento' }, T)).toBeTruthy();
    screen.getByRole('button', { name: 'Salvar' }).click();
    expect(await screen.findByText('Informe o assunto (ao menos 3 caracteres).', {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('without tag __TAG__: no menu entry, and the page answers Erro 403', async () => {
    renderPlugin(plugin, { path: '__BASE_PATH__', session: makeTestSession({ tags: [] }), api: api() });
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).queryByRole('link', { name: TITLE })).toBeNull();
  });
});
