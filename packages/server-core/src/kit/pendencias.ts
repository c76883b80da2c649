// What the signed-in person must act on: documents contribute pending-work providers to PENDENCIAS
// (to approve, returned to me, to answer); GET /api/pendencias answers their counts, each only for a
// person holding the provider's tag. The dashboard reads that route, and a plugin's menu count calls
// the same provider's `count`: one definition of each pending list.
import { today } from '@app/br';
import { z } from '@hono/zod-openapi';
import { type ExtensionPoint, extensionPoint } from '../platform/contributions.js';
import type { RequestContext } from '../platform/context.js';
import type { Db } from '../platform/db/types.js';
import type { PluginRouter } from '../platform/router.js';

/** One kind of pending work a plugin contributes to {@link PENDENCIAS}. */
export interface PendenciaProvider {
  /** Stable id, by convention '<plugin id>.<what>' ('requisicoes.aguardando-minha-aprovacao'). */
  id: string;
  /** What the person sees, pt-BR ('Requisições aguardando a minha aprovação'). */
  label: string;
  /** Web path of the list filtered to these documents ('/requisicao?aguardandoMinha=1'). */
  href: string;
  /** Permission tag the person must hold; without it the provider is not asked. */
  tag: number;
  /** How many documents wait for the person: one set-based query in the person's scope. */
  count(db: Db, ctx: RequestContext): Promise<number>;
  /**
   * Since when the oldest of them waits (its last change: sent, returned…), in the same scope; the
   * route turns it into days (America/Sao_Paulo). Absent: no age is shown.
   */
  desde?(db: Db, ctx: RequestContext): Promise<Date | null>;
}

/**
 * The extension point: `contributes: [contribute(PENDENCIAS, { id, label, href, tag, count })]`.
 * Declared by server-core (not by a plugin) so that readers (dashboard, menus) and contributors need
 * not depend on each other.
 */
export const PENDENCIAS: ExtensionPoint<PendenciaProvider> = extensionPoint<PendenciaProvider>('core.pendencias');

export const pendenciaSchema = z.object({
  id: z.string(),
  label: z.string(),
  href: z.string(),
  total: z.number().int(),
  /** Days the oldest one has waited (America/Sao_Paulo calendar days; 0 = today), when the provider tells. */
  dias: z.number().int().optional(),
});

/** GET /api/pendencias. */
export const pendenciasResponseSchema = z.object({ items: z.array(pendenciaSchema) });
export type Pendencia = z.infer<typeof pendenciaSchema>;

/** Calendar days in America/Sao_Paulo from `desde` to today (0 when it is today). */
export function diasDesde(desde: Date | string): number {
  return Math.max(0, Math.round((Date.parse(today()) - Date.parse(today(new Date(desde)))) / 86_400_000));
}

/** The person's pending work: every contributed provider whose tag the person holds, in plugin dependency order. */
export async function pendenciasDe(ctx: RequestContext): Promise<Pendencia[]> {
  const items: Pendencia[] = [];
  for (const { value: p } of ctx.contributions(PENDENCIAS)) {
    if (!ctx.hasTag(p.tag)) continue;
    const total = Number(await p.count(ctx.db, ctx));
    const desde = total > 0 && p.desde ? await p.desde(ctx.db, ctx) : null;
    items.push({ id: p.id, label: p.label, href: p.href, total, ...(desde ? { dias: diasDesde(desde) } : {}) });
  }
  return items;
}

export function registerPendenciasRoute(router: PluginRouter): void {
  router.route({
    method: 'get',
    path: '/api/pendencias',
    tag: 0,
    summary: 'O que a pessoa precisa fazer',
    description:
      'As pendências da pessoa (a aprovar, devolvidas a ela, a responder), contribuídas pelos documentos: cada uma só para quem tem a tag do documento, contada no escopo de centros de custo da pessoa.',
    responses: { 200: pendenciasResponseSchema },
    handler: async (c, ctx) => c.json({ items: await pendenciasDe(ctx) }, 200),
  });
}
