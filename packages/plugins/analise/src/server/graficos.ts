// The analysis' charts in the reports' PDFs (ReportDefinition.chart): ECharts, the library of the pages,
// modular with its SVG renderer, rendered on the server (ssr) from the rows as the file has them. The
// chart only places the figures; the exact values are the table's, under it.
import { formatDate } from '@app/br';
import { formatMoney } from '@app/documents';
import { LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { mesDoRotulo } from '../shared/meses.js';

const LARGURA = 900;
const ALTURA = 300;
/** As on the page: the largest series drawn, the table has them all. */
const MAX_SERIES = 8;

let registrado = false;

/** An ECharts option drawn as an SVG string, with the page's proportions (the PDF scales it to its width). */
function svg(option: object): { svg: string; height: number } {
  if (!registrado) {
    use([LineChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, SVGRenderer]);
    registrado = true;
  }
  const chart = init(null, null, { renderer: 'svg', ssr: true, width: LARGURA, height: ALTURA, locale: 'PT-br' });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: 'Helvetica' }, ...option });
    return { svg: chart.renderToSVGString(), height: 200 };
  } finally {
    chart.dispose();
  }
}

/** The months' labels in calendar order, whatever the rows' order. */
const ordemDoMes = (rotulo: string) => mesDoRotulo(rotulo) ?? rotulo;

/** Consumption: the value per month of each centro (núcleo, grupo), the largest series first. */
export function graficoConsumo(linhas: readonly Readonly<Record<string, unknown>>[]): { svg: string; height: number } | null {
  const meses = [...new Set(linhas.map((l) => String(l.mes)))].sort((a, b) => ordemDoMes(a).localeCompare(ordemDoMes(b)));
  const series = new Map<string, Map<string, number>>();
  for (const l of linhas) {
    const nome = String(l.nome);
    const s = series.get(nome) ?? new Map<string, number>();
    s.set(String(l.mes), (s.get(String(l.mes)) ?? 0) + Number(l.valor ?? 0));
    series.set(nome, s);
  }
  const total = (s: Map<string, number>) => [...s.values()].reduce((a, b) => a + b, 0);
  const desenhadas = [...series].sort((a, b) => total(b[1]) - total(a[1])).slice(0, MAX_SERIES);
  if (meses.length === 0 || desenhadas.length === 0) return null;
  return svg({
    title: {
      text: series.size > MAX_SERIES ? `Valor por mês (as ${MAX_SERIES} maiores de ${series.size} séries)` : 'Valor por mês',
      textStyle: { fontSize: 13 },
    },
    legend: { type: 'plain', bottom: 0 },
    grid: { left: 90, right: 20, top: 40, bottom: 60 },
    xAxis: { type: 'category', data: meses },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatMoney(v) } },
    series: desenhadas.map(([nome, valores]) => ({ type: 'line', name: nome, data: meses.map((m) => valores.get(m) ?? 0) })),
  });
}

/** Prices: each unit price on its day (atypical ones apart), with the median. */
export function graficoPrecos(linhas: readonly Readonly<Record<string, unknown>>[]): { svg: string; height: number } | null {
  const dias = [...new Set(linhas.map((l) => String(l.data)))].sort();
  if (dias.length === 0) return null;
  const ponto = (l: Readonly<Record<string, unknown>>) => [dias.indexOf(String(l.data)), Number(l.valor)];
  const tipicos = linhas.filter((l) => l.atipico !== 'Sim');
  const atipicos = linhas.filter((l) => l.atipico === 'Sim');
  return svg({
    title: { text: 'Preço unitário (R$) por data', textStyle: { fontSize: 13 } },
    legend: { type: 'plain', bottom: 0 },
    grid: { left: 90, right: 20, top: 40, bottom: 60 },
    xAxis: { type: 'category', data: dias.map((d) => formatDate(d)) },
    yAxis: { type: 'value', scale: true, axisLabel: { formatter: (v: number) => formatMoney(v, 4) } },
    series: [
      {
        type: 'scatter',
        name: 'Preços',
        data: tipicos.map(ponto),
        markLine: { symbol: 'none', data: [{ type: 'median', name: 'Mediana' }], label: { formatter: 'Mediana' } },
      },
      ...(atipicos.length > 0 ? [{ type: 'scatter', name: 'Atípicos', symbol: 'diamond', data: atipicos.map(ponto) }] : []),
    ],
  });
}
