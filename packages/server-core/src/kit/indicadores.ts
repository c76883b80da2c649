// Indicators of the home page: the plugins that own the figures contribute them to INDICADORES
// (spend requested against the year's plan, grupos near the dispensa limit, approvals waiting too
// long, cotações short of three prices); GET /api/indicadores answers those whose tag the person
// holds, each measured in the person's scope and leading to the report or list behind it. Declared
// by server-core, like PENDENCIAS and RELATORIOS, so the dashboard and the contributors need not
// depend on each other.
import { z } from '@hono/zod-openapi';
import { type ExtensionPoint, extensionPoint } from '../platform/contributions.js';
import type { RequestContext } from '../platform/context.js';
import type { PluginRouter } from '../platform/router.js';

/** How the figure reads: as expected, worth a look, or needing action. */
export type NivelIndicador = 'normal' | 'atencao' | 'critico';

/** What an indicator measured, ready to show (pt-BR, formatted by the contributor). */
export interface Medida {
  /** The figure ('R$ 12.345,00 de R$ 90.000,00', '3 grupos', '0'). */
  valor: string;
  nivel: NivelIndicador;
  /** One sentence that explains the figure ('2 acima de 80 % do limite, 1 acima do limite.'). */
  detalhe: string;
  /** The report or list with this figure's own filters ('/reports/pca.por-categoria?ano=2026'); default the provider's. */
  href?: string;
}

/** One indicator a plugin contributes to {@link INDICADORES}. */
export interface IndicadorProvider {
  /** '<plugin id>.<what>' ('requisicoes.dispensa'). */
  id: string;
  /** pt-BR ('Grupos perto do limite de dispensa'). */
  label: string;
  /** Web path of the report or list behind the figure ('/reports/requisicoes.dispensa-acumulado'). */
  href: string;
  /** Tag the person must hold; without it the indicator is not measured. */
  tag: number;
  /** The figure in the person's scope (centros de custo, entidade); null when there is nothing to measure. */
  medir(ctx: RequestContext): Promise<Medida | null>;
}

/** `contributes: [contribute(INDICADORES, { id, label, href, tag, medir })]`. */
export const INDICADORES: ExtensionPoint<IndicadorProvider> = extensionPoint<IndicadorProvider>('core.indicadores');

export const indicadorSchema = z.object({
  id: z.string(),
  label: z.string(),
  href: z.string(),
  valor: z.string(),
  nivel: z.enum(['normal', 'atencao', 'critico']),
  detalhe: z.string(),
});

/** GET /api/indicadores. */
export const indicadoresResponseSchema = z.object({ items: z.array(indicadorSchema) });
export type Indicador = z.infer<typeof indicadorSchema>;

/** The person's indicators: every contributed one whose tag the person holds and that has a figure. */
export async function indicadoresDe(ctx: RequestContext): Promise<Indicador[]> {
  const items: Indicador[] = [];
  for (const { value: p } of ctx.contributions(INDICADORES)) {
    if (!ctx.hasTag(p.tag)) continue;
    const medida = await p.medir(ctx);
    if (medida) items.push({ id: p.id, label: p.label, valor: medida.valor, nivel: medida.nivel, detalhe: medida.detalhe, href: medida.href ?? p.href });
  }
  return items;
}

export function registerIndicadoresRoute(router: PluginRouter): void {
  router.route({
    method: 'get',
    path: '/api/indicadores',
    tag: 0,
    summary: 'Indicadores da pessoa',
    description:
      'Os indicadores da página inicial (gasto solicitado × plano do ano, grupos perto do limite de dispensa, aprovações paradas, cotações com menos de três preços), contribuídos pelos módulos: cada um só para quem tem a tag do módulo, medido no escopo de centros de custo da pessoa, com o endereço do relatório que o detalha.',
    responses: { 200: indicadoresResponseSchema },
    handler: async (c, ctx) => c.json({ items: await indicadoresDe(ctx) }, 200),
  });
}
