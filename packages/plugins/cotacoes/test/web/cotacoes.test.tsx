// @vitest-environment jsdom
// The cotações' pages on the document kit, rendered by core's App (renderPlugin) against a mocked
// API: the manifest and menu, the list, 403, the new form (defaults from the configuração, pt-BR
// validation before any request, the prazo sent as an ISO date-time) and the edit page.
import { today } from '@app/br';
import { buildMenu } from '@app/core';
import { type ApiCall, makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COTACOES_TAG, COTACOES_TAG_NOME, descreverMetodo } from '../../src/shared/index';
import plugin from '../../src/web/index';

const T = { timeout: 8000 };
const TITLE = 'Cotações';
const ID = '00000000-0000-4000-8000-0000000000c1';
const NOVA = '00000000-0000-4000-8000-0000000000c2';
const CENTRO = '00000000-0000-4000-8000-0000000000d1';
const REQ = '00000000-0000-4000-8000-0000000000e1';
const REQ_ITEM = '00000000-0000-4000-8000-0000000000e2';
const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';
const BASE = `/api/cotacoes/cotacoes/${ID}`;

const cotacao = (over: Record<string, unknown> = {}) => ({
  id: ID,
  numero: 12,
  ano: 2026,
  data: '2026-03-01',
  status: 'em_coleta',
  objeto: 'Material de expediente para as escolas municipais',
  centroCustoId: CENTRO,
  centroCustoCodigo: '02',
  centroCustoNome: 'Secretaria de Educação',
  requisicaoId: null,
  requisicaoNumero: null,
  dataReferencia: '2026-03-01',
  prazo: '2026-03-10T20:00:00.000Z',
  metodo: 'media_saneada',
  iterar: false,
  observacoes: null,
  responsavelNome: 'Maria Souza',
  valorTotal: '3000.00',
  quantidadeItens: 3,
  quantidadePrecos: 11,
  version: 4,
  itens: [
    {
      id: 'i1',
      ordem: 1,
      produtoId: P1,
      produtoCodigo: '0001',
      produtoDescricao: 'Papel sulfite A4',
      unidadeSigla: 'RESMA',
      quantidade: '100.0000',
      valorUnitario: '30.0000',
      valorTotal: '3000.00',
      requisicaoItemId: null,
    },
  ],
  transicoes: ['concluir', 'cancelar'],
  editavel: true,
  ...over,
});

const produtos = [
  { id: P1, codigo: '0001', descricao: 'Papel sulfite A4', unidadeSigla: 'RESMA', ativo: true },
  { id: P2, codigo: '0002', descricao: 'Caneta esferográfica azul', unidadeSigla: 'UN', ativo: true },
];

const comuns = {
  'GET /api/cotacoes/centros-custo': () => Response.json(pageOf([{ id: CENTRO, codigo: '02', nome: 'Secretaria de Educação', ativo: true }])),
  'GET /api/cotacoes/produtos': (call: ApiCall) => {
    const q = (call.search.get('q') ?? '').toLowerCase();
    return Response.json(pageOf(produtos.filter((p) => p.descricao.toLowerCase().includes(q))));
  },
  'GET /api/cotacoes/configuracao': () => Response.json({ metodo: 'mediana', iterar: false, version: 2 }),
  'GET /api/cotacoes/cotacoes': () =>
    Response.json(
      pageOf([
        cotacao(),
        cotacao({
          id: NOVA,
          numero: 13,
          status: 'rascunho',
          objeto: 'Merenda escolar do segundo semestre',
          quantidadeItens: 1,
          quantidadePrecos: 0,
          prazo: null,
        }),
      ]),
    ),
  [`GET ${BASE}/historico`]: () => Response.json({ items: [], truncated: false }),
};

const label = (text: RegExp) => screen.getByLabelText(text) as HTMLInputElement;

describe('@app/cotacoes manifest', () => {
  it("id 'cotacoes' (the API prefix), '/cotacao' behind tag 73: the document's routes, de-requisição, coleta, mapa and configuração (tag 3); lazy pages only", () => {
    expect(plugin).toMatchObject({ id: 'cotacoes', basePath: '/cotacao', tag: 73, title: TITLE, packageName: '@app/cotacoes' });
    // the server half's id and tag (src/server declares the same constants)
    expect([plugin.tag, plugin.title]).toEqual([COTACOES_TAG, COTACOES_TAG_NOME]);
    expect(plugin.routes.map((r) => [r.path, r.tag])).toEqual([
      ['/', undefined],
      ['/new', undefined],
      ['/edit/:id', undefined],
      ['/duplicar/:id', undefined],
      ['/de-requisicao', undefined],
      ['/add/:id', undefined],
      ['/mapa/:id', undefined],
      ['/configuracao', 3],
    ]);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });

  it('is a menu entry (Documentos) only for who holds tag 73', () => {
    expect(buildMenu([plugin], [73]).map((m) => [m.href, m.label, m.group])).toEqual([['/cotacao', TITLE, 'Documentos']]);
    expect(buildMenu([plugin], [3, 39])).toEqual([]);
  });
});

