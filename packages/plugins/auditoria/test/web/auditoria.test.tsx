// @vitest-environment jsdom
import { makeTestSession, mockApi, renderPlugin, signInForTest } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { diffFields, type LogItem, type LogPage } from '../../src/shared/index';
import auditoria from '../../src/web/index';

const T = { timeout: 5000 };

const start = (path: string) => renderPlugin([auditoria], { path });

const item = (id: number, extra: Partial<LogItem> = {}): LogItem => ({
  id,
  at: '2024-01-02T03:04:05.000Z',
  usuarioId: '00000000-0000-4000-8000-000000000001',
  usuarioNome: 'Carla Compradora',
  usuarioLogin: 'comprador',
  plugin: 'produtos',
  registro: `reg-${id}`,
  acao: 'alterar',
  antes: { nome: 'Caneta azul', preco: '1.50' },
  depois: { nome: 'Caneta preta', preco: '1.75' },
  ip: '10.0.0.1',
  registroNome: null,
  motivo: null,
  duplicadoDe: null,
  mudancas: [
    { campo: 'nome', antes: 'Caneta azul', depois: 'Caneta preta' },
    { campo: 'preco', antes: '1.50', depois: '1.75' },
  ],
  ...extra,
});

describe('@app/auditoria manifest', () => {
  it("'Logs de Auditoria' at /logs, tag 90, group 'Administração', one lazy page", () => {
    expect(auditoria).toMatchObject({ id: 'auditoria', basePath: '/logs', tag: 90, title: 'Logs de Auditoria', packageName: '@app/auditoria' });
    expect(auditoria.menu).toMatchObject({ label: 'Logs de Auditoria', group: 'Administração' });
    expect(auditoria.routes.map((r) => [r.path, r.title])).toEqual([['/', 'Logs de Auditoria']]);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });
});

