// @vitest-environment jsdom
// The price page as the browser runs it (core's App with this plugin, the API mocked). ECharts draws
// nothing in jsdom: only its drawing module is replaced; the summary, the tables and the picker are real.
import { makeTestSession, mockApi, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ColetorPrecos, type PontoPreco, type Precos } from '../../src/shared/index';
import plugin from '../../src/web/index';

const chart = { setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn(), dispatchAction: vi.fn() };
const init = vi.fn(() => chart);
vi.mock('../../src/web/pages/echarts', () => ({ desenhar: init }));

const T = { timeout: 8000 };
const PAPEL = '00000000-0000-4000-8000-0000000000a1';
const C1 = '00000000-0000-4000-8000-0000000000c1';
const R1 = '00000000-0000-4000-8000-0000000000d1';
const ponto = (_id: string, data: string, valor: string, extra: Partial<PontoPreco> = {}): PontoPreco => ({
  data,
  valor,
  origem: 'coletado',
  fonte: 'Fornecedor',
  descricao: 'Proposta do fornecedor',
  documento: 'Cotação 1/2026',
  href: `/cotacao/edit/${C1}`,
  fornecedor: 'Papelaria Aliança Ltda',
  atipico: null,
  ...extra,
});
/** The prices as the API sends them: columns and dictionaries. */
function colunas(pontos: PontoPreco[]): Pick<Precos, 'pontos' | 'dicionarios'> {
  const coletor = new ColetorPrecos();
  for (const p of pontos) coletor.add(p);
  return { pontos: coletor.colunas, dicionarios: coletor.dicionarios };
}
const precos: Precos = {
  produto: { id: PAPEL, nome: '000001 – Papel sulfite A4', unidade: 'RESMA' },
  de: '2026-01-01',
  ate: '2026-06-30',
  ...colunas([
    ponto('a', '2026-02-01', '25.00', {
      origem: 'estimado_requisicao',
      fonte: 'Valor estimado da requisição',
      descricao: null,
      documento: 'Requisição 1/2026',
      href: `/requisicao/edit/${R1}`,
      fornecedor: null,
    }),
    ponto('b', '2026-03-05', '26.90', { fonte: 'Painel de preços', descricao: 'Painel de Preços do Governo Federal', fornecedor: null }),
    ponto('c', '2026-03-10', '25.50'),
    ponto('d', '2026-04-15', '50.00', {
      fonte: 'Nota fiscal',
      descricao: 'NF-e 123',
      fornecedor: null,
      documento: 'Cotação 2/2026',
      atipico: 'Acima de 125% da mediana (R$ 32,75).',
    }),
    ponto('e', '2026-05-02', '0.0125', { documento: 'Cotação 2/2026', atipico: 'Abaixo de 75% da mediana (R$ 19,65).' }),
  ]),
  resumo: {
    quantidade: 5,
    mediana: '25.50',
    menor: '0.0125',
    maior: '50.00',
    primeiro: '25.00',
    ultimo: '0.0125',
    variacao: '-99.95',
    faixa: { inferior: '19.125', superior: '31.875' },
    atipicos: 2,
  },
  fornecedores: [
    { nome: 'Papelaria Aliança Ltda', quantidade: 2, menor: '0.0125', mediana: '12.75625', ultimo: '0.0125', ultimaData: '2026-05-02' },
    { nome: 'Distribuidora Paulista de Papéis S.A.', quantidade: 1, menor: '27.50', mediana: '27.50', ultimo: '27.50', ultimaData: '2026-03-11' },
  ],
};
const api = () =>
  mockApi({
    'GET /api/analise/precos': (call) =>
      call.search.get('produtoId') === PAPEL
        ? Response.json(precos)
        : Response.json({ error: { code: 'not_found', message: 'Produto ou serviço não encontrado.' } }, { status: 404 }),
    'GET /api/analise/produtos': () =>
      Response.json(pageOf([{ id: PAPEL, codigo: '000001', descricao: 'Papel sulfite A4', unidadeSigla: 'RESMA', grupoNome: 'Material de expediente' }])),
  });
