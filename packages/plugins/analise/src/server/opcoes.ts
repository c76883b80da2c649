// The choices of the page's filters, read from @app/registros' and @app/produtos' tables (read-only, by name);
// the report's filters (./relatorios.ts) offer the same lists.
import { centrosCusto as centrosT } from '@app/registros/server';
import { type RequestContext, centroCustoScope } from '@app/server-core';
import { type SQL, sql } from '@app/server-core/orm';
import type { OpcoesConsumo } from '../shared/index.js';

const lista = async <T extends { id: string; nome: string }>(ctx: RequestContext, query: SQL) => (await ctx.db.execute<T>(query)).rows;

/** The person's centros de custo ('02 – Secretaria de Educação'), by code. */
export const centros = (ctx: RequestContext) =>
  lista(
    ctx,
    sql`SELECT id::text, codigo || ' – ' || nome AS nome FROM registros_centros_custo
      WHERE entidade_id = ${ctx.entidadeId} AND ${centroCustoScope(ctx, centrosT.id) ?? sql`true`} ORDER BY codigo`,
  );
export const nucleos = (ctx: RequestContext) =>
  lista(ctx, sql`SELECT id::text, nome FROM registros_nucleos_consumo WHERE entidade_id = ${ctx.entidadeId} ORDER BY nome`);
export const grupos = (ctx: RequestContext) => lista(ctx, sql`SELECT id::text, nome FROM registros_grupos WHERE entidade_id = ${ctx.entidadeId} ORDER BY nome`);
export const subgrupos = (ctx: RequestContext) =>
  lista<{ id: string; nome: string; grupoId: string }>(
    ctx,
    sql`SELECT id::text, nome, grupo_id::text AS "grupoId" FROM registros_subgrupos WHERE entidade_id = ${ctx.entidadeId} ORDER BY nome`,
  );

export async function opcoes(ctx: RequestContext): Promise<OpcoesConsumo> {
  return { centros: await centros(ctx), nucleos: await nucleos(ctx), grupos: await grupos(ctx), subgrupos: await subgrupos(ctx) };
}

/** The products and services whose código or descrição has `q` ('000001 – Papel sulfite A4'): the first `limite`, or all with null. */
export async function produtos(ctx: RequestContext, q: string, limite: number | null = 20) {
  const { rows } = await ctx.db.execute<{ id: string; nome: string }>(sql`SELECT id::text, codigo || ' – ' || descricao AS nome FROM produtos
    WHERE entidade_id = ${ctx.entidadeId} AND (codigo || ' ' || descricao) ILIKE ${`%${q.replace(/[\\%_]/g, '\\$&')}%`}
    ORDER BY descricao${limite === null ? sql`` : sql` LIMIT ${limite}`}`);
  return { items: rows };
}
