// @vitest-environment jsdom
// The pages as declared, rendered by core's App (renderPlugin) against a mocked API (no server).
import { makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import requisicoes from '../../src/web/index';

const T = { timeout: 8000 };
const ID = '00000000-0000-4000-8000-000000000001';
const PRE_ID = '00000000-0000-4000-8000-0000000000a1';
const CENTRO = '00000000-0000-4000-8000-0000000000c2';
const TIPO = '00000000-0000-4000-8000-0000000000d1';
const IT1 = '00000000-0000-4000-8000-0000000000e1';
const IT2 = '00000000-0000-4000-8000-0000000000e2';
const P1 = '00000000-0000-4000-8000-0000000000f1';
const P2 = '00000000-0000-4000-8000-0000000000f2';

const requisicao = (over: Record<string, unknown> = {}) => ({
  id: ID,
  numero: 7,
  ano: 2026,
  data: '2026-03-02',
  status: 'em_aprovacao',
  version: 3,
  centroCustoId: CENTRO,
  centroCustoCodigo: '02',
  centroCustoNome: 'Secretaria de Educação',
  tipoSolicitacaoId: TIPO,
  tipoSolicitacaoNome: 'Material de consumo',
  categoria: 'compras',
  dotacao: '02.01.12.361.0001.2001.3.3.90.30',
  justificativa: 'Reposição do material das escolas no semestre.',
  solicitanteNome: 'Rita Requisitante',
  valorTotal: '12000.00',
  nivelAtual: 2,
  niveis: 2,
  itens: [
    {
      id: 'i1',
      ordem: 1,
      produtoId: 'p1',
      produtoCodigo: '0001',
      produtoDescricao: 'Papel sulfite A4',
      unidadeSigla: 'RESMA',
      quantidade: '400.0000',
      valorUnitario: '30.0000',
      valorTotal: '12000.00',
      preRequisicaoItemId: null,
      preRequisicao: null,
    },
  ],
  transicoes: ['aprovar', 'reprovar', 'devolver'],
  editavel: false,
  ...over,
});

const aprovacao = {
  niveis: 2,
  nivelAtual: 2,
  ciclo: 1,
  etapas: [
    { nivel: 1, nome: 'Chefia', aprovadoPor: 'Cláudia Chefia', aprovadoEm: '2026-03-03T13:00:00.000Z', substituicao: 'nivel_superior' },
    { nivel: 2, nome: 'Ordenador de despesa', aprovadoPor: null, aprovadoEm: null, substituicao: null },
  ],
  podemDecidir: [
    { nome: 'Otávio Ordenador', via: 'titular' },
    { nome: 'Sônia Substituta', via: 'substituto' },
  ],
  valorAprovado: null,
  valorPesquisado: null,
};

const alerta = {
  grupoId: 'g1',
  grupoCodigo: '01',
  grupoNome: 'Material de expediente',
  categoria: 'compras',
  artigo: 'art. 75, II, da Lei 14.133/2021',
  ano: 2026,
  anoLimite: 2026,
  limite: '65492.11',
  total: '70000.00',
  estaConta: true,
  valorDesta: '12000.00',
  totalComEsta: '70000.00',
  requisicoes: [
    { id: ID, numero: 7, ano: 2026, valor: '12000.00', status: 'em_aprovacao' },
    { id: '00000000-0000-4000-8000-000000000002', numero: 3, ano: 2026, valor: '58000.00', status: 'aprovada' },
  ],
  mais: 0,
  excedido: true,
  planejado: null,
};

const history = () => Response.json({ items: [], truncated: false });
const base = `/api/requisicoes/requisicoes/${ID}`;
const approvalApi = (record: Record<string, unknown>, extra: Record<string, (call: never) => Response | Promise<Response>> = {}) => ({
  [`GET ${base}`]: () => Response.json(record),
  [`GET ${base}/aprovacao`]: () => Response.json(aprovacao),
  [`GET ${base}/dispensa`]: () => Response.json({ items: [alerta] }),
  [`GET ${base}/historico`]: history,
  'GET /api/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem': () => Response.json({ total: 1 }),
  ...extra,
});

describe('@app/requisicoes manifest', () => {
  it("one plugin 'requisicoes' with two sections (tag 39, 'Documentos'), the admin routes on tag 3, lazy pages only", () => {
    expect(requisicoes).toMatchObject({ id: 'requisicoes', packageName: '@app/requisicoes' });
    const [pre, req] = requisicoes.mounts;
    expect(pre).toMatchObject({ basePath: '/pre-requisicao', tag: 39, menu: { label: 'Pré-requisições', group: 'Documentos' } });
    expect(req).toMatchObject({ basePath: '/requisicao', tag: 39, menu: { label: 'Requisições', group: 'Documentos' } });
    expect(req!.menu?.count?.endpoint).toBe('/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem');
    expect(pre!.routes.map((r) => r.path)).toEqual(['/', '/new', '/edit/:id', '/duplicar/:id', '/ver/:id', '/de-memorando']);
    expect(req!.routes.map((r) => [r.path, r.tag])).toEqual([
      ['/', undefined],
      ['/new', undefined],
      ['/edit/:id', undefined],
      ['/duplicar/:id', undefined],
      ['/aprovar/:id', undefined],
      ['/pre-requisicao', undefined],
      ['/pre-requisicao/edit/:id', undefined],
      ['/alcadas', 3],
      ['/alcadas/new', 3],
      ['/alcadas/edit/:id', 3],
      ['/limites-dispensa', 3],
      ['/limites-dispensa/new', 3],
      ['/limites-dispensa/edit/:id', 3],
    ]);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });
});

describe('approval page', () => {
  it('the year plan (PCA) set the grupo aside over the limit: the alert says so though the requisições are under it', async () => {
    const planejado = {
      ...alerta,
      total: '0.00',
      totalComEsta: '12000.00',
      estaConta: false,
      requisicoes: [],
      excedido: false,
      planejado: {
        total: '80000.0100',
        passa: true,
        planos: [{ rotulo: 'Plano de Contratações Anual 1/2025', situacao: 'Aprovado', valor: '80000.0100' }],
      },
    };
    renderPlugin(requisicoes, {
      path: `/requisicao/aprovar/${ID}`,
      session: makeTestSession({ tags: [39] }),
      api: approvalApi(requisicao(), { [`GET ${base}/dispensa`]: () => Response.json({ items: [planejado] }) }),
    });
    const dispensa = await screen.findByTestId('alerta-dispensa', {}, T);
    expect(within(dispensa).getByText('O plano de contratações prevê licitação: 01 – Material de expediente')).toBeTruthy();
    expect(within(dispensa).getByText('R$ 80.000,01')).toBeTruthy();
    expect(dispensa.textContent).toContain(
      'acima do limite: as compras do grupo no ano exigem licitação (Plano de Contratações Anual 1/2025, aprovado: R$ 80.000,01)',
    );
    expect(dispensa.textContent).toContain('dentro do limite de R$ 65.492,11');
  });

  it('shows the requisição, items and total, the steps, the dispensa alert; the menu counts what awaits me', async () => {
    renderPlugin(requisicoes, { path: `/requisicao/aprovar/${ID}`, session: makeTestSession({ tags: [39] }), api: approvalApi(requisicao()) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Aprovação da requisição 7/2026' }, T)).toBeTruthy();
    expect(screen.getAllByText('R$ 12.000,00').length).toBeGreaterThan(0);
    expect(screen.getByText('0001 – Papel sulfite A4')).toBeTruthy();
    expect(screen.getByText('Reposição do material das escolas no semestre.')).toBeTruthy();
    const etapas = await screen.findByRole('list', { name: 'Etapas de aprovação' }, T);
    expect(within(etapas).getByText(/aprovado por Cláudia Chefia em 03\/03\/2026 10:00/)).toBeTruthy();
    expect(within(etapas).getByText(/aguardando aprovação/)).toBeTruthy();
    expect(screen.getByText(/Aguardando o nível 2 de 2/)).toBeTruthy();
    // fracionamento: amount, limit, article, the requisições that make it up (links)
    const dispensa = await screen.findByTestId('alerta-dispensa', {}, T);
    expect(within(dispensa).getByText('Limite de dispensa ultrapassado: 01 – Material de expediente')).toBeTruthy();
    expect(within(dispensa).getByText('R$ 70.000,00')).toBeTruthy();
    expect(within(dispensa).getByText('R$ 65.492,11')).toBeTruthy();
    expect(dispensa.textContent).toContain('art. 75, II, da Lei 14.133/2021');
    expect(within(dispensa).getByRole('link', { name: 'Requisição 3/2026' }).getAttribute('href')).toBe(
      '/requisicao/edit/00000000-0000-4000-8000-000000000002',
    );
    for (const name of ['Aprovar', 'Devolver', 'Reprovar']) expect(screen.getByRole('button', { name })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(await within(nav).findByRole('link', { name: 'Requisições (1 aguardando minha aprovação)' }, T)).toBeTruthy();
  });

  it('no buttons for a person who may not act now (the requester): only what the server lists', async () => {
    renderPlugin(requisicoes, {
      path: `/requisicao/aprovar/${ID}`,
      session: makeTestSession({ tags: [39] }),
      api: approvalApi(requisicao({ transicoes: [] })),
    });
    expect(await screen.findByText(/Você não pode aprovar esta requisição agora/, {}, T)).toBeTruthy();
    for (const name of ['Aprovar', 'Devolver', 'Reprovar']) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('devolver asks a reason of at least 10 characters before calling the API, then posts it with the version', async () => {
    let posted: unknown = null;
    const { calls } = renderPlugin(requisicoes, {
      path: `/requisicao/aprovar/${ID}`,
      session: makeTestSession({ tags: [39] }),
      api: approvalApi(requisicao(), {
        [`POST ${base}/devolver`]: (call: { body: unknown }) => {
          posted = call.body;
          return Response.json(requisicao({ status: 'devolvida', transicoes: [], nivelAtual: null, version: 4 }));
        },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Devolver' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    const motivo = within(dialog).getByLabelText(/Motivo/);
    fireEvent.change(motivo, { target: { value: 'Curto' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Devolver' }));
    expect(await within(dialog).findByText('Informe o motivo (ao menos 10 caracteres).', {}, T)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(motivo, { target: { value: 'Falta o orçamento da gráfica.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Devolver' }));
    expect(await screen.findByText('Requisição 7/2026 devolvida.', {}, T)).toBeTruthy();
    expect(posted).toEqual({ version: 3, motivo: 'Falta o orçamento da gráfica.' });
  });

  it('aprovar at level 1 of 2: the toast says it goes on to the next level', async () => {
    renderPlugin(requisicoes, {
      path: `/requisicao/aprovar/${ID}`,
      session: makeTestSession({ tags: [39] }),
      api: approvalApi(requisicao({ nivelAtual: 1 }), {
        [`POST ${base}/aprovar`]: () => Response.json(requisicao({ nivelAtual: 2, transicoes: [], version: 4 })),
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Aprovar' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    expect(within(dialog).queryByLabelText(/Motivo/)).toBeNull();
    fireEvent.click(await within(dialog).findByLabelText(/Vi o alerta de limite de dispensa/, {}, T));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByText('Aprovação registrada. Requisição 7/2026 segue para o nível 2.', {}, T)).toBeTruthy();
  });

  it('approving with a dispensa alert: the dialog shows it and asks the acknowledgement (labelled checkbox) before calling the API, then sends ciente', async () => {
    let posted: Record<string, unknown> | null = null;
    const { calls } = renderPlugin(requisicoes, {
      path: `/requisicao/aprovar/${ID}`,
      session: makeTestSession({ tags: [39] }),
      api: approvalApi(requisicao(), {
        [`POST ${base}/aprovar`]: (call: { body: unknown }) => {
          posted = call.body as Record<string, unknown>;
          return Response.json(requisicao({ status: 'aprovada', nivelAtual: null, transicoes: [], version: 4 }));
        },
      }),
    });
    // who can act now, with the substitution
    expect(await screen.findByText(/Otávio Ordenador; Sônia Substituta \(por substituição: substituto indicado na alçada\)/, {}, T)).toBeTruthy();
    expect(screen.getByText(/aprovado por Cláudia Chefia .* \(por substituição: aprovador do nível superior\)/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Aprovar' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    expect(await within(dialog).findByText('Limite de dispensa ultrapassado: 01 – Material de expediente', {}, T)).toBeTruthy();
    const ciente = within(dialog).getByRole('checkbox', { name: /Vi o alerta de limite de dispensa/ });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aprovar' }));
    expect(await within(dialog).findByText('Marque que você viu o alerta de limite de dispensa antes de aprovar.', {}, T)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(ciente);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByText('Requisição 7/2026 aprovada.', {}, T)).toBeTruthy();
    expect(posted).toEqual({ version: 3, ciente: true });
  });
});

describe('lists and forms', () => {
  it("the list sends the 'Aguardando minha aprovação' filter from the URL and offers 'Aprovar' on the rows I may approve", async () => {
    const { calls } = renderPlugin(requisicoes, {
      path: '/requisicao?aguardandoMinha=1',
      session: makeTestSession({ tags: [39] }),
      api: {
        'GET /api/requisicoes/requisicoes': () => Response.json(pageOf([requisicao(), requisicao({ id: 'x2', numero: 8, transicoes: [] })])),
        'GET /api/requisicoes/centros-custo': () => Response.json(pageOf([])),
        'GET /api/requisicoes/tipos-solicitacao': () => Response.json(pageOf([])),
        'GET /api/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem': () => Response.json({ total: 1 }),
      },
    });
    expect(await screen.findByRole('link', { name: 'Aprovar requisição 7/2026' }, T)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Aprovar requisição 8/2026' })).toBeNull();
    const list = calls.find((c) => c.path === '/api/requisicoes/requisicoes');
    expect(list?.search.get('aguardandoMinha')).toBe('1');
    expect(list?.search.get('sort')).toBe('-numero');
    expect(screen.getAllByText('Em aprovação').length).toBeGreaterThan(0);
  });

  it('a returned requisição: the kit asks a reason of 10 characters for Cancelar (reasonMin) before calling the API', async () => {
    const { calls } = renderPlugin(requisicoes, {
      path: `/requisicao/edit/${ID}`,
      session: makeTestSession({ tags: [39], centrosCusto: [CENTRO] }),
      api: {
        ...approvalApi(requisicao({ status: 'devolvida', editavel: true, transicoes: ['enviar', 'cancelar'], dispensa: [] })),
        'GET /api/requisicoes/centros-custo': () => Response.json(pageOf([{ id: CENTRO, codigo: '02', nome: 'Secretaria de Educação' }])),
        'GET /api/requisicoes/tipos-solicitacao': () => Response.json(pageOf([{ id: TIPO, nome: 'Material de consumo' }])),
      },
    });
    expect(await screen.findByRole('button', { name: 'Enviar para aprovação' }, T)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    fireEvent.change(within(dialog).getByLabelText(/Motivo/), { target: { value: 'Desisti' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(await within(dialog).findByText('Informe o motivo (ao menos 10 caracteres).', {}, T)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // the dispensa alert is on the form too
    expect(await screen.findByTestId('alerta-dispensa', {}, T)).toBeTruthy();
  });

  it('the send dialog (the kit’s) shows the dispensa alert where the decision is taken', async () => {
    renderPlugin(requisicoes, {
      path: `/requisicao/edit/${ID}`,
      session: makeTestSession({ tags: [39], centrosCusto: [CENTRO] }),
      api: {
        ...approvalApi(requisicao({ status: 'devolvida', editavel: true, transicoes: ['enviar', 'cancelar'] })),
        'GET /api/requisicoes/centros-custo': () => Response.json(pageOf([{ id: CENTRO, codigo: '02', nome: 'Secretaria de Educação' }])),
        'GET /api/requisicoes/tipos-solicitacao': () => Response.json(pageOf([{ id: TIPO, nome: 'Material de consumo' }])),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Enviar para aprovação' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    expect(await within(dialog).findByTestId('alerta-dispensa-dialogo', {}, T)).toBeTruthy();
    expect(within(dialog).getByText(/as requisições em aprovação e aprovadas deste grupo/)).toBeTruthy();
    // sending asks no acknowledgement (only approving does)
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
  });

  it('a converted line shows its pré-requisição and keeps preRequisicaoItemId when the requisição is saved', async () => {
    let put: Record<string, unknown> | null = null;
    const linha = { ...requisicao().itens[0], produtoId: P1, preRequisicaoItemId: IT1, preRequisicao: { id: PRE_ID, numero: 4, ano: 2026 } };
    const rascunho = requisicao({ status: 'rascunho', editavel: true, transicoes: ['enviar', 'cancelar'], itens: [linha] });
    renderPlugin(requisicoes, {
      path: `/requisicao/edit/${ID}`,
      session: makeTestSession({ tags: [39], centrosCusto: [CENTRO] }),
      api: {
        ...approvalApi(rascunho),
        [`PUT ${base}`]: (call: { body: unknown }) => {
          put = call.body as Record<string, unknown>;
          return Response.json({ ...rascunho, version: 4 });
        },
        'GET /api/requisicoes/centros-custo': () => Response.json(pageOf([{ id: CENTRO, codigo: '02', nome: 'Secretaria de Educação' }])),
        'GET /api/requisicoes/tipos-solicitacao': () => Response.json(pageOf([{ id: TIPO, nome: 'Material de consumo' }])),
      },
    });
    expect(await screen.findByText('Pré-requisição 4/2026', {}, T)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Dotação orçamentária'), { target: { value: '3.3.90.30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await screen.findByText(/Requisição 7\/2026 salva/, {}, T);
    expect(put).toMatchObject({ dotacao: '3.3.90.30', itens: [{ produtoId: P1, preRequisicaoItemId: IT1, quantidade: '400' }] });
  });

  it('converts chosen items of a pré-requisição, partially: lines carry preRequisicaoItemId; above the pending is refused', async () => {
    let posted: Record<string, unknown> | null = null;
    const pendente = (id: string, produtoId: string, descricao: string, q: string, atendido: string, pend: string) => ({
      id,
      preRequisicaoId: PRE_ID,
      preRequisicaoNumero: 4,
      preRequisicaoAno: 2026,
      centroCustoId: CENTRO,
      centroCustoNome: 'Secretaria de Educação',
      tipoSolicitacaoId: TIPO,
      produtoId,
      produtoCodigo: produtoId.slice(-2),
      produtoDescricao: descricao,
      unidadeSigla: 'UN',
      quantidade: q,
      atendido,
      pendente: pend,
      valorUnitario: '2.5000',
    });
    const { calls } = renderPlugin(requisicoes, {
      path: `/requisicao/pre-requisicao/edit/${PRE_ID}`,
      session: makeTestSession({ tags: [39] }),
      api: {
        [`GET /api/requisicoes/pre-requisicoes/${PRE_ID}`]: () =>
          Response.json({
            id: PRE_ID,
            numero: 4,
            ano: 2026,
            status: 'parcialmente_atendida',
            centroCustoId: CENTRO,
            tipoSolicitacaoId: TIPO,
            justificativa: 'Material para as escolas do município.',
            itens: [],
          }),
        'GET /api/requisicoes/pre-requisicoes/itens-pendentes': () =>
          Response.json({
            items: [pendente(IT1, P1, 'Lápis preto', '100.0000', '40.0000', '60.0000'), pendente(IT2, P2, 'Borracha', '10.0000', '0.0000', '10.0000')],
          }),
        'POST /api/requisicoes/requisicoes': (call) => {
          posted = call.body as Record<string, unknown>;
          return Response.json(requisicao({ id: 'novo', numero: 9, status: 'rascunho' }), { status: 201 });
        },
        'GET /api/requisicoes/requisicoes/novo': () => Response.json(requisicao({ id: 'novo', numero: 9, status: 'rascunho' })),
        'GET /api/requisicoes/requisicoes/*': () => Response.json({ items: [], truncated: false }),
        'GET /api/requisicoes/centros-custo': () => Response.json(pageOf([])),
        'GET /api/requisicoes/tipos-solicitacao': () => Response.json(pageOf([])),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Converter pré-requisição em requisição 4/2026' }, T)).toBeTruthy();
    const lapis = screen.getByLabelText('Quantidade de Lápis preto na requisição') as HTMLInputElement;
    expect(lapis.value).toBe('60');
    fireEvent.change(lapis, { target: { value: '61' } });
    fireEvent.click(screen.getByLabelText('Incluir Borracha'));
    fireEvent.click(screen.getByRole('button', { name: 'Criar requisição' }));
    expect(await screen.findByText('A quantidade passa do pendente (60).', {}, T)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(lapis, { target: { value: '25,5' } });
    expect(screen.getByText('R$ 63,75')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Criar requisição' }));
    expect(await screen.findByText('Requisição 9/2026 criada a partir da pré-requisição 4/2026.', {}, T)).toBeTruthy();
    expect(posted).toMatchObject({
      centroCustoId: CENTRO,
      tipoSolicitacaoId: TIPO,
      categoria: 'compras',
      itens: [{ produtoId: P1, quantidade: '25.5', valorUnitario: '2.5000', preRequisicaoItemId: IT1 }],
    });
  });

  it('the pré-requisição view shows each item atendido/pendente and links to the requisições that converted it', async () => {
    renderPlugin(requisicoes, {
      path: `/pre-requisicao/ver/${PRE_ID}`,
      session: makeTestSession({ tags: [39] }),
      api: {
        [`GET /api/requisicoes/pre-requisicoes/${PRE_ID}`]: () =>
          Response.json({
            id: PRE_ID,
            numero: 4,
            ano: 2026,
            status: 'parcialmente_atendida',
            centroCustoCodigo: '02',
            centroCustoNome: 'Secretaria de Educação',
            justificativa: 'Material para as escolas do município.',
            valorTotal: '275.00',
            itens: [
              {
                id: 'it1',
                ordem: 1,
                produtoCodigo: 'p1',
                produtoDescricao: 'Lápis preto',
                quantidade: '100.0000',
                atendido: '40.0000',
                pendente: '60.0000',
                requisicoes: [{ id: ID, numero: 7, ano: 2026, status: 'aprovada', quantidade: '40.0000' }],
              },
              {
                id: 'it2',
                ordem: 2,
                produtoCodigo: 'p2',
                produtoDescricao: 'Borracha',
                quantidade: '10.0000',
                atendido: '10.0000',
                pendente: '0.0000',
                requisicoes: [],
              },
            ],
          }),
        [`GET /api/requisicoes/pre-requisicoes/${PRE_ID}/historico`]: history,
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pré-requisição 4/2026' }, T)).toBeTruthy();
    expect(screen.getByText('Parcialmente atendida')).toBeTruthy();
    const lapis = screen.getByText('p1 – Lápis preto').closest('tr') as HTMLElement;
    expect([...lapis.querySelectorAll('th,td')].map((c) => c.textContent)).toEqual([
      '1',
      'p1 – Lápis preto',
      '',
      '100',
      '40',
      '60',
      'Pendente',
      '7/2026 (40, aprovada)',
    ]);
    expect(within(lapis).getByRole('link', { name: '7/2026' }).getAttribute('href')).toBe(`/requisicao/edit/${ID}`);
    const borracha = screen.getByText('p2 – Borracha').closest('tr') as HTMLElement;
    expect(within(borracha).getByText('Atendido')).toBeTruthy();
  });
});

describe('pré-requisição from an accepted memorando', () => {
  const MEMO = '00000000-0000-4000-8000-0000000000b1';
  const NOVA = '00000000-0000-4000-8000-0000000000a2';
  const memorando = {
    id: MEMO,
    numero: 12,
    ano: 2026,
    data: '2026-03-02',
    assunto: 'Material de expediente das escolas',
    solicitanteNome: 'Rita Requisitante',
    origemId: CENTRO,
    origemNome: '02 – Secretaria de Educação',
    destinoNome: '01.01 – Compras e Licitações',
    valorTotal: '262.00',
    itens: 2,
    preRequisicao: null,
  };
  const nova = {
    id: NOVA,
    numero: 5,
    ano: 2026,
    data: '2026-03-05',
    status: 'rascunho',
    version: 1,
    centroCustoId: CENTRO,
    tipoSolicitacaoId: TIPO,
    memorandoId: MEMO,
    justificativa: 'Reposição do material de expediente das escolas no semestre.',
    solicitanteNome: 'Maria Souza',
    valorTotal: '262.00',
    itens: [],
    transicoes: ['enviar', 'cancelar'],
    editavel: true,
  };
  const api = (post: (call: { body: unknown }) => Response, searches: string[]) => ({
    'GET /api/requisicoes/pre-requisicoes': () => Response.json(pageOf([])),
    'GET /api/requisicoes/pre-requisicoes/memorandos-aceitos': (call: { search: URLSearchParams }) => {
      searches.push(call.search.toString());
      return Response.json(pageOf(call.search.get('q') === 'nada' ? [] : [memorando]));
    },
    'POST /api/requisicoes/pre-requisicoes/de-memorando': post,
    [`GET /api/requisicoes/pre-requisicoes/${NOVA}`]: () => Response.json(nova),
    [`GET /api/requisicoes/pre-requisicoes/${NOVA}/historico`]: history,
    'GET /api/requisicoes/centros-custo': () => Response.json(pageOf([{ id: CENTRO, codigo: '02', nome: 'Secretaria de Educação' }])),
    'GET /api/requisicoes/centros-custo/*': () => Response.json({ id: CENTRO, codigo: '02', nome: 'Secretaria de Educação' }),
    'GET /api/requisicoes/tipos-solicitacao': () => Response.json(pageOf([{ id: TIPO, nome: 'Material de consumo' }])),
    'GET /api/requisicoes/tipos-solicitacao/*': () => Response.json({ id: TIPO, nome: 'Material de consumo' }),
  });

  it('from the list: picks the memorando with the keyboard, the centro follows its origin, posts and opens the new pré-requisição', async () => {
    let posted: unknown = null;
    const searches: string[] = [];
    renderPlugin(requisicoes, {
      path: '/pre-requisicao',
      session: makeTestSession({ tags: [39], centrosCusto: [CENTRO] }),
      api: api((call) => {
        posted = call.body;
        return Response.json(nova, { status: 201 });
      }, searches),
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Nova a partir de memorando' }, T));
    expect(await screen.findByRole('heading', { level: 1, name: 'Nova pré-requisição a partir de memorando' }, T)).toBeTruthy();
    // nothing chosen: the fields say so and nothing is posted
    fireEvent.click(screen.getByRole('button', { name: 'Criar pré-requisição' }));
    expect(await screen.findByText('Escolha o memorando.', {}, T)).toBeTruthy();
    expect(screen.getByText('Escolha o tipo de solicitação.')).toBeTruthy();
    expect(posted).toBeNull();

    const combo = screen.getByRole('combobox', { name: 'Memorando aceito' });
    expect(combo.getAttribute('aria-describedby')).toContain('de-memorando-memorandoId-erro');
    fireEvent.change(combo, { target: { value: 'nada' } });
    // shown and announced to screen readers (the live status)
    const vazio = await screen.findAllByText('Nenhum memorando aceito sem pré-requisição encontrado', {}, T);
    expect(vazio.some((el) => el.getAttribute('role') === 'status')).toBe(true);
    fireEvent.change(combo, { target: { value: '12/2026' } });
    const option = await screen.findByRole('option', { name: /12\/2026 – Material de expediente das escolas/ }, T);
    expect(option.textContent).toContain('02 – Secretaria de Educação → 01.01 – Compras e Licitações · Rita Requisitante · 2 itens · R$ 262,00');
    expect(new URLSearchParams(searches.at(-1)).get('q')).toBe('12/2026');
    expect(new URLSearchParams(searches.at(-1)).get('disponiveis')).toBe('true');
    fireEvent.keyDown(combo, { key: 'ArrowDown' });
    fireEvent.keyDown(combo, { key: 'Enter' });
    expect(((await screen.findByTestId('memorando-escolhido', {}, T)) as HTMLElement).textContent).toContain('R$ 262,00');
    expect((screen.getByLabelText(/Centro de custo/) as HTMLSelectElement).value).toBe(CENTRO);
    fireEvent.change(screen.getByLabelText(/Tipo de solicitação/), { target: { value: TIPO } });
    fireEvent.click(screen.getByRole('button', { name: 'Criar pré-requisição' }));
    expect(await screen.findByText('Pré-requisição 5/2026 criada a partir do memorando 12/2026.', {}, T)).toBeTruthy();
    expect(posted).toEqual({ memorandoId: MEMO, centroCustoId: CENTRO, tipoSolicitacaoId: TIPO });
    expect(await screen.findByRole('heading', { level: 1, name: /Editar pré-requisição/ }, T)).toBeTruthy();
  });

  it("a memorando already attended (409) is said in the server's words and the page stays", async () => {
    const searches: string[] = [];
    renderPlugin(requisicoes, {
      path: '/pre-requisicao/de-memorando',
      session: makeTestSession({ tags: [39], centrosCusto: [CENTRO] }),
      api: api(
        () =>
          Response.json(
            { error: { code: 'memorando_atendido', message: 'Este memorando já deu origem à pré-requisição 4/2026: cancele-a para gerar outra.' } },
            { status: 409 },
          ),
        searches,
      ),
    });
    const combo = await screen.findByRole('combobox', { name: 'Memorando aceito' }, T);
    fireEvent.change(combo, { target: { value: '12' } });
    await screen.findByRole('option', { name: /12\/2026/ }, T);
    fireEvent.keyDown(combo, { key: 'ArrowDown' });
    fireEvent.keyDown(combo, { key: 'Enter' });
    await screen.findByTestId('memorando-escolhido', {}, T);
    fireEvent.change(screen.getByLabelText(/Tipo de solicitação/), { target: { value: TIPO } });
    fireEvent.click(screen.getByRole('button', { name: 'Criar pré-requisição' }));
    expect(await screen.findByText('Este memorando já deu origem à pré-requisição 4/2026: cancele-a para gerar outra.', {}, T)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Nova pré-requisição a partir de memorando' })).toBeTruthy();
  });
});
