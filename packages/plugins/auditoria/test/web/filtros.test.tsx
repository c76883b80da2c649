// @vitest-environment jsdom
// The page shows names (plugins, actions, records, changes) and its filters take what it shows.
import { AUDIT_ACTION_LABELS, definePlugin, LEGACY_AUDIT_ACTIONS } from '@app/core';
import { makeTestSession, mockApi, renderPlugin, signInForTest } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ACOES, ACOES_LEGADAS, type LogItem, type LogPage } from '../../src/shared/index';
import auditoria from '../../src/web/index';

const T = { timeout: 5000 };
const PRODUTO = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';

// another installed plugin: its title is what the table and the filter show
const produtos = definePlugin({
  id: 'produtos',
  title: 'Produtos e Serviços',
  basePath: '/produtos',
  tag: 25,
  core: '^1.0.0',
  routes: [{ path: '/', title: 'Produtos e Serviços', load: () => Promise.resolve({ default: () => null }) }],
});

const start = (path: string) => renderPlugin([auditoria, produtos], { path });

const row = (id: number, extra: Partial<LogItem> = {}): LogItem => ({
  id,
  at: '2026-03-10T17:45:00.000Z',
  usuarioId: 'u1',
  usuarioNome: 'Carla Compradora',
  usuarioLogin: 'comprador',
  plugin: 'produtos',
  registro: PRODUTO,
  acao: 'alterar',
  antes: null,
  depois: null,
  ip: null,
  registroNome: '000123 – Caneta esferográfica azul',
  motivo: null,
  duplicadoDe: null,
  mudancas: [],
  ...extra,
});

