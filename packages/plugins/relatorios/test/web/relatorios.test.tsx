// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { makeTestSession, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import relatorios from '../../src/web/index';

const RELATORIO = {
  id: 'requisicoes.por-periodo',
  title: 'Requisições por secretaria, solicitante e período',
  description: 'Cada requisição do período.',
  group: 'Requisições',
  filtros: [
    { name: 'de', label: 'Data inicial', kind: 'date', required: false },
    { name: 'situacao', label: 'Situação', kind: 'select', required: false, options: [{ value: 'aprovada', label: 'Aprovada' }] },
  ],
  colunas: [
    { key: 'numero', label: 'Número', type: 'text', total: false },
    { key: 'data', label: 'Data', type: 'date', total: false },
    { key: 'valor', label: 'Valor', type: 'money', total: true },
  ],
};

const resultado = (ordem: string | null, direcao = 'asc') => ({
  relatorio: RELATORIO,
  filtrosUsados: [],
  linhas: [
    { numero: '1/2026', data: '2026-01-10', valor: '0.10' },
    { numero: '4/2026', data: '2026-01-15', valor: '1234.56' },
  ],
  totalLinhas: 2,
  totais: { valor: '1234.66' },
  ordem,
  direcao,
  geradoEm: '2026-03-02T13:00:00.000Z',
  geradoPor: 'Maria',
});