describe('logs page', () => {
  it('reads the filters from the URL, shows the rows, expands the field diff and loads more with the cursor', async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    const { calls } = mockApi({
      'GET /api/auditoria/logs': (call) =>
        Response.json(
          call.search.get('cursor') === '9'
            ? ({
                items: [item(8, { acao: 'criar', antes: null, depois: { nome: 'Lápis' }, mudancas: [{ campo: 'nome', antes: null, depois: 'Lápis' }] })],
                nextCursor: null,
              } satisfies LogPage)
            : ({
                items: [item(10), item(9, { usuarioId: null, usuarioNome: null, usuarioLogin: null, acao: 'entrar', antes: null, depois: null, mudancas: [] })],
                nextCursor: '9',
              } satisfies LogPage),
        ),
    });
    start('/logs?plugin=produtos&de=2024-01-01');
    expect(await screen.findByRole('heading', { level: 1, name: 'Logs de Auditoria' }, T)).toBeTruthy();
    const table = await screen.findByTestId('logs-tabela', {}, T);
    await within(table).findByText('reg-10', {}, T);
    const first = calls.find((c) => c.path === '/api/auditoria/logs')!;
    expect(Object.fromEntries(first.search)).toEqual({ plugin: 'produtos', de: '2024-01-01', limit: '50' });
    expect((screen.getByLabelText('Plugin') as HTMLInputElement).value).toBe('produtos');
    expect((screen.getByLabelText('Período: de') as HTMLInputElement).value).toBe('2024-01-01');

    const row = within(table).getByText('reg-10').closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(0, 4),
    ).toEqual(['02/01/2024 00:04', 'produtos', 'reg-10', 'Alteração']);
    expect(within(row).getByRole('rowheader').textContent).toBe('Carla Compradora (comprador)');
    const system = within(table).getByText('reg-9').closest('tr')!;
    expect(within(system).getByRole('rowheader').textContent).toBe('Sistema');

    const toggle = within(row).getByRole('button', { name: /Ver alterações/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const changes = screen.getByRole('list', { name: 'Alterações do registro 10' });
    // the wording of the document timelines (@app/core): labels, pt-BR decimals
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Nome: Caneta azul → Caneta preta', 'Preço: 1,5 → 1,75']);

    fireEvent.click(screen.getByRole('button', { name: 'Carregar mais' }));
    await within(table).findByText('reg-8', {}, T);
    expect(within(table).getByText('reg-10')).toBeTruthy(); // earlier pages stay
    expect(
      calls
        .filter((c) => c.path === '/api/auditoria/logs')
        .at(-1)
        ?.search.get('cursor'),
    ).toBe('9');
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull();
    expect(screen.getByText('Fim dos registros (3).')).toBeTruthy();
  });

  it('applies filters to the URL and clears them', async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    const { calls } = mockApi({ 'GET /api/auditoria/logs': () => Response.json({ items: [], nextCursor: null } satisfies LogPage) });
    start('/logs');
    expect(await screen.findByText('Nenhum registro encontrado.', {}, T)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Usuário/), { target: { value: 'carla' } });
    fireEvent.change(screen.getByLabelText('Ação'), { target: { value: 'excluir' } });
    fireEvent.change(screen.getByLabelText('Período: até'), { target: { value: '2024-02-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('usuario')).toBe('carla'));
    expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({ ate: '2024-02-01', usuario: 'carla', acao: 'excluir' });
    await waitFor(() => expect(calls.at(-1)?.search.get('acao')).toBe('excluir'));
    fireEvent.click(screen.getByRole('button', { name: 'Limpar filtros' }));
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('exports the CSV with the bearer token through a Blob link, with the current filters', async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:logs');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { calls } = mockApi({
      'GET /api/auditoria/logs': () => Response.json({ items: [item(1)], nextCursor: null } satisfies LogPage),
      'GET /api/auditoria/logs.csv': () =>
        new Response('\uFEFFQuando;Usuário\r\n', {
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="logs-auditoria-20240101-1200.csv"' },
        }),
    });
    start('/logs?acao=alterar');
    await screen.findByText('reg-1', {}, T);
    fireEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled(), T);
    const csv = calls.find((c) => c.path === '/api/auditoria/logs.csv')!;
    expect(csv.headers.get('authorization')).toMatch(/^Bearer .+/);
    expect(Object.fromEntries(csv.search)).toEqual({ acao: 'alterar' });
    const blob = createObjectURL.mock.calls[0]![0];
    expect(blob.type).toMatch(/^text\/csv/);
    // FileReader: jsdom's Blob has no arrayBuffer() on every Node (Node 24 with jsdom 26)
    const bytes = await new Promise<Uint8Array>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(blob);
    });
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM is kept
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('logs-auditoria-20240101-1200.csv');
    expect(anchor.href).toBe('blob:logs');
    click.mockRestore();
  });

  it("'Verificar integridade' shows the verification result", async () => {
    signInForTest(makeTestSession({ tags: [90] }));
    mockApi({
      'GET /api/auditoria/logs': () => Response.json({ items: [], nextCursor: null } satisfies LogPage),
      'GET /api/auditoria/verificacao': () =>
        Response.json({
          ok: false,
          checked: 41,
          brokenAt: 42,
          reason: 'hash_mismatch',
          verificadoEm: '2024-01-01T00:00:00.000Z',
          mensagem: 'Trilha violada: o registro nº 42 foi alterado depois de gravado.',
        }),
    });
    start('/logs');
    fireEvent.click(await screen.findByRole('button', { name: 'Verificar integridade' }, T));
    const alert = await screen.findByRole('alert', {}, T);
    expect(alert.textContent).toContain('Integridade comprometida');
    expect(alert.textContent).toContain('Trilha violada: o registro nº 42 foi alterado depois de gravado.');
  });

  it('needs tag 90', async () => {
    signInForTest(makeTestSession({ tags: [3] }));
    mockApi({});
    start('/logs');
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
  });
});

describe('diffFields', () => {
  it('one line per field of either side; other values as one line', () => {
    expect(diffFields({ a: 1, b: 'x' }, { a: 2, c: null })).toEqual([
      { campo: 'a', antes: '1', depois: '2' },
      { campo: 'b', antes: 'x', depois: '—' },
      { campo: 'c', antes: '—', depois: '—' },
    ]);
    expect(diffFields(null, { tags: [1, 2] })).toEqual([{ campo: 'tags', antes: '—', depois: '[1,2]' }]);
    expect(diffFields(null, null)).toEqual([]);
    expect(diffFields('a', 'b')).toEqual([{ campo: '(valor)', antes: 'a', depois: 'b' }]);
  });
});
