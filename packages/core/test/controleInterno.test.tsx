// Controle interno (CONTROLE_INTERNO_TAG): the menu shows the documents' sections to a holder of the
// tag, the route guard lets them into a document's list and record (read-only: no Novo, Salvar,
// Duplicar nor transition) and keeps them out of the pages that create, and of other sections.
import { defineFlow } from '@app/documents';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../src/App';
import { buildMenu, routeAccess } from '../src/compose';
import { CONTROLE_INTERNO_TAG, definePlugin } from '../src/contract';
import { documentRoutes, resourceRoutes } from '../src/resource/routes';
import { defineDocumentPages } from '../src/resource/documents/define';
import type { SchemaLike } from '../src/resource/types';
import { json, makeSession, makeToken, mockApi } from './helpers';

type Row = Record<string, unknown>;

const fluxo = defineFlow({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    enviado: { label: 'Enviado', tone: 'info' },
  },
  transitions: {
    enviar: { from: ['rascunho'], to: 'enviado', label: 'Enviar', tone: 'primary', done: 'enviado' },
  },
});

const schema: SchemaLike = { safeParse: (value) => ({ success: true, data: value }) };

const pages = defineDocumentPages({
  endpoint: '/memorandos/memorandos',
  title: 'Memorandos',
  newTitle: 'Novo memorando',
  editTitle: 'Editar memorando',
  documento: 'Memorando',
  flow: fluxo,
  schema,
  columns: [{ key: 'assunto', header: 'Assunto' }],
  fields: [{ name: 'assunto', type: 'text', label: 'Assunto', required: true }],
  slots: { listActions: <button type="button">Novo a partir de outro</button> },
});

function GruposList() {
  return <h1>Grupos</h1>;
}
function GrupoNovo() {
  return <h1>Novo grupo</h1>;
}
function GrupoEdit() {
  return <h1>Grupo</h1>;
}
const grupos = { List: GruposList, New: GrupoNovo, Edit: GrupoEdit };

const TITLES = { title: 'Memorandos', newTitle: 'Novo memorando', editTitle: 'Editar memorando' };

const plugins = [
  definePlugin({
    id: 'memorandos',
    title: 'Memorandos',
    basePath: '/memorando',
    tag: 29,
    core: '^1.0.0',
    menu: { label: 'Memorandos', group: 'Documentos', count: { endpoint: '/memorandos/contagem', label: 'aguardando' } },
    routes: documentRoutes(TITLES, async () => ({ default: pages })),
  }),
  definePlugin({
    id: 'registros',
    title: 'Grupos',
    basePath: '/ggrupo',
    tag: 24,
    core: '^1.0.0',
    menu: { label: 'Grupos', group: 'Cadastros' },
    routes: resourceRoutes({ title: 'Grupos', newTitle: 'Novo grupo', editTitle: 'Editar grupo' }, async () => ({ default: grupos })),
  }),
];

// what the server answers the controle interno: no transition, not editable
const memorando = (over: Row = {}): Row => ({
  id: 'm12',
  numero: 12,
  ano: 2026,
  version: 4,
  status: 'rascunho',
  assunto: 'Material de expediente',
  editavel: false,
  transicoes: [],
  ...over,
});

function start(path: string, tags: number[]) {
  localStorage.setItem('token', makeToken());
  const api = mockApi({
    'GET /api/session': () => json(makeSession({ tags })),
    'GET /api/memorandos/memorandos': () => json({ items: [memorando()], total: 1, page: 1, pageSize: 20 }),
    'GET /api/memorandos/memorandos/m12': () => json(memorando()),
    'GET /api/memorandos/memorandos/m12/historico': () => json({ items: [] }),
    'GET /api/memorandos/contagem': () => json({ total: 3 }),
  });
  window.history.replaceState(null, '', path);
  render(<App plugins={plugins} pollers={false} />);
  return api;
}