describe('list', () => {
  it('shows número/ano, objeto, situação, itens, preços coletados and prazo (São Paulo), and the links of each cotação', async () => {
    const { calls } = renderPlugin(plugin, { path: '/cotacao', session: makeTestSession({ tags: [73] }), api: comuns });
    expect(await screen.findByRole('heading', { level: 1, name: TITLE }, T)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getByRole('link', { name: TITLE }).getAttribute('href')).toBe('/cotacao');
    const objeto = await screen.findByText('Material de expediente para as escolas municipais', {}, T);
    const tabela = objeto.closest('table') as HTMLElement;
    expect([...tabela.querySelectorAll('thead th')].map((th) => th.textContent?.trim())).toEqual(
      expect.arrayContaining(['Número', 'Objeto', 'Situação', 'Itens', 'Preços coletados', 'Prazo']),
    );
    const linha = screen.getByRole('link', { name: 'Coleta de preços da cotação 12/2026' }).closest('tr') as HTMLElement;
    const textos = [...linha.querySelectorAll('td,th')].map((c) => c.textContent?.trim());
    expect(textos.slice(0, 6)).toEqual(['12/2026', 'Material de expediente para as escolas municipais', 'Em coleta', '3', '11', '10/03/2026 17:00']);
    expect(within(linha).getByRole('link', { name: 'Coleta de preços da cotação 12/2026' }).getAttribute('href')).toBe(`/cotacao/add/${ID}`);
    expect(within(linha).getByRole('link', { name: 'Mapa comparativo da cotação 12/2026' }).getAttribute('href')).toBe(`/cotacao/mapa/${ID}`);
    expect(screen.getByRole('link', { name: 'Mapa comparativo da cotação 13/2026' }).getAttribute('href')).toBe(`/cotacao/mapa/${NOVA}`);
    // the list action; Configuração only for administrators (tag 3)
    expect(screen.getByRole('link', { name: 'Nova a partir de requisição' }).getAttribute('href')).toBe('/cotacao/de-requisicao');
    expect(screen.queryByRole('link', { name: 'Configuração' })).toBeNull();
    // the status filter, the search and the sort travel in the request
    expect(screen.getAllByText('Rascunho').length).toBeGreaterThan(0);
    const lista = calls.find((c) => c.path === '/api/cotacoes/cotacoes');
    expect(lista?.search.get('sort')).toBe('-numero');
  });

  it('status filter and search from the URL reach the API; an administrator also sees Configuração', async () => {
    const { calls } = renderPlugin(plugin, {
      path: '/cotacao?status=em_coleta,rascunho&q=papel',
      session: makeTestSession({ tags: [73, 3] }),
      api: comuns,
    });
    expect(await screen.findByRole('link', { name: 'Configuração' }, T)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Configuração' }).getAttribute('href')).toBe('/cotacao/configuracao');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/cotacoes/cotacoes')).toBe(true));
    const lista = calls.filter((c) => c.path === '/api/cotacoes/cotacoes').at(-1)!;
    expect(lista.search.get('status')).toBe('em_coleta,rascunho');
    expect(lista.search.get('q')).toBe('papel');
  });

  it('without tag 73: no menu entry, and the page answers Erro 403', async () => {
    renderPlugin(plugin, { path: '/cotacao', session: makeTestSession({ tags: [3] }), api: comuns });
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
    expect(window.location.pathname).toBe('/403');
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).queryByRole('link', { name: TITLE })).toBeNull();
  });
});

