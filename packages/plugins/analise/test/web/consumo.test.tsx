// @vitest-environment jsdom
// The page as the browser runs it (core's App with this plugin, the API mocked). ECharts draws nothing
// in jsdom: only its drawing module is replaced; the tables, the summary and the drill-down are real.
import { makeTestSession, mockApi, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { Consumo } from '../../src/shared/index';
import plugin from '../../src/web/index';

const chart = { setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn(), dispatchAction: vi.fn() };
const init = vi.fn(() => chart);
vi.mock('../../src/web/pages/echarts', () => ({ desenhar: init }));

const T = { timeout: 8000 };
const EDU = '00000000-0000-4000-8000-0000000000e1';
const SAU = '00000000-0000-4000-8000-0000000000e2';
const R1 = '00000000-0000-4000-8000-0000000000f1';
const v = (quantidade: string, valor: string) => ({ quantidade, valor });
const Z = v('0.00', '0.00');
const consumo: Consumo = {
  de: '2026-01',
  ate: '2026-04',
  por: 'centro',
  meses: ['2026-01', '2026-02', '2026-03', '2026-04'],
  series: [
    {
      id: EDU,
      nome: '02 – Secretaria de Educação',
      meses: [v('15.00', '269.01'), v('1.00', '25.50'), Z, Z],
      total: v('16.00', '294.51'),
      media: v('4.00', '73.6275'),
    },
    { id: SAU, nome: '03 – Secretaria de Saúde', meses: [Z, Z, v('5.00', '127.75'), Z], total: v('5.00', '127.75'), media: v('1.25', '31.9375') },
  ],
  grupos: [
    {
      id: 'g1',
      nome: 'Material de expediente',
      meses: [v('13.00', '269.01'), v('1.00', '25.50'), v('5.00', '127.75'), Z],
      total: v('19.00', '422.26'),
      media: v('4.75', '105.565'),
    },
  ],
  total: {
    id: null,
    nome: 'Total',
    meses: [v('15.00', '269.01'), v('1.00', '25.50'), v('5.00', '127.75'), Z],
    total: v('21.00', '422.26'),
    media: v('5.25', '105.565'),
  },
};
const api = () =>
  mockApi({
    'GET /api/analise/consumo/opcoes': () =>
      Response.json({ centros: [{ id: EDU, nome: '02 – Secretaria de Educação' }], nucleos: [{ id: 'n1', nome: 'Núcleo Social' }], grupos: [], subgrupos: [] }),
    'GET /api/analise/consumo': () => Response.json(consumo),
    'GET /api/analise/consumo/documentos': () =>
      Response.json({
        items: [
          {
            id: R1,
            numero: '1/2026',
            data: '2026-01-02',
            aprovadaEm: '2026-01-10',
            centroCusto: '02 – Secretaria de Educação',
            quantidade: '13.00',
            valor: '259.00',
            href: `/requisicao/edit/${R1}`,
          },
          {
            id: 'r2',
            numero: '2/2026',
            data: '2026-01-02',
            aprovadaEm: '2026-01-31',
            centroCusto: '02 – Secretaria de Educação',
            quantidade: '2.00',
            valor: '10.01',
            href: '/requisicao/edit/r2',
          },
        ],
        total: v('15.00', '269.01'),
        quantidadeDocumentos: 2,
      }),
  });
const abrir = () => renderPlugin(plugin, { session: makeTestSession({ tags: [106] }), path: '/analise-consumo-precos?de=2026-01&ate=2026-04' });

describe('@app/analise manifest', () => {
  it('two lazy pages; ECharts only in the module the charts import()', () => {
    expect(plugin).toMatchObject({ id: 'analise', basePath: '/analise-consumo-precos', tag: 106 });
    expect(plugin.routes.map((r) => r.path)).toEqual(['/', '/precos']);
    expect(readFileSync('src/web/index.ts', 'utf8')).toMatch(/load: \(\) => import\('\.\/pages\/ConsumoPage'\)/);
    expect(readFileSync('src/web/index.ts', 'utf8')).toMatch(/load: \(\) => import\('\.\/pages\/PrecosPage'\)/);
    const comEcharts = readdirSync('src/web', { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && /from 'echarts/.test(readFileSync(`src/web/${f}`, 'utf8')))
      .map((f) => f.replaceAll('\\', '/'));
    expect(comEcharts).toEqual(['pages/echarts.ts']);
    const usos = readdirSync('src/web', { recursive: true, encoding: 'utf8' }).filter(
      (f) => /\.tsx?$/.test(f) && readFileSync(`src/web/${f}`, 'utf8').includes("'./echarts'"),
    );
    expect(usos.map((f) => f.replaceAll('\\', '/'))).toEqual(['pages/Grafico.tsx']);
    expect(readFileSync('src/web/pages/Grafico.tsx', 'utf8')).toMatch(/import\('\.\/echarts'\)/);
    expect(readFileSync('src/web/pages/Grafico.tsx', 'utf8')).not.toMatch(/^import .*echarts/m);
  });
});

describe('consumo page', () => {
  it('draws the charts with a focusable, described container; the table shows the same numbers', async () => {
    const { calls } = api();
    abrir();
    const grafico = await screen.findByRole('img', { name: /Gráfico de linhas: valor por centro de custo, jan\/2026 a abr\/2026/ }, T);
    expect(grafico.getAttribute('tabindex')).toBe('0');
    const resumo = document.getElementById(grafico.getAttribute('aria-describedby')!)!;
    expect(resumo.textContent).toBe(
      'Consumo por centro de custo de jan/2026 a abr/2026: total R$ 422,26, consumo médio mensal R$ 105,57. Maior: 02 – Secretaria de Educação, R$ 294,51. Mês de maior consumo: jan/2026, R$ 269,01.'.replaceAll(
        'R$ ',
        'R$\u00a0',
      ),
    );
    await waitFor(() => expect(init).toHaveBeenCalledTimes(2));
    const option = chart.setOption.mock.calls[0]![0] as { series: { name: string; data: number[]; type: string }[]; xAxis: { data: string[] } };
    expect(option.xAxis.data).toEqual(['jan/2026', 'fev/2026', 'mar/2026', 'abr/2026']);
    expect(option.series[0]).toMatchObject({ type: 'line', name: '02 – Secretaria de Educação', data: [269.01, 25.5, 0, 0] });
    expect(Object.fromEntries(calls.find((c) => c.path === '/api/analise/consumo')!.search)).toEqual({ de: '2026-01', ate: '2026-04', por: 'centro' });

    // keyboard: → shows the first month's values (tooltip and announcement)
    fireEvent.keyDown(grafico, { key: 'ArrowRight' });
    expect(chart.dispatchAction).toHaveBeenCalledWith({ type: 'showTip', seriesIndex: 0, dataIndex: 0 });
    expect(screen.getByText(/^jan\/2026: 02 – Secretaria de Educação R\$\s269,01; 03 – Secretaria de Saúde R\$\s0,00\.$/)).toBeTruthy();
    fireEvent.keyDown(grafico, { key: 'ArrowRight' });
    expect(chart.dispatchAction).toHaveBeenLastCalledWith({ type: 'showTip', seriesIndex: 0, dataIndex: 1 });
    expect(init).toHaveBeenCalledTimes(2); // the chart is kept while the months are walked

    fireEvent.click(screen.getAllByRole('button', { name: 'Ver como tabela' })[0]!);
    const tabela = screen.getByRole('table', { name: 'Valor consumido por centro de custo e mês, jan/2026 a abr/2026' });
    const linhas = within(tabela)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.replace(/\u00a0/g, ' ')));
    expect(linhas).toEqual([
      ['Centro de custo', 'jan/2026', 'fev/2026', 'mar/2026', 'abr/2026', 'Total', 'Média mensal'],
      ['02 – Secretaria de Educação', 'R$ 269,01', 'R$ 25,50', 'R$ 0,00', 'R$ 0,00', 'R$ 294,51', 'R$ 73,63'],
      ['03 – Secretaria de Saúde', 'R$ 0,00', 'R$ 0,00', 'R$ 127,75', 'R$ 0,00', 'R$ 127,75', 'R$ 31,94'],
      ['Total', 'R$ 269,01', 'R$ 25,50', 'R$ 127,75', 'R$ 0,00', 'R$ 422,26', 'R$ 105,57'],
    ]);
    expect(screen.getByRole('button', { name: 'Ver como gráfico' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('a figure of the table opens the requisições behind it, with links to them', async () => {
    const { calls } = api();
    abrir();
    fireEvent.click((await screen.findAllByRole('button', { name: 'Ver como tabela' }, T))[0]!);
    fireEvent.click(screen.getByRole('button', { name: /^R\$\s269,01: ver as requisições de 02 – Secretaria de Educação em jan\/2026$/ }));
    const painel = await screen.findByRole('region', { name: 'Requisições: 02 – Secretaria de Educação, jan/2026' }, T);
    const link = await within(painel).findByRole('link', { name: 'Requisição 1/2026' }, T);
    expect(link.getAttribute('href')).toBe(`/requisicao/edit/${R1}`);
    expect(within(painel).getAllByText('10/01/2026')).toHaveLength(1);
    expect(within(painel).getByText('2 requisições')).toBeTruthy();
    expect(Object.fromEntries(calls.find((c) => c.path === '/api/analise/consumo/documentos')!.search)).toEqual({
      de: '2026-01',
      ate: '2026-04',
      por: 'centro',
      centroCustoId: EDU,
      mes: '2026-01',
    });
    expect(document.activeElement?.textContent).toBe('Requisições: 02 – Secretaria de Educação, jan/2026');
  });

  it('filters live in the URL: grouping by núcleo asks the API for it', async () => {
    const { calls } = api();
    abrir();
    fireEvent.change(await screen.findByLabelText('Agrupar por', {}, T), { target: { value: 'nucleo' } });
    await waitFor(() => expect(window.location.search).toContain('por=nucleo'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/analise/consumo' && c.search.get('por') === 'nucleo')).toBe(true));
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-05' } });
    expect(await screen.findByText('O mês final deve ser igual ou posterior ao mês inicial.', {}, T)).toBeTruthy();
  });
});
