// The unit price of one product over time: a line through every price (oldest first), the median as a
// line, the band of 75% to 125% of the median shaded and the atypical prices marked (triangles). Usable
// without seeing it, as the consumption charts: a focusable container (role img, a label, the summary as
// its description), ← → Home End walk the prices (tooltip shown, the price announced), and 'Ver como
// tabela' swaps it for a real table with the same prices.
import { formatDate } from '@app/br';
import { formatMoney } from '@app/documents';
import { type KeyboardEvent, type ReactNode, useMemo, useState } from 'react';
import type { PontoPreco, Precos } from '../../shared/index.js';
import { type Chart, QuadroGrafico } from './Grafico';

/** A unit price in pt-BR: cents, or up to four places when the value has them ('R$ 0,0125'). */
export const preco = (valor: string | null | undefined) => formatMoney(valor, 4);

const escapar = (texto: string) => texto.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the tooltip and the announcement say about one price. */
function descreverPonto(p: PontoPreco): string {
  return [
    `${formatDate(p.data)}: ${preco(p.valor)}`,
    p.fonte,
    p.documento,
    ...(p.fornecedor ? [p.fornecedor] : []),
    ...(p.atipico ? ['preço atípico'] : []),
  ].join(', ');
}

export interface GraficoPrecosProps {
  titulo: string;
  precos: Precos;
  /** Its prices as objects, oldest first (`pontosDe`). */
  pontos: readonly PontoPreco[];
  /** What a screen reader hears as the chart's description (also shown under it). */
  resumo: string;
  /** The same prices as a table. */
  tabela: ReactNode;
}

export function GraficoPrecos({ titulo, precos, pontos, resumo, tabela }: GraficoPrecosProps) {
  const [atual, setAtual] = useState(-1);
  const { resumo: r } = precos;
  const option = useMemo(() => {
    if (pontos.length === 0) return null;
    // positions on the chart only: the figures shown are the API's exact strings
    const posicao = (p: PontoPreco) => [p.data, Number(p.valor)];
    const atipicos = pontos.filter((p) => p.atipico);
    return {
      aria: { enabled: true, label: { enabled: false }, decal: { show: true } },
      tooltip: {
        trigger: 'item',
        formatter: (item: { seriesIndex: number; dataIndex: number }) => {
          const p = item.seriesIndex === 0 ? pontos[item.dataIndex] : atipicos[item.dataIndex];
          return p ? escapar(descreverPonto(p)) : '';
        },
      },
      legend: { type: 'scroll', bottom: 0 },
      grid: { left: 8, right: 16, top: 24, bottom: 40, containLabel: true },
      xAxis: { type: 'time', axisLabel: { formatter: '{dd}/{MM}/{yyyy}', hideOverlap: true } },
      yAxis: { type: 'value', scale: true, axisLabel: { formatter: (v: number) => preco(String(v)) } },
      series: [
        {
          type: 'line',
          name: 'Preço unitário',
          data: pontos.map(posicao),
          symbol: 'circle',
          symbolSize: 8,
          markLine:
            r.mediana === null
              ? undefined
              : {
                  silent: true,
                  symbol: 'none',
                  data: [{ yAxis: Number(r.mediana), name: 'Mediana' }],
                  label: { formatter: `Mediana ${preco(r.mediana)}`, position: 'insideEndTop' },
                  lineStyle: { type: 'dashed' },
                },
          markArea: r.faixa
            ? { silent: true, itemStyle: { opacity: 0.12 }, data: [[{ yAxis: Number(r.faixa.inferior) }, { yAxis: Number(r.faixa.superior) }]] }
            : undefined,
        },
        { type: 'scatter', name: 'Preço atípico', data: atipicos.map(posicao), symbol: 'triangle', symbolSize: 16, z: 3 },
      ],
    };
  }, [pontos, r]);
  const andar = (e: KeyboardEvent, chart: Chart | null) => {
    if (pontos.length === 0) return;
    const ultimo = pontos.length - 1;
    const destino = { ArrowRight: Math.min(ultimo, atual + 1), ArrowLeft: Math.max(0, atual - 1), Home: 0, End: ultimo }[e.key];
    if (destino === undefined) return;
    e.preventDefault();
    setAtual(destino);
    chart?.dispatchAction({ type: 'showTip', seriesIndex: 0, dataIndex: destino });
  };
  const ponto = atual >= 0 ? pontos[atual] : undefined;

  return (
    <QuadroGrafico
      titulo={titulo}
      percorre="os preços"
      option={option}
      aoTeclar={andar}
      anuncio={ponto ? `${descreverPonto(ponto)}.` : ''}
      resumo={resumo}
      tabela={tabela}
    />
  );
}