describe('new cotação', () => {
  it("starts with the entidade's method and today's reference date; validates in pt-BR before any request", async () => {
    const { calls } = renderPlugin(plugin, { path: '/cotacao/new', session: makeTestSession({ tags: [73] }), api: comuns });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nova cotação' }, T)).toBeTruthy();
    // the default method of the configuração (mediana): iterar only shows for the média saneada
    await waitFor(() => expect((screen.getByRole('combobox', { name: /Método de cálculo/ }) as HTMLSelectElement).value).toBe('mediana'));
    expect(screen.queryByLabelText(/Repetir a regra de exclusão/)).toBeNull();
    expect(label(/Data de referência/).value).toBe(today());
    expect(label(/Prazo de resposta/).type).toBe('datetime-local');
    // no requisição: its field is not shown
    expect(screen.queryByText('Requisição de origem')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Descreva o objeto (ao menos 10 caracteres).', {}, T)).toBeTruthy();
    expect(screen.getByText('Escolha o centro de custo.')).toBeTruthy();
    expect(screen.getByText('Inclua ao menos um item.')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('sends the prazo typed on São Paulo’s clock as an ISO date-time, iterar for the média saneada, the items', async () => {
    let posted: Record<string, unknown> | null = null;
    const criada = cotacao({ id: NOVA, numero: 13, status: 'rascunho', transicoes: ['iniciar', 'cancelar'] });
    renderPlugin(plugin, {
      path: '/cotacao/new',
      session: makeTestSession({ tags: [73], centrosCusto: [CENTRO] }),
      api: {
        ...comuns,
        'POST /api/cotacoes/cotacoes': (call) => {
          posted = call.body as Record<string, unknown>;
          return Response.json(criada, { status: 201 });
        },
        [`GET /api/cotacoes/cotacoes/${NOVA}`]: () => Response.json(criada),
        [`GET /api/cotacoes/cotacoes/${NOVA}/historico`]: () => Response.json({ items: [], truncated: false }),
      },
    });
    const objeto = await screen.findByLabelText(/Objeto/, {}, T);
    fireEvent.change(objeto, { target: { value: 'Material de expediente para as escolas' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: /Centro de custo/ }) as HTMLSelectElement).value).toBe(CENTRO));
    fireEvent.change(screen.getByRole('combobox', { name: /Método de cálculo/ }), { target: { value: 'media_saneada' } });
    fireEvent.click(label(/Repetir a regra de exclusão \(iterar\)/));
    fireEvent.change(label(/Prazo de resposta/), { target: { value: '2026-03-10T17:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar item' }));
    const picker = screen.getByRole('combobox', { name: 'Produto ou serviço do item 1' });
    picker.focus();
    fireEvent.change(picker, { target: { value: 'caneta' } });
    await screen.findByRole('option', { name: /0002 – Caneta esferográfica azul/ }, T);
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    fireEvent.keyDown(picker, { key: 'Enter' });
    fireEvent.change(label(/Quantidade do item 1/), { target: { value: '500' } });
    fireEvent.change(label(/Valor de referência do item 1/), { target: { value: '1,20' } });
    expect(screen.getByText('Incluído na cotação')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Cotação 13/2026 salva.', {}, T)).toBeTruthy();
    expect(posted).toEqual({
      objeto: 'Material de expediente para as escolas',
      centroCustoId: CENTRO,
      dataReferencia: today(),
      prazo: '2026-03-10T20:00:00.000Z',
      metodo: 'media_saneada',
      iterar: true,
      observacoes: '',
      itens: [{ produtoId: P2, quantidade: '500', valorUnitario: '1.2', requisicaoItemId: null }],
    });
    await waitFor(() => expect(window.location.pathname).toBe(`/cotacao/edit/${NOVA}`));
  });
});

describe('edit page', () => {
  const daRequisicao = () =>
    cotacao({
      requisicaoId: REQ,
      requisicaoNumero: '7/2026',
      itens: [{ ...cotacao().itens[0], requisicaoItemId: REQ_ITEM }],
    });

  it('links to the collection and the mapa, prints the method, shows the requisição and keeps its links when saved', async () => {
    let put: Record<string, unknown> | null = null;
    renderPlugin(plugin, {
      path: `/cotacao/edit/${ID}`,
      session: makeTestSession({ tags: [73], centrosCusto: [CENTRO] }),
      api: {
        ...comuns,
        [`GET ${BASE}`]: () => Response.json(daRequisicao()),
        [`PUT ${BASE}`]: (call) => {
          put = call.body as Record<string, unknown>;
          return Response.json({ ...daRequisicao(), version: 5 });
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar cotação' }, T)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Coleta de preços' }).getAttribute('href')).toBe(`/cotacao/add/${ID}`);
    expect(screen.getByRole('link', { name: 'Mapa comparativo' }).getAttribute('href')).toBe(`/cotacao/mapa/${ID}`);
    expect(await screen.findByRole('button', { name: 'Concluir' }, T)).toBeTruthy();
    const metodo = screen.getByRole('region', { name: 'Método de cálculo' });
    expect(within(metodo).getByText('Média saneada')).toBeTruthy();
    expect(within(metodo).getByText(descreverMetodo('media_saneada', false))).toBeTruthy();
    // the requisição: its number (no link without Requisições), the centro fixed to its own
    expect(screen.getByText('Requisição de origem')).toBeTruthy();
    expect(screen.getAllByText('Requisição 7/2026').length).toBe(2);
    expect(screen.queryByRole('link', { name: 'Requisição 7/2026' })).toBeNull();
    await waitFor(() => expect((screen.getByRole('combobox', { name: /Centro de custo/ }) as HTMLSelectElement).disabled).toBe(true));
    // the saved instant on São Paulo's clock
    expect(label(/Prazo de resposta/).value).toBe('2026-03-10T17:00');

    fireEvent.change(label(/Quantidade do item 1/), { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Cotação 12/2026 salva.', {}, T)).toBeTruthy();
    expect(put).toMatchObject({
      requisicaoId: REQ,
      prazo: '2026-03-10T20:00:00.000Z',
      version: 4,
      itens: [{ id: 'i1', produtoId: P1, quantidade: '120', valorUnitario: '30', requisicaoItemId: REQ_ITEM }],
    });
  });

  it('who holds Requisições opens the requisição from the link', async () => {
    renderPlugin(plugin, {
      path: `/cotacao/edit/${ID}`,
      session: makeTestSession({ tags: [73, 39], centrosCusto: [CENTRO] }),
      api: { ...comuns, [`GET ${BASE}`]: () => Response.json(daRequisicao()) },
    });
    const link = await screen.findByRole('link', { name: 'Requisição 7/2026' }, T);
    expect(link.getAttribute('href')).toBe(`/requisicao/edit/${REQ}`);
  });
});

describe("'Iniciar coleta'", () => {
  /** The edit page of a rascunho (`prazo` as given) whose POST …/iniciar answers it em coleta; the bodies sent are kept. */
  const rascunho = (prazo: string | null) => {
    const enviados: Record<string, unknown>[] = [];
    let atual = cotacao({ status: 'rascunho', prazo, transicoes: ['iniciar', 'cancelar'] });
    renderPlugin(plugin, {
      path: `/cotacao/edit/${ID}`,
      session: makeTestSession({ tags: [73], centrosCusto: [CENTRO] }),
      api: {
        ...comuns,
        [`GET ${BASE}`]: () => Response.json(atual),
        [`POST ${BASE}/iniciar`]: (call) => {
          const body = call.body as Record<string, unknown>;
          enviados.push(body);
          atual = cotacao({ status: 'em_coleta', prazo: body.prazo ?? prazo, version: 5 });
          return Response.json(atual);
        },
      },
    });
    return enviados;
  };
  const abrirDialogo = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar coleta' }, T));
    return screen.findByRole('alertdialog', {}, T);
  };

  it('without a deadline, asks for it before anything is sent, and sends the one typed (São Paulo’s clock) with the transition', async () => {
    const enviados = rascunho(null);
    const dialogo = await abrirDialogo();
    expect(within(dialogo).getByText(/Esta cotação não tem prazo de resposta\./)).toBeTruthy();
    // neither a deadline nor the choice to start without one: the dialog says so and sends nothing
    fireEvent.click(within(dialogo).getByRole('button', { name: 'Iniciar coleta' }));
    expect(await within(dialogo).findByText('Informe o prazo de resposta ou marque que a coleta começa sem prazo.', {}, T)).toBeTruthy();
    expect(enviados).toEqual([]);
    fireEvent.change(within(dialogo).getByLabelText(/Prazo de resposta/), { target: { value: '2026-12-18T17:00' } });
    fireEvent.click(within(dialogo).getByRole('button', { name: 'Iniciar coleta' }));
    expect(await screen.findByText('Cotação 12/2026 em coleta.', {}, T)).toBeTruthy();
    expect(enviados).toEqual([{ version: 4, prazo: '2026-12-18T20:00:00.000Z' }]);
  });

  it('or starts without one when the person marks it explicitly (`semPrazo`, recorded by the server)', async () => {
    const enviados = rascunho(null);
    const dialogo = await abrirDialogo();
    fireEvent.click(within(dialogo).getByRole('checkbox', { name: /Iniciar a coleta sem prazo de resposta/ }));
    expect((within(dialogo).getByLabelText(/Prazo de resposta/) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(dialogo).getByRole('button', { name: 'Iniciar coleta' }));
    expect(await screen.findByText('Cotação 12/2026 em coleta.', {}, T)).toBeTruthy();
    expect(enviados).toEqual([{ version: 4, semPrazo: true }]);
  });

  it('with a deadline, only confirms, saying what the suppliers receive', async () => {
    const enviados = rascunho('2026-03-10T20:00:00.000Z');
    const dialogo = await abrirDialogo();
    expect(within(dialogo).getByText(/recebem o pedido com o formulário em anexo\. Prazo de resposta: 10\/03\/2026 17:00/)).toBeTruthy();
    expect(within(dialogo).queryByRole('checkbox')).toBeNull();
    fireEvent.click(within(dialogo).getByRole('button', { name: 'Iniciar coleta' }));
    expect(await screen.findByText('Cotação 12/2026 em coleta.', {}, T)).toBeTruthy();
    expect(enviados).toEqual([{ version: 4 }]);
  });
});