describe('Logs de Auditoria: names, not codes', () => {
  it("@app/auditoria's CSV wording is core's (one wording of the actions)", () => {
    expect(ACOES).toEqual(AUDIT_ACTION_LABELS);
    expect(ACOES_LEGADAS).toEqual(LEGACY_AUDIT_ACTIONS);
  });

  it('shows plugin titles, action names, record names and the changes with names, never a UUID', async () => {
    signInForTest(makeTestSession({ tags: [90, 25] }));
    mockApi({
      'GET /api/auditoria/logs': () =>
        Response.json({
          items: [
            row(3, {
              plugin: 'memorandos',
              registro: '0d9f8e7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f',
              registroNome: '12/2026 – Papel',
              acao: 'criar',
              duplicadoDe: '11/2026 – Papel',
              mudancas: [
                { campo: 'assunto', antes: null, depois: 'Papel' },
                { campo: 'itens', antes: null, depois: 1, itens: { adicionados: ['000123 – Caneta esferográfica azul'], removidos: [], alterados: [] } },
              ],
            }),
            row(2, {
              acao: 'devolver',
              plugin: 'memorandos',
              registroNome: '12/2026 – Papel',
              motivo: 'Falta o orçamento.',
              mudancas: [{ campo: 'status', antes: 'enviado', depois: 'devolvido' }],
            }),
            row(1, {
              mudancas: [
                { campo: 'grupoId', antes: '01 – Material de escritório', depois: '02 – Limpeza' },
                { campo: 'ativo', antes: true, depois: false },
              ],
            }),
            row(0, { plugin: 'core', registro: null, registroNome: null, acao: 'entrar' }),
          ],
          nextCursor: null,
        } satisfies LogPage),
    });
    start('/logs');
    const table = await screen.findByTestId('logs-tabela', {}, T);
    await within(table).findAllByText('12/2026 – Papel', {}, T);
    const cells = (id: number) =>
      within(table.querySelector(`tr[data-log-id="${id}"]`) as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(1).slice(1, 4)).toEqual(['Produtos e Serviços', '000123 – Caneta esferográfica azul', 'Alteração']);
    expect(cells(0).slice(1, 4)).toEqual(['Sistema', '—', 'Entrada no sistema']);
    expect(cells(3).slice(1, 4)).toEqual(['memorandos', '12/2026 – Papel', 'Criação']);
    // the id is still at hand (tooltip) for the Registro filter
    expect(within(table).getAllByText('000123 – Caneta esferográfica azul')[0]!.getAttribute('title')).toBe(PRODUTO);
    // a row with nothing to show has no button
    expect(within(table.querySelector('tr[data-log-id="0"]') as HTMLElement).queryByRole('button')).toBeNull();

    for (const id of [3, 2, 1]) {
      fireEvent.click(within(table.querySelector(`tr[data-log-id="${id}"]`) as HTMLElement).getByRole('button', { name: /Ver alterações/ }));
    }
    // one item per field; line items get a nested list ('a | b' below)
    const lines = (id: number) =>
      [...screen.getByRole('list', { name: `Alterações do registro ${id}` }).children].map((li) =>
        [li.firstChild?.textContent, ...[...li.querySelectorAll('li')].map((x) => x.textContent)].join(' | '),
      );
    expect(lines(3)).toEqual(['Assunto: Papel', 'Itens: 1 | Incluído: 000123 – Caneta esferográfica azul']);
    expect(screen.getByText('Criação — duplicado a partir de 11/2026 – Papel')).toBeTruthy();
    expect(lines(2)).toEqual(['Status: enviado → devolvido']);
    expect(screen.getByText('Motivo: Falta o orçamento.')).toBeTruthy();
    expect(lines(1)).toEqual(['Grupo: 01 – Material de escritório → 02 – Limpeza', 'Ativo: Sim → Não']);
    expect(table.textContent).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('Plugin and Ação are selects of names; the URL keeps the codes the API takes', async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    const { calls } = mockApi({ 'GET /api/auditoria/logs': () => Response.json({ items: [], nextCursor: null } satisfies LogPage) });
    start('/logs');
    expect(await screen.findByText('Nenhum registro encontrado.', {}, T)).toBeTruthy();
    const plugin = screen.getByLabelText('Plugin') as HTMLSelectElement;
    expect(plugin.tagName).toBe('SELECT');
    expect([...plugin.options].map((o) => o.textContent)).toEqual(['Todos', 'Logs de Auditoria', 'Produtos e Serviços', 'Sistema']);
    const acao = screen.getByLabelText('Ação') as HTMLSelectElement;
    const option = [...acao.options].find((o) => o.textContent === 'Alteração')!;
    expect(option.value).toBe('alterar');
    expect([...acao.options][0]!.textContent).toBe('Todas');

    fireEvent.change(plugin, { target: { value: 'produtos' } });
    fireEvent.change(acao, { target: { value: 'alterar' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('plugin')).toBe('produtos'));
    expect(new URLSearchParams(window.location.search).get('acao')).toBe('alterar');
    await waitFor(() => expect(calls.at(-1)?.search.get('acao')).toBe('alterar'));
    expect(calls.at(-1)?.search.get('plugin')).toBe('produtos');
    // after the navigation the selects show the names
    const shown = screen.getByLabelText('Plugin') as HTMLSelectElement;
    expect(shown.selectedOptions[0]!.textContent).toBe('Produtos e Serviços');
  });

  it('a typed code from the URL stays selectable with its name', async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    mockApi({ 'GET /api/auditoria/logs': () => Response.json({ items: [], nextCursor: null } satisfies LogPage) });
    start('/logs?acao=devolver&plugin=memorandos');
    await screen.findByText('Nenhum registro encontrado.', {}, T);
    expect((screen.getByLabelText('Ação') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('Devolver');
    expect((screen.getByLabelText('Plugin') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('memorandos');
  });

  it('Pesquisa searches a record by what the table shows; fewer than 3 characters is refused before asking', async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    const { calls } = mockApi({
      'GET /api/auditoria/logs': (call) =>
        Response.json(
          (call.search.get('busca') ? { items: [row(1)], nextCursor: null, buscaLimitada: true } : { items: [], nextCursor: null }) satisfies LogPage,
        ),
    });
    start('/logs');
    await screen.findByText('Nenhum registro encontrado.', {}, T);
    const busca = screen.getByLabelText(/^Pesquisa/);
    fireEvent.change(busca, { target: { value: 'ca' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect(await screen.findByText('Digite ao menos 3 caracteres.')).toBeTruthy();
    expect(window.location.search).toBe('');
    fireEvent.change(busca, { target: { value: '000123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('busca')).toBe('000123'));
    await screen.findByText('000123 – Caneta esferográfica azul', {}, T);
    expect(calls.at(-1)?.search.get('busca')).toBe('000123');
    expect(screen.getByText(/A pesquisa encontrou muitos registros: são mostrados os dos 1\.000 mais recentes/)).toBeTruthy();
  });
});
