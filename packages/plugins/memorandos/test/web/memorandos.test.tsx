// @vitest-environment jsdom
// The pages as declared, rendered by core's App (renderPlugin) against a mocked API (no server).
import { makeTestSession, mockApi, pageOf, renderPlugin, signInForTest } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import memorandos from '../../src/web/index';

const T = { timeout: 5000 };

const start = (path: string) => renderPlugin(memorandos, { path });

const CENTROS = [
  { id: '00000000-0000-4000-8000-0000000000c1', codigo: '01.01', nome: 'Compras e Licitações', ativo: true },
  { id: '00000000-0000-4000-8000-0000000000c2', codigo: '02', nome: 'Secretaria de Educação', ativo: true },
];

const memorando = (over: Record<string, unknown> = {}) => ({
  id: '00000000-0000-4000-8000-000000000001',
  numero: 12,
  ano: 2026,
  data: '2026-03-02',
  status: 'enviado',
  version: 2,
  origemId: CENTROS[1]!.id,
  origemNome: 'Secretaria de Educação',
  destinoId: CENTROS[0]!.id,
  destinoNome: 'Compras e Licitações',
  solicitanteNome: 'Rita Requisitante',
  assunto: 'Material de expediente para as escolas',
  justificativa: 'Reposição do material das secretarias escolares no semestre.',
  prioridade: 'alta',
  dataDesejada: '2026-04-30',
  valorTotal: '383.78',
  itens: [
    {
      produtoId: 'p1',
      produtoDescricao: 'Papel sulfite A4',
      unidadeSigla: 'RESMA',
      ordem: 1,
      quantidade: '3.0000',
      valorUnitario: '0.3333',
      valorTotal: '1.00',
    },
    { produtoId: 'p2', produtoDescricao: 'Toner laser', unidadeSigla: 'UN', ordem: 2, quantidade: '1.2340', valorUnitario: '289.9000', valorTotal: '357.74' },
  ],
  transicoes: ['aceitar', 'devolver'],
  editavel: false,
  ...over,
});

describe('@app/memorandos manifest', () => {
  it("'Memorandos' at /memorando with tag 29 in 'Documentos': list, new, edit and duplicar; lazy pages only", () => {
    expect(memorandos).toMatchObject({ id: 'memorandos', basePath: '/memorando', tag: 29, title: 'Memorandos', packageName: '@app/memorandos' });
    expect(memorandos.menu).toMatchObject({ label: 'Memorandos', group: 'Documentos' });
    expect(memorandos.routes.map((r) => [r.path, r.title])).toEqual([
      ['/', 'Memorandos'],
      ['/new', 'Novo memorando'],
      ['/edit/:id', 'Editar memorando'],
      ['/duplicar/:id', 'Duplicar memorando'],
    ]);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });
});

describe('pages', () => {
  it('lists number, date, subject, parties, priority, estimated value and status; filters by status, period, origin, destination, priority', async () => {
    signInForTest(makeTestSession({ tags: [29] }));
    const calls = mockApi({
      'GET /api/memorandos/memorandos': () => Response.json(pageOf([memorando()])),
      'GET /api/memorandos/centros-custo': () => Response.json(pageOf(CENTROS)),
    }).calls;
    start('/memorando');
    expect(await screen.findByRole('heading', { level: 1, name: 'Memorandos' }, T)).toBeTruthy();
    const row = (await screen.findByText('Material de expediente para as escolas', {}, T)).closest('tr') as HTMLElement;
    const cells = [...row.querySelectorAll('th,td')].map((td) => td.textContent?.trim());
    expect(cells).toEqual(expect.arrayContaining(['12/2026', '02/03/2026', 'Secretaria de Educação', 'Compras e Licitações', 'Alta', 'R$ 383,78', 'Enviado']));
    for (const label of ['Situação', 'Origem', 'Destino', 'Prioridade']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    expect(calls.find((c) => c.path === '/api/memorandos/memorandos')?.search.get('sort')).toBe('-numero');
  });

  it('opens a sent memorando read-only with the transitions the server allows this person (Aceitar, Devolver), PDF and Duplicar', async () => {
    signInForTest(makeTestSession({ tags: [29] }));
    mockApi({
      'GET /api/memorandos/memorandos/00000000-0000-4000-8000-000000000001': () => Response.json(memorando()),
      'GET /api/memorandos/memorandos/00000000-0000-4000-8000-000000000001/historico': () => Response.json({ items: [], truncated: false }),
      'GET /api/memorandos/centros-custo': () => Response.json(pageOf(CENTROS)),
    });
    start('/memorando/edit/00000000-0000-4000-8000-000000000001');
    expect(await screen.findByText('Este memorando está enviado: somente leitura.', {}, T)).toBeTruthy();
    const header = screen.getByRole('heading', { level: 1 }).closest('.page-header') as HTMLElement;
    await waitFor(() => expect(within(header).getByRole('button', { name: 'Aceitar' })).toBeTruthy(), T);
    expect(within(header).getByRole('button', { name: 'Devolver' })).toBeTruthy();
    expect(within(header).queryByRole('button', { name: 'Enviar' })).toBeNull();
    expect(within(header).queryByRole('button', { name: 'Cancelar' })).toBeNull();
    expect(within(header).getByRole('button', { name: 'Duplicar' })).toBeTruthy();
    expect(within(header).getByRole('button', { name: 'Imprimir (PDF)' })).toBeTruthy();
    // the items as answered, and their total computed as the server does
    expect(screen.getByDisplayValue('1,234')).toBeTruthy();
    expect(screen.getAllByText(/R\$ 358,74/).length).toBeGreaterThan(0);
    expect(screen.getByDisplayValue('Material de expediente para as escolas')).toBeTruthy();
  });

  it('a draft is edited and sent, never deleted: no Excluir', async () => {
    signInForTest(makeTestSession({ tags: [29] }));
    const rascunho = memorando({ status: 'rascunho', editavel: true, transicoes: ['enviar', 'cancelar'] });
    mockApi({
      'GET /api/memorandos/memorandos/00000000-0000-4000-8000-000000000001': () => Response.json(rascunho),
      'GET /api/memorandos/memorandos/00000000-0000-4000-8000-000000000001/historico': () => Response.json({ items: [], truncated: false }),
      'GET /api/memorandos/centros-custo': () => Response.json(pageOf(CENTROS)),
    });
    start('/memorando/edit/00000000-0000-4000-8000-000000000001');
    expect(await screen.findByRole('button', { name: 'Salvar' }, T)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enviar' })).toBeTruthy(), T);
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
  });

  it("a new memorando: from the person's own centro, priority Média, the fields and the items grid with its live total", async () => {
    signInForTest(makeTestSession({ tags: [29], centrosCusto: [CENTROS[1]!.id] }));
    mockApi({ 'GET /api/memorandos/centros-custo': () => Response.json(pageOf(CENTROS)) });
    start('/memorando/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'Novo memorando' }, T)).toBeTruthy();
    for (const name of ['Assunto', 'Justificativa da necessidade', 'Data desejada']) expect(screen.getByLabelText(name, { exact: false })).toBeTruthy();
    expect((screen.getByLabelText('Prioridade', { exact: false }) as HTMLSelectElement).value).toBe('media');
    await waitFor(() => expect((screen.getByLabelText('Origem (centro de custo)', { exact: false }) as HTMLSelectElement).value).toBe(CENTROS[1]!.id), T);
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar item' }));
    expect(await screen.findByText('Valor total estimado', { exact: false }, T)).toBeTruthy();
  });
});
