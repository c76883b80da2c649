// The form's pickers under the memorandos tag: who writes a memorando (tag 29) need not hold
// Cadastros (24) or Produtos (25) to choose a centro de custo or a product of the catalogue. Read
// only, the caller's entidade, active rows by default, searched through the tables' `busca` column.
import { produtos } from '@app/produtos/server';
import { centrosCusto, grupos, unidades } from '@app/registros/server';
import { type PluginRouter, type RequestContext, centroCustoScope, notFound, pageQuerySchema, searchCondition } from '@app/server-core';
import { type SQL, and, asc, eq, sql } from '@app/server-core/orm';
import type { AnyPgColumn, PgTable } from '@app/server-core/pg-core';
import { z } from 'zod';

type LookupTable = PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn; ativo: AnyPgColumn; busca: AnyPgColumn };

const query = pageQuerySchema.extend({
  ativo: z.enum(['true', 'false', 'todos']).optional(),
  /** Only the centros the person may write from (all of them for a perfil that sees every centro). */
  origem: z.enum(['true', 'false']).optional(),
});

function lookup(
  router: PluginRouter,
  tag: number,
  path: string,
  summary: string,
  table: LookupTable,
  fields: Record<string, AnyPgColumn>,
  order: AnyPgColumn,
  options: { joins?: { table: PgTable; on: SQL }[]; where?: (ctx: RequestContext, q: z.output<typeof query>) => SQL | undefined } = {},
) {
  const rows = (ctx: RequestContext) => {
    let select = ctx.db.select({ id: table.id, ativo: table.ativo, ...fields }).from(table).$dynamic();
    for (const join of options.joins ?? []) select = select.leftJoin(join.table, join.on);
    return select;
  };
  router.route({
    method: 'get',
    path,
    tag,
    summary,
    request: { query },
    handler: async (c, ctx) => {
      const q = c.req.valid('query');
      const where = and(
        eq(table.entidadeId, ctx.entidadeId),
        q.ativo === 'todos' ? undefined : eq(table.ativo, q.ativo !== 'false'),
        searchCondition([{ expr: table.busca, normalized: true }], q.q),
        options.where?.(ctx, q),
      );
      const [counted] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
      const items = await rows(ctx)
        .where(where)
        .orderBy(asc(order), asc(table.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize);
      return c.json({ items, total: Number(counted?.n ?? 0), page: q.page, pageSize: q.pageSize }, 200);
    },
  });
  router.route({
    method: 'get',
    path: `${path}/:id`,
    tag,
    summary,
    request: { params: z.object({ id: z.uuid({ error: 'Identificador inválido.' }) }) },
    handler: async (c, ctx) => {
      const [row] = await rows(ctx)
        .where(and(eq(table.id, c.req.valid('param').id), eq(table.entidadeId, ctx.entidadeId)))
        .limit(1);
      if (!row) throw notFound();
      return c.json(row, 200);
    },
  });
}

export function lookups(router: PluginRouter, tag: number): void {
  lookup(router, tag, '/centros-custo', 'Centros de custo para origem e destino', centrosCusto, { codigo: centrosCusto.codigo, nome: centrosCusto.nome }, centrosCusto.codigo, {
    where: (ctx, q) => (q.origem === 'true' ? centroCustoScope(ctx, centrosCusto.id) : undefined),
  });
  lookup(
    router,
    tag,
    '/produtos',
    'Produtos e serviços do catálogo para os itens',
    produtos,
    { codigo: produtos.codigo, descricao: produtos.descricao, unidadeSigla: unidades.sigla, grupoNome: grupos.nome },
    produtos.descricao,
    {
      joins: [
        { table: unidades, on: eq(unidades.id, produtos.unidadeId) },
        { table: grupos, on: eq(grupos.id, produtos.grupoId) },
      ],
    },
  );
}
