// defineLookup: read-only picker routes over another plugin's table under the calling plugin's tag.
// A document's form chooses centros de custo and products; the person writing it holds the
// document's tag, not the tags of the registries (Cadastros, Produtos), and must not need them.
import { z } from '@hono/zod-openapi';
import { type SQL, and, asc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../platform/context.js';
import { searchCondition, searchTerms } from './crud.js';
import { notFound } from '../platform/errors.js';
import { pageOf, pageQuerySchema } from './pagination.js';
import { type PluginRouter, kitOperationId } from '../platform/router.js';

export interface LookupDefinition {
  /** Path under /api/<plugin>, e.g. '/produtos' → GET /produtos?q=&page=&pageSize=&ativo=, GET /produtos/:id. */
  path: string;
  /** Permission tag of both routes (the calling plugin's). */
  tag: number;
  summary: string;
  /** A table with uuid `id` and `entidadeId` (rows of the caller's entidade only); `ativo` optional. */
  table: PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn; ativo?: AnyPgColumn };
  /** Fields answered besides `id` (and `ativo`): columns of the table or of `joins`. */
  fields: Record<string, AnyPgColumn | SQL>;
  joins?: { table: PgTable; on: SQL }[];
  /** A stored `compras_busca(...)` column searched by `q` (a GIN trigram index makes it fast). */
  busca: AnyPgColumn;
  /** Order of the options (then `id`). */
  order: AnyPgColumn;
  /** Query parameters that narrow the options: `{ origem: (ctx, v) => v === 'true' ? centroCustoScope(ctx, t.id) : undefined }`. */
  filters?: Record<string, (ctx: RequestContext, value: string) => SQL | undefined>;
  /**
   * A condition every option of the list meets (e.g. suppliers not impedidos); `GET <path>/:id` still
   * reads any row of the entidade, so a value chosen before keeps its name.
   */
  where?: (ctx: RequestContext) => SQL | undefined;
}

/**
 * With a search, the options whose `order` text starts with the whole search come first, then those
 * starting with its first word, then those with a word starting with it, then the rest ('papel' lists
 * "Papel sulfite A4" before "Caixa de papelão" and "Envelope pardo (papel kraft)").
 */
function relevance(order: AnyPgColumn, q: string | undefined): SQL[] {
  const terms = searchTerms(q);
  if (terms.length === 0) return [];
  const text = sql`compras_busca(${order}::text)`;
  const whole = terms.join(' ');
  return [
    sql`CASE WHEN ${text} LIKE compras_busca(${whole}) || '%' THEN 0 WHEN ${text} LIKE compras_busca(${terms[0]}) || '%' THEN 1
      WHEN ' ' || regexp_replace(${text}, '[^a-z0-9]+', ' ', 'g') LIKE '% ' || compras_busca(${terms[0]}) || '%' THEN 2 ELSE 3 END`,
  ];
}

/**
 * Declares `GET <path>` (→ { items, total, page, pageSize }: active rows by default, `ativo=todos`
 * for all, `q` searched in `busca`) and `GET <path>/:id` (any row of the entidade, 404 otherwise),
 * both read only and with `tag`: the same query shape the web kit's select and picker sources send.
 * Also opened, read-only, to the controle interno (CONTROLE_INTERNO_TAG), who reads every document and
 * filters their lists by these names.
 */
export function defineLookup(router: PluginRouter, def: LookupDefinition): void {
  const { table } = def;
  const filterKeys = Object.keys(def.filters ?? {});
  const query = pageQuerySchema.extend({
    ativo: z.enum(['true', 'false', 'todos']).optional(),
    ...Object.fromEntries(filterKeys.map((key) => [key, z.string().max(200).optional()])),
  });
  const rows = (ctx: RequestContext) => {
    let select = ctx.db
      .select({ id: table.id, ...(table.ativo ? { ativo: table.ativo } : {}), ...def.fields })
      .from(table)
      .$dynamic();
    for (const join of def.joins ?? []) select = select.leftJoin(join.table, join.on);
    return select;
  };
  const item = z.object({ id: z.string() }).loose();
  router.route({
    method: 'get',
    path: def.path,
    tag: def.tag,
    // the controle interno reads every document, and the lists' filters name their centros and products
    controleInterno: true,
    operationId: kitOperationId(router.pluginId, def.path, 'list'),
    summary: def.summary,
    request: { query },
    responses: { 200: pageOf(item) },
    handler: async (c, ctx) => {
      const q = c.req.valid('query') as z.output<typeof pageQuerySchema> & Record<string, string | undefined>;
      const where = and(
        eq(table.entidadeId, ctx.entidadeId),
        table.ativo && q.ativo !== 'todos' ? eq(table.ativo, q.ativo !== 'false') : undefined,
        searchCondition([{ expr: def.busca, normalized: true }], q.q),
        def.where?.(ctx),
        ...filterKeys.map((key) => (q[key] ? def.filters![key]!(ctx, q[key]!) : undefined)),
      );
      const [counted] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
      const items = await rows(ctx)
        .where(where)
        .orderBy(...relevance(def.order, q.q), asc(def.order), asc(table.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize);
      return c.json({ items, total: Number(counted?.n ?? 0), page: q.page, pageSize: q.pageSize }, 200);
    },
  });
  router.route({
    method: 'get',
    path: `${def.path}/:id`,
    tag: def.tag,
    // the controle interno reads every document, and the lists' filters name their centros and products
    controleInterno: true,
    operationId: kitOperationId(router.pluginId, def.path, 'get'),
    summary: def.summary,
    request: { params: z.object({ id: z.uuid({ error: 'Identificador inválido.' }) }) },
    responses: { 200: item, 404: { description: 'Não encontrado' } },
    handler: async (c, ctx) => {
      const [row] = await rows(ctx)
        .where(and(eq(table.id, c.req.valid('param').id), eq(table.entidadeId, ctx.entidadeId)))
        .limit(1);
      if (!row) throw notFound();
      return c.json(row, 200);
    },
  });
}