const abrir = (query = `?produtoId=${PAPEL}&de=2026-01-01&ate=2026-06-30`) =>
  renderPlugin(plugin, { session: makeTestSession({ tags: [106] }), path: `/analise-consumo-precos/precos${query}` });
const texto = (el: Element) => el.textContent?.replace(/\u00a0/g, ' ');

describe('preços page', () => {
  it('draws the price line with the median, the band and the atypical prices; the container is focusable and described', async () => {
    const { calls } = api();
    abrir();
    const grafico = await screen.findByRole(
      'img',
      {
        name: 'Gráfico de linhas: preço unitário de 000001 – Papel sulfite A4, de 01/01/2026 a 30/06/2026, com a mediana e os preços atípicos. Use as setas para percorrer os preços.',
      },
      T,
    );
    expect(grafico.getAttribute('tabindex')).toBe('0');
    expect(document.getElementById(grafico.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Preço unitário de 000001 – Papel sulfite A4 de 01/01/2026 a 30/06/2026: 5 preços, mediana R$ 25,50, de R$ 0,0125 a R$ 50,00. ' +
        'Último preço: R$ 0,0125 em 02/05/2026 (Cotação 2/2026, Fornecedor). Variação do primeiro ao último preço: -99,95%. ' +
        '2 preços atípicos (fora de R$ 19,125 a R$ 31,875, 75% a 125% da mediana).',
    );
    expect(Object.fromEntries(calls.find((c) => c.path === '/api/analise/precos')!.search)).toEqual({
      produtoId: PAPEL,
      de: '2026-01-01',
      ate: '2026-06-30',
    });
    await waitFor(() => expect(init).toHaveBeenCalled());
    const option = chart.setOption.mock.calls.at(-1)![0] as {
      xAxis: { type: string };
      series: { type: string; name: string; data: [string, number][]; markLine?: { data: { yAxis: number }[] }; markArea?: { data: { yAxis: number }[][] } }[];
    };
    expect(option.xAxis.type).toBe('time');
    expect(option.series[0]).toMatchObject({
      type: 'line',
      name: 'Preço unitário',
      data: [
        ['2026-02-01', 25],
        ['2026-03-05', 26.9],
        ['2026-03-10', 25.5],
        ['2026-04-15', 50],
        ['2026-05-02', 0.0125],
      ],
    });
    expect(option.series[0]!.markLine!.data).toEqual([{ yAxis: 25.5, name: 'Mediana' }]);
    expect(option.series[0]!.markArea!.data).toEqual([[{ yAxis: 19.125 }, { yAxis: 31.875 }]]);
    expect(option.series[1]).toMatchObject({
      type: 'scatter',
      name: 'Preço atípico',
      data: [
        ['2026-04-15', 50],
        ['2026-05-02', 0.0125],
      ],
    });

    // keyboard: → the first price (tooltip and announcement), End the last, ← the one before
    fireEvent.keyDown(grafico, { key: 'ArrowRight' });
    expect(chart.dispatchAction).toHaveBeenLastCalledWith({ type: 'showTip', seriesIndex: 0, dataIndex: 0 });
    expect(screen.getByText('01/02/2026: R$ 25,00, Valor estimado da requisição, Requisição 1/2026.')).toBeTruthy();
    fireEvent.keyDown(grafico, { key: 'End' });
    expect(chart.dispatchAction).toHaveBeenLastCalledWith({ type: 'showTip', seriesIndex: 0, dataIndex: 4 });
    fireEvent.keyDown(grafico, { key: 'ArrowLeft' });
    expect(screen.getByText('15/04/2026: R$ 50,00, Nota fiscal, Cotação 2/2026, preço atípico.')).toBeTruthy();
  });

  it('the summary figures, the prices as a table (links to the documents) and the suppliers compared', async () => {
    api();
    abrir();
    const resumo = await screen.findByRole('region', { name: 'Resumo' }, T);
    expect(
      within(resumo)
        .getAllByRole('definition')
        .map((d) => texto(d)),
    ).toEqual([
      '5',
      'R$ 25,50',
      'R$ 0,0125 em 02/05/2026',
      '-99,95% (de R$ 25,00 a R$ 0,0125)',
      'R$ 0,0125 e R$ 50,00',
      '2 (fora de R$ 19,125 a R$ 31,875: 75% a 125% da mediana)',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Ver como tabela' }));
    const tabela = screen.getByRole('table', { name: 'Preços unitários de 000001 – Papel sulfite A4, de 01/01/2026 a 30/06/2026' });
    const linhas = within(tabela)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map(texto));
    expect(linhas).toEqual([
      ['Data', 'Preço unitário', 'Fonte', 'Documento', 'Fornecedor', 'Situação'],
      ['01/02/2026', 'R$ 25,00', 'Valor estimado da requisição', 'Requisição 1/2026', '—', 'Na faixa'],
      ['05/03/2026', 'R$ 26,90', 'Painel de preçosPainel de Preços do Governo Federal', 'Cotação 1/2026', '—', 'Na faixa'],
      ['10/03/2026', 'R$ 25,50', 'Fornecedor', 'Cotação 1/2026', 'Papelaria Aliança Ltda', 'Na faixa'],
      ['15/04/2026', 'R$ 50,00', 'Nota fiscalNF-e 123', 'Cotação 2/2026', '—', 'Atípico: Acima de 125% da mediana (R$ 32,75).'],
      ['02/05/2026', 'R$ 0,0125', 'Fornecedor', 'Cotação 2/2026', 'Papelaria Aliança Ltda', 'Atípico: Abaixo de 75% da mediana (R$ 19,65).'],
    ]);
    expect(within(tabela).getByRole('link', { name: 'Requisição 1/2026' }).getAttribute('href')).toBe(`/requisicao/edit/${R1}`);
    expect(screen.getByRole('button', { name: 'Ver como gráfico' }).getAttribute('aria-pressed')).toBe('true');
    const fornecedores = screen.getByRole('table', { name: 'Preços de cada fornecedor para 000001 – Papel sulfite A4, de 01/01/2026 a 30/06/2026' });
    expect(
      within(fornecedores)
        .getAllByRole('row')
        .map((r) => [...r.querySelectorAll('th, td')].map(texto)),
    ).toEqual([
      ['Fornecedor', 'Preços', 'Menor', 'Mediana', 'Último'],
      ['Papelaria Aliança Ltda', '2', 'R$ 0,0125', 'R$ 12,7563', 'R$ 0,0125em 02/05/2026'],
      ['Distribuidora Paulista de Papéis S.A.', '1', 'R$ 27,50', 'R$ 27,50', 'R$ 27,50em 11/03/2026'],
    ]);
    // no code or id of the database on the page
    expect(document.body.textContent).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('a long history: the chart draws every price, the table shows them 100 at a time', async () => {
    const muitos: Precos = {
      ...precos,
      ...colunas(
        Array.from({ length: 250 }, (_, i) =>
          ponto(String(i), `2026-0${1 + Math.floor(i / 50)}-${String(1 + (i % 28)).padStart(2, '0')}`, `${20 + (i % 10)}.00`, {
            documento: `Cotação ${i + 1}/2026`,
          }),
        ),
      ),
      resumo: { ...precos.resumo, quantidade: 250 },
    };
    mockApi({ 'GET /api/analise/precos': () => Response.json(muitos) });
    abrir();
    await screen.findByRole('img', { name: /^Gráfico de linhas/ }, T);
    await waitFor(() => expect((chart.setOption.mock.calls.at(-1)![0] as { series: { data: unknown[] }[] }).series[0]!.data).toHaveLength(250));
    fireEvent.click(screen.getByRole('button', { name: 'Ver como tabela' }));
    const tabela = screen.getByRole('table', { name: /^Preços unitários de / });
    expect(within(tabela).getAllByRole('row')).toHaveLength(101);
    const paginas = screen.getByRole('navigation', { name: 'Paginação' });
    expect(texto(paginas)).toContain('250 preços');
    expect(texto(paginas)).toContain('Página 1 de 3');
    fireEvent.click(within(paginas).getByRole('button', { name: 'Próxima' }));
    fireEvent.click(within(paginas).getByRole('button', { name: 'Próxima' }));
    expect(texto(paginas)).toContain('Página 3 de 3');
    const linhas = within(tabela).getAllByRole('row');
    expect(linhas).toHaveLength(51);
    expect(within(linhas[1]!).getByRole('link').textContent).toBe('Cotação 201/2026');
  });

  it("the chart's texts, axes and tooltip take the theme's colours, and follow a theme switch", async () => {
    const raiz = document.documentElement;
    const tokens = (texto: string, suave: string, linha: string, fundo: string) => {
      raiz.style.setProperty('--color-text', texto);
      raiz.style.setProperty('--color-text-muted', suave);
      raiz.style.setProperty('--color-border', linha);
      raiz.style.setProperty('--color-surface', fundo);
    };
    tokens('#1b2431', '#4b5565', '#d5dbe3', '#ffffff');
    try {
      api();
      abrir();
      await screen.findByRole('img', { name: /^Gráfico de linhas/ }, T);
      type Cores = { textStyle: { color: string }; yAxis: { axisLabel: { color: string } }; tooltip: { backgroundColor: string } };
      const ultimas = () => chart.setOption.mock.calls.at(-1)![0] as Cores;
      await waitFor(() => expect(ultimas().textStyle?.color).toBe('#1b2431'));
      expect(ultimas().yAxis.axisLabel.color).toBe('#4b5565');
      expect(ultimas().tooltip.backgroundColor).toBe('#ffffff');
      // the dark theme: the app sets data-theme on <html> and its tokens change
      tokens('#e7ecf3', '#a8b3c2', '#2e3947', '#171e27');
      raiz.setAttribute('data-theme', 'dark');
      await waitFor(() => expect(ultimas().textStyle.color).toBe('#e7ecf3'));
      expect(ultimas().tooltip.backgroundColor).toBe('#171e27');
    } finally {
      for (const t of ['--color-text', '--color-text-muted', '--color-border', '--color-surface']) raiz.style.removeProperty(t);
      raiz.removeAttribute('data-theme');
    }
  });

  it('the product is picked in the catalogue picker and kept in the URL; the period is checked before asking', async () => {
    const { calls } = api();
    abrir('');
    expect(await screen.findByText('Escolha um produto ou serviço', {}, T)).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/analise/precos')).toBe(false);
    const combo = screen.getByRole('combobox', { name: 'Produto ou serviço' });
    combo.focus();
    fireEvent.change(combo, { target: { value: 'sulfite' } });
    await screen.findByRole('option', { name: /000001 – Papel sulfite A4/ }, T);
    expect(Object.fromEntries(calls.find((c) => c.path === '/api/analise/produtos')!.search)).toMatchObject({ q: 'sulfite', ativo: 'todos' });
    fireEvent.keyDown(combo, { key: 'ArrowDown' });
    fireEvent.keyDown(combo, { key: 'Enter' });
    await waitFor(() => expect(window.location.search).toBe(`?produtoId=${PAPEL}`));
    await screen.findByRole('region', { name: 'Resumo' }, T);
    expect(Object.fromEntries(calls.filter((c) => c.path === '/api/analise/precos').at(-1)!.search)).toEqual({ produtoId: PAPEL });
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-05-01' } });
    fireEvent.change(screen.getByLabelText('Até'), { target: { value: '2026-04-01' } });
    expect(await screen.findByText('A data final deve ser igual ou posterior à data inicial.', {}, T)).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/analise/precos' && c.search.get('ate') === '2026-04-01')).toBe(false);
  });

  it('a product the server does not know: its message, no chart', async () => {
    api();
    abrir('?produtoId=00000000-0000-4000-8000-000000000000');
    expect(await screen.findByText(/Produto ou serviço não encontrado\./, {}, T)).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Gráfico/ })).toBeNull();
  });

  it('the pages of the section link each other', async () => {
    api();
    abrir();
    const nav = await screen.findByRole('navigation', { name: 'Páginas da análise' }, T);
    expect(within(nav).getByRole('link', { name: 'Preços' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Consumo' }).getAttribute('href')).toBe('/analise-consumo-precos');
  });
});