describe('controle interno: access rules', () => {
  it('documentRoutes marks the list and the record as read pages, never new nor duplicar', () => {
    const routes = documentRoutes(TITLES, async () => ({ default: pages }));
    expect(routes.map((r) => [r.path, r.leitura === true])).toEqual([
      ['/', true],
      ['/new', false],
      ['/edit/:id', true],
      ['/duplicar/:id', false],
    ]);
    expect(routeAccess([CONTROLE_INTERNO_TAG], 29, true)).toBe('leitura');
    expect(routeAccess([CONTROLE_INTERNO_TAG], 29, false)).toBeNull();
    expect(routeAccess([29, CONTROLE_INTERNO_TAG], 29, true)).toBe('full');
    expect(routeAccess([], 29, true)).toBeNull();
  });

  it("the menu shows a document's section to the controle interno, without the count of what awaits action", () => {
    const entries = buildMenu(plugins, [CONTROLE_INTERNO_TAG]);
    expect(entries).toEqual([{ href: '/memorando', label: 'Memorandos', group: 'Documentos' }]);
    expect(buildMenu(plugins, [29])[0]).toMatchObject({ href: '/memorando', count: { endpoint: '/memorandos/contagem' } });
    expect(buildMenu(plugins, [])).toEqual([]);
  });
});

describe('controle interno in the app', () => {
  it('the menu lists the document; its list opens without Novo nor the plugin list actions', async () => {
    const { calls } = start('/memorando', [CONTROLE_INTERNO_TAG]);
    const table = await screen.findByRole('table', { name: 'Memorandos' });
    await within(table).findByText('Material de expediente');
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(nav.textContent).toContain('Memorandos');
    expect(nav.textContent).not.toContain('Grupos');
    expect(screen.queryByRole('link', { name: 'Novo memorando' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Novo a partir de outro' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'Abrir 12/2026' })).toBeTruthy();
    expect(calls.some((c) => new URL(c.url).pathname === '/api/memorandos/contagem')).toBe(false);
  });

  it('the record opens read-only: no Salvar, Excluir, Duplicar nor transition; the PDF stays', async () => {
    start('/memorando/edit/m12', [CONTROLE_INTERNO_TAG]);
    expect(await screen.findByText('Memorando 12/2026 · Rascunho')).toBeTruthy();
    expect(screen.getByText('Acesso do controle interno: somente leitura.')).toBeTruthy();
    const header = within(screen.getByRole('heading', { level: 1 }).closest('.page-header') as HTMLElement);
    expect(await header.findByRole('button', { name: 'Imprimir (PDF)' })).toBeTruthy();
    expect(header.queryByRole('button', { name: 'Duplicar' })).toBeNull();
    expect(header.queryByRole('button', { name: 'Enviar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    expect((screen.getByLabelText(/^Assunto/) as HTMLInputElement).readOnly).toBe(true);
  });

  it('new lands on Erro 403', async () => {
    start('/memorando/new', [CONTROLE_INTERNO_TAG]);
    await screen.findByRole('heading', { name: 'Erro 403' });
    expect(window.location.pathname).toBe('/403');
  });

  it('duplicar/:id lands on Erro 403', async () => {
    start('/memorando/duplicar/m12', [CONTROLE_INTERNO_TAG]);
    await screen.findByRole('heading', { name: 'Erro 403' });
  });

  it('a registry section lands on Erro 403', async () => {
    start('/ggrupo', [CONTROLE_INTERNO_TAG]);
    await screen.findByRole('heading', { name: 'Erro 403' });
  });

  it('without the tag the document list lands on Erro 403', async () => {
    start('/memorando', []);
    await screen.findByRole('heading', { name: 'Erro 403' });
  });

  it('a holder of the document tag keeps Novo and the count', async () => {
    const { calls } = start('/memorando', [29]);
    await screen.findByRole('table', { name: 'Memorandos' });
    expect(await screen.findByRole('link', { name: 'Novo memorando' })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => new URL(c.url).pathname === '/api/memorandos/contagem')).toBe(true));
  });
});
