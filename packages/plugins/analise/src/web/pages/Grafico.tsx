// One chart of the analysis with what makes it usable without seeing it: the container is focusable
// (role img, a label, the summary as its description), ← → walk the months (tooltip shown, values
// announced), and 'Ver como tabela' swaps it for a real table with the same numbers.
import { Button, VisuallyHidden, formatMoney } from '@app/ui';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Serie } from '../../shared/index.js';
import { rotuloMes } from '../../shared/meses.js';

export type Chart = { setOption(o: object): void; resize(): void; dispose(): void; dispatchAction(a: object): void };

/**
 * The chart's texts, axes, legend and tooltip in the page's theme, read from the design tokens of the
 * document (<html> carries the theme) (ECharts' defaults are dark grey on white: unreadable in the dark theme). null when the
 * tokens cannot be read (no stylesheet): ECharts keeps its defaults.
 */
function coresDoTema(): object | null {
  const css = getComputedStyle(document.documentElement);
  const token = (nome: string) => css.getPropertyValue(nome).trim();
  const [texto, suave, linha, fundo] = ['--color-text', '--color-text-muted', '--color-border', '--color-surface'].map(token);
  if (!texto || !suave || !linha || !fundo) return null;
  const eixo = { axisLabel: { color: suave }, axisLine: { lineStyle: { color: linha } }, splitLine: { lineStyle: { color: linha } } };
  return {
    textStyle: { color: texto },
    legend: { textStyle: { color: texto }, pageTextStyle: { color: texto }, pageIconColor: texto, pageIconInactiveColor: suave },
    xAxis: eixo,
    yAxis: eixo,
    tooltip: { backgroundColor: fundo, borderColor: linha, textStyle: { color: texto } },
  };
}

/** The chart drawn by ECharts, loaded on first use (import()); on failure the caller shows the table. */
export function useECharts(el: HTMLDivElement | null, option: object | null, onFail: () => void) {
  const chart = useRef<Chart | null>(null);
  useEffect(() => {
    if (!el || !option) return;
    let vivo = true;
    let observer: ResizeObserver | undefined;
    let tema: MutationObserver | undefined;
    import('./echarts')
      .then(({ desenhar }) => {
        if (!vivo) return;
        const c = desenhar(el) as unknown as Chart;
        c.setOption(option);
        const tingir = () => {
          const cores = coresDoTema();
          if (cores) c.setOption(cores);
        };
        tingir();
        chart.current = c;
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => c.resize());
          observer.observe(el);
        }
        // the theme changes live (the person's choice or the system's): the chart follows it
        if (typeof MutationObserver !== 'undefined') {
          tema = new MutationObserver(tingir);
          tema.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
        }
      })
      .catch(() => vivo && onFail());
    return () => {
      vivo = false;
      observer?.disconnect();
      tema?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [el, option, onFail]);
  return chart;
}

export interface QuadroGraficoProps {
  /** The chart's name, read first by a screen reader. */
  titulo: string;
  /** What the arrow keys walk ('os meses', 'os preços'). */
  percorre: string;
  /** ECharts' option; null: nothing to draw (the table is shown). */
  option: object | null;
  /** A key on the chart: the caller moves its cursor and shows the tooltip through `chart`. */
  aoTeclar: (e: KeyboardEvent, chart: Chart | null) => void;
  /** What the live region says about the point under the cursor. */
  anuncio: string;
  /** What a screen reader hears as the chart's description (also shown under it). */
  resumo: string;
  /** The same numbers as a table. */
  tabela: ReactNode;
  /** A note under the chart (not under the table). */
  nota?: ReactNode;
}

/**
 * The frame every chart of the analysis shares: 'Ver como tabela' / 'Ver como gráfico', the focusable
 * container (role img, its label and the summary as its description), the live announcement, and the
 * table instead of the chart when ECharts cannot load or there is nothing to draw.
 */
export function QuadroGrafico({ titulo, percorre, option, aoTeclar, anuncio, resumo, tabela, nota }: QuadroGraficoProps) {
  const [comoTabela, setComoTabela] = useState(false);
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const resumoId = useId();
  const onFail = useMemo(() => () => setComoTabela(true), []);
  const chart = useECharts(comoTabela ? null : el, option, onFail);
  return (
    <div>
      <div className="button-row">
        <Button variant="secondary" size="sm" aria-pressed={comoTabela} onClick={() => setComoTabela(!comoTabela)}>
          {comoTabela ? 'Ver como gráfico' : 'Ver como tabela'}
        </Button>
      </div>
      {comoTabela || !option ? (
        tabela
      ) : (
        <>
          <div
            role="img"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart takes the arrow keys
            tabIndex={0}
            aria-label={`${titulo}. Use as setas para percorrer ${percorre}.`}
            aria-describedby={resumoId}
            onKeyDown={(e) => aoTeclar(e, chart.current)}
            ref={setEl}
            style={{ width: '100%', height: 320 }}
          />
          <VisuallyHidden aria-live="polite">{anuncio}</VisuallyHidden>
          {nota}
        </>
      )}
      <p id={resumoId} className="field__hint">
        {resumo}
      </p>
    </div>
  );
}

export interface GraficoProps {
  titulo: string;
  tipo: 'line' | 'bar';
  meses: string[];
  series: Serie[];
  /** What a screen reader hears as the chart's description (also shown under it). */
  resumo: string;
  /** The same numbers as a table. */
  tabela: ReactNode;
}

const MAX_SERIES = 8;

export function Grafico({ titulo, tipo, meses, series, resumo, tabela }: GraficoProps) {
  const [mes, setMes] = useState(-1);
  const desenhadas = useMemo(() => series.slice(0, MAX_SERIES), [series]);
  const option = useMemo(
    () =>
      desenhadas.length === 0
        ? null
        : {
            // decal patterns for colour-blind readers; the label and description are ours (the container's)
            aria: { enabled: true, label: { enabled: false }, decal: { show: true } },
            tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatMoney(v) },
            legend: { type: 'scroll', bottom: 0 },
            grid: { left: 8, right: 16, top: 16, bottom: 40 },
            xAxis: { type: 'category', data: meses.map(rotuloMes) },
            yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatMoney(v) } },
            series: desenhadas.map((s) => ({
              type: tipo,
              name: s.nome,
              ...(tipo === 'bar' ? { stack: 'total' } : {}),
              // positions on the chart only: the figures shown are the API's exact strings
              data: s.meses.map((m) => Number(m.valor)),
            })),
          },
    [desenhadas, meses, tipo],
  );

  const andar = (e: KeyboardEvent, chart: Chart | null) => {
    const passo = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!passo || meses.length === 0) return;
    e.preventDefault();
    const proximo = Math.min(meses.length - 1, Math.max(0, mes + passo));
    setMes(proximo);
    chart?.dispatchAction({ type: 'showTip', seriesIndex: 0, dataIndex: proximo });
  };
  const anuncio =
    mes >= 0 && meses[mes] ? `${rotuloMes(meses[mes])}: ${desenhadas.map((s) => `${s.nome} ${formatMoney(s.meses[mes]?.valor)}`).join('; ')}.` : '';

  return (
    <QuadroGrafico
      titulo={titulo}
      percorre="os meses"
      option={option}
      aoTeclar={andar}
      anuncio={anuncio}
      resumo={resumo}
      tabela={tabela}
      nota={series.length > MAX_SERIES ? <p className="field__hint">O gráfico mostra as {MAX_SERIES} maiores séries; a tabela mostra todas.</p> : null}
    />
  );
}
