// Apache ECharts, modular: only what the analysis draws (line, bar and scatter charts, grid, tooltip, legend,
// median line and band, aria decals) with the SVG renderer. Reached only through import() from ./Grafico: the chunk of the
// charts loads after the page and its tables, and on no other page. The pieces are registered inside
// `desenhar`, not at the top of the module: this package is `sideEffects: false`, so a bundler may skip a
// module-level `use(...)` whose module only re-exports (the chart then fails: no SVG renderer).
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

let registrado = false;

/** A chart on `el`, drawn as SVG. */
export function desenhar(el: HTMLElement) {
  if (!registrado) {
    use([
      LineChart,
      BarChart,
      ScatterChart,
      GridComponent,
      TooltipComponent,
      LegendComponent,
      MarkLineComponent,
      MarkAreaComponent,
      AriaComponent,
      SVGRenderer,
    ]);
    registrado = true;
  }
  return init(el, null, { renderer: 'svg' });
}