describe('@app/relatorios web', () => {
  it('keeps the manifest cheap: pages are only dynamic imports', () => {
    const source = readFileSync('src/web/index.ts', 'utf8');
    expect(source).not.toMatch(/^import .*pages/m);
    expect(relatorios).toMatchObject({ id: 'relatorios', basePath: '/reports', tag: 105 });
  });

  it('lists the reports the person may run, by group, with links', async () => {
    renderPlugin(relatorios, {
      session: makeTestSession({ tags: [105] }),
      api: { 'GET /api/relatorios': () => Response.json({ items: [{ id: RELATORIO.id, title: RELATORIO.title, description: 'x', group: 'Requisições' }] }) },
    });
    const grupo = await screen.findByRole('region', { name: 'Requisições' }, { timeout: 5000 });
    expect(within(grupo).getByRole('link', { name: RELATORIO.title }).getAttribute('href')).toBe('/reports/requisicoes.por-periodo');
  });

  it('shows the rows formatted, the totals, sorts through the URL and sends the filters', async () => {
    const { calls } = renderPlugin(relatorios, {
      session: makeTestSession({ tags: [105, 39] }),
      path: '/reports/requisicoes.por-periodo?situacao=aprovada',
      api: {
        'GET /api/relatorios/requisicoes.por-periodo': () => Response.json(RELATORIO),
        'GET /api/relatorios/requisicoes.por-periodo/linhas': (call) => Response.json(resultado(call.search.get('ordem'), call.search.get('direcao') ?? 'asc')),
        'GET /api/relatorios/requisicoes.por-periodo/arquivos': () => Response.json({ items: [] }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: RELATORIO.title }, { timeout: 5000 })).toBeTruthy();
    const tabela = await screen.findByRole('table');
    expect(within(tabela).getByText('R$ 1.234,56')).toBeTruthy();
    expect(within(tabela).getByText('10/01/2026')).toBeTruthy();
    expect(screen.getByLabelText('Totais').textContent).toBe('Totais: Valor R$ 1.234,66');
    expect((screen.getByLabelText('Situação') as HTMLSelectElement).value).toBe('aprovada');
    const primeira = calls.find((c) => c.path.endsWith('/linhas'))!;
    expect(Object.fromEntries(primeira.search)).toEqual({ situacao: 'aprovada' });

    fireEvent.click(within(tabela).getByRole('button', { name: /Valor/ }));
    await screen.findByText('R$ 1.234,56');
    await expect.poll(() => calls.filter((c) => c.path.endsWith('/linhas')).map((c) => c.search.get('ordem'))).toContain('valor');
    expect(window.location.search).toBe('?situacao=aprovada&ordem=valor&direcao=asc');

    fireEvent.change(screen.getByLabelText('Data inicial'), { target: { value: '2026-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Gerar' }));
    await expect.poll(() => window.location.search).toBe('?de=2026-01-01&situacao=aprovada');
  });

  it('a rejected filter is shown as the server says it, not as a failure', async () => {
    renderPlugin(relatorios, {
      session: makeTestSession({ tags: [105, 39] }),
      path: '/reports/requisicoes.por-periodo?de=2026-02-30',
      api: {
        'GET /api/relatorios/requisicoes.por-periodo/arquivos': () => Response.json({ items: [] }),
        'GET /api/relatorios/requisicoes.por-periodo': () => Response.json(RELATORIO),
        'GET /api/relatorios/requisicoes.por-periodo/linhas': () =>
          Response.json(
            {
              error: {
                code: 'bad_request',
                message: 'Data inicial: data inválida (use dd/mm/aaaa).',
                fields: { de: 'Data inicial: data inválida (use dd/mm/aaaa).' },
              },
            },
            { status: 400 },
          ),
      },
    });
    expect(await screen.findByText('Confira os filtros', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Data inicial: data inválida (use dd/mm/aaaa).')).toBeTruthy();
  });

  it('a report above 10 000 rows offers the background; the files show their state and progress, refreshed while one runs', async () => {
    const arquivo = (id: string, extra: Record<string, unknown>) => ({
      id,
      relatorioId: RELATORIO.id,
      titulo: RELATORIO.title,
      formato: 'xlsx',
      filtrosUsados: [{ label: 'Situação', valor: 'Aprovada' }],
      estado: 'na_fila',
      fase: null,
      linhas: 0,
      total: null,
      erro: null,
      nomeArquivo: null,
      tamanho: null,
      criadoEm: '2026-03-02T13:00:00.000Z',
      concluidoEm: null,
      expiraEm: null,
      ...extra,
    });
    let gerando = arquivo('a2', { estado: 'gerando', fase: 'montando', linhas: 4_500, total: 10_000 });
    const { calls } = renderPlugin(relatorios, {
      session: makeTestSession({ tags: [105, 39] }),
      path: '/reports/requisicoes.por-periodo?situacao=aprovada',
      api: {
        'GET /api/relatorios/requisicoes.por-periodo': () => Response.json(RELATORIO),
        'GET /api/relatorios/requisicoes.por-periodo/linhas': () =>
          Response.json({ error: { code: 'bad_request', message: 'O relatório passa de 10.000 linhas.', fields: { linhas: 'demais' } } }, { status: 400 }),
        'GET /api/relatorios/requisicoes.por-periodo/arquivos': () =>
          Response.json({
            items: [
              arquivo('a1', { estado: 'na_fila', formato: 'pdf' }),
              gerando,
              arquivo('a3', {
                estado: 'pronto',
                linhas: 12_345,
                total: 12_345,
                nomeArquivo: 'r.xlsx',
                tamanho: 1000,
                concluidoEm: '2026-03-02T17:05:00.000Z',
                expiraEm: '2026-03-09T17:05:00.000Z',
              }),
              arquivo('a4', { estado: 'falhou', erro: 'O relatório passa de 200.000 linhas' }),
            ],
          }),
        'POST /api/relatorios/requisicoes.por-periodo/arquivos': () => Response.json(arquivo('a5', {}), { status: 202 }),
        'DELETE /api/relatorios/requisicoes.por-periodo/arquivos/a3': () => new Response(null, { status: 204 }),
        'DELETE /api/relatorios/requisicoes.por-periodo/arquivos/a1': () => new Response(null, { status: 204 }),
      },
    });
    expect(await screen.findByText('O relatório passa de 10.000 linhas', {}, { timeout: 5000 })).toBeTruthy();
    const tabela = await screen.findByRole('table', { name: 'Arquivos gerados' });
    expect(within(tabela).getByText('Na fila')).toBeTruthy();
    expect(within(tabela).getByText('Gerando 45 %')).toBeTruthy();
    expect((within(tabela).getByRole('progressbar') as HTMLProgressElement).value).toBe(4_500);
    expect(within(tabela).getByText('Pronto — baixar até 09/03/2026 14:05')).toBeTruthy();
    expect(within(tabela).getByText('Falhou: O relatório passa de 200.000 linhas')).toBeTruthy();
    // only the ready file has a download button
    expect(within(tabela).getAllByRole('button', { name: /^Baixar/ })).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/relatorios/requisicoes.por-periodo/arquivos').length).toBeGreaterThan(0);

    // while one runs the list is asked again (every 2 s); the progress moves
    gerando = arquivo('a2', { estado: 'gerando', fase: 'montando', linhas: 9_000, total: 10_000 });
    expect(await within(tabela).findByText('Gerando 90 %', {}, { timeout: 5000 })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Gerar XLSX em segundo plano' }));
    await expect.poll(() => calls.filter((c) => c.method === 'POST').length).toBe(1);
    const pedido = calls.find((c) => c.method === 'POST')!;
    expect(pedido.body).toEqual({ formato: 'xlsx' });
    expect(Object.fromEntries(pedido.search)).toEqual({ situacao: 'aprovada' });

    // a file under way is cancelled, a finished one deleted: each asked first, 'Manter' keeps it
    expect(within(tabela).getAllByRole('button', { name: /^Cancelar o/ })).toHaveLength(2);
    expect(within(tabela).getAllByRole('button', { name: /^Excluir o/ })).toHaveLength(2);
    fireEvent.click(within(tabela).getByRole('button', { name: 'Excluir o XLSX pronto pedido em 02/03/2026 10:00' }));
    const dialogo = await screen.findByRole('alertdialog', { name: 'Excluir o XLSX pronto pedido em 02/03/2026 10:00?' });
    fireEvent.click(within(dialogo).getByRole('button', { name: 'Manter' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(within(tabela).getByRole('button', { name: 'Excluir o XLSX pronto pedido em 02/03/2026 10:00' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir' }));
    await expect.poll(() => calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/relatorios/requisicoes.por-periodo/arquivos/a3']);
    fireEvent.click(within(tabela).getByRole('button', { name: 'Cancelar o PDF na fila pedido em 02/03/2026 10:00' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar o arquivo' }));
    await expect.poll(() => calls.filter((c) => c.method === 'DELETE').length).toBe(2);
    expect(calls.filter((c) => c.method === 'DELETE')[1]!.path).toBe('/api/relatorios/requisicoes.por-periodo/arquivos/a1');
  });

  it('no list of files while the person has none, and no polling', async () => {
    const { calls } = renderPlugin(relatorios, {
      session: makeTestSession({ tags: [105, 39] }),
      path: '/reports/requisicoes.por-periodo',
      api: {
        'GET /api/relatorios/requisicoes.por-periodo': () => Response.json(RELATORIO),
        'GET /api/relatorios/requisicoes.por-periodo/linhas': () => Response.json(resultado(null)),
        'GET /api/relatorios/requisicoes.por-periodo/arquivos': () => Response.json({ items: [] }),
      },
    });
    expect(await screen.findByRole('table', {}, { timeout: 5000 })).toBeTruthy();
    await expect.poll(() => calls.some((c) => c.path === '/api/relatorios/requisicoes.por-periodo/arquivos')).toBe(true);
    expect(screen.queryByRole('table', { name: 'Arquivos gerados' })).toBeNull();
    expect(screen.queryByText('Gerar PDF em segundo plano')).toBeNull();
    await new Promise((r) => setTimeout(r, 2500));
    expect(calls.filter((c) => c.path === '/api/relatorios/requisicoes.por-periodo/arquivos')).toHaveLength(1);
  });
});
