// What the cotação's routes share: the scope of the header (entidade, centro de custo), the
// reads of invitations and prices in the shape the API answers, and small helpers.
import { parseCanonical } from '@app/documents';
import { fornecedores } from '@app/fornecedores/server';
import { AppError, type DbOrTx, type RequestContext, centroCustoScope } from '@app/server-core';
import { type SQL, and, eq, sql } from '@app/server-core/orm';
import type { AnyPgColumn } from '@app/server-core/pg-core';
import { COTACAO_ABERTA, type Convite, type PrecoListado, fluxoCotacao } from '../shared/index.js';
import { cotacaoEvidencias, cotacaoFornecedores, cotacaoPrecos, cotacaoVencedores, cotacoes } from './tables.js';

export type Row = Record<string, unknown>;
export type CotacaoRow = typeof cotacoes.$inferSelect;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The person belongs to the centro de custo (or sees every centro). */
export const pertence = (ctx: Pick<RequestContext, 'todosCentros' | 'centrosCusto'>, centroId: unknown): boolean =>
  ctx.todosCentros || ctx.centrosCusto.includes(String(centroId));

/** A timestamptz as ISO text in UTC ('2026-05-12T13:00:00.000Z'), the same on PGlite and PostgreSQL. */
export const isoSql = (column: AnyPgColumn | SQL): SQL<string> => sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const isoSqlNull = isoSql as (column: AnyPgColumn | SQL) => SQL<string | null>;

/** '10.5000' → '10.5' (numeric columns read as text). */
export const canonico = (value: unknown): string => {
  const text = String(value ?? '0');
  return parseCanonical(text) ?? text;
};

/** The cotação's condition: entidade and the person's centros de custo. */
export const daCotacao = (ctx: RequestContext, id: string): SQL =>
  and(eq(cotacoes.id, id), eq(cotacoes.entidadeId, ctx.entidadeId), centroCustoScope(ctx, cotacoes.centroCustoId))!;

/** The message of a cotação still open but not em coleta (the suppliers' answers are recorded only then). */
export const foraDaColeta = (status: string): string | undefined =>
  COTACAO_ABERTA.includes(status as CotacaoRow['status'])
    ? 'As respostas dos fornecedores são registradas com a cotação em coleta: inicie a coleta primeiro.'
    : undefined;

/** 409 unless em coleta: the suppliers' answers (by hand or imported) are recorded only then. */
export function exigirColeta(status: CotacaoRow['status']): void {
  const fechada = `Esta cotação está ${fluxoCotacao.stateLabel(status).toLowerCase()} e não pode ser alterada.`;
  if (status !== 'em_coleta') throw new AppError(409, 'locked', foraDaColeta(status) ?? fechada);
}

/** 'Cotação 12/2026'. */
export const descricaoCotacao = (row: { numero: number; ano: number }) => `Cotação ${row.numero}/${row.ano}`;

// ---- invitations

/** The invitations as children of the cotação (their routes and files): path, param and table. */
export const conviteFilho = { path: 'fornecedores', param: 'conviteId', table: cotacaoFornecedores, parentColumn: cotacaoFornecedores.cotacaoId } as const;

/** SQL of a supplier's first e-mail among its contacts (null: none). */
export const emailDoFornecedor = sql<string | null>`(SELECT c->>'email' FROM jsonb_array_elements(fornecedores.contatos) AS c
  WHERE coalesce(c->>'email', '') <> '' LIMIT 1)`;

/** The invitations of a cotação (or one of them), as the API answers them, in the order they were invited. */
export async function lerConvites(db: DbOrTx, cotacaoId: string, conviteId?: string): Promise<Convite[]> {
  const rows = await db
    .select({
      id: cotacaoFornecedores.id,
      fornecedorId: cotacaoFornecedores.fornecedorId,
      fornecedorNome: fornecedores.razaoSocial,
      fornecedorDocumento: fornecedores.documento,
      fornecedorEmail: emailDoFornecedor,
      situacao: cotacaoFornecedores.situacao,
      motivoEscolha: cotacaoFornecedores.motivoEscolha,
      motivoNaoResposta: cotacaoFornecedores.motivoNaoResposta,
      convidadoEm: isoSql(cotacaoFornecedores.convidadoEm),
      dataProposta: isoSqlNull(cotacaoFornecedores.dataProposta),
      validade: cotacaoFornecedores.validade,
      precos: sql<number>`(SELECT count(*)::int FROM cotacao_precos p
        WHERE p.cotacao_id = cotacao_fornecedores.cotacao_id AND p.fornecedor_id = cotacao_fornecedores.fornecedor_id)`,
    })
    .from(cotacaoFornecedores)
    .innerJoin(fornecedores, eq(fornecedores.id, cotacaoFornecedores.fornecedorId))
    .where(and(eq(cotacaoFornecedores.cotacaoId, cotacaoId), conviteId ? eq(cotacaoFornecedores.id, conviteId) : undefined))
    .orderBy(cotacaoFornecedores.convidadoEm, fornecedores.razaoSocial, cotacaoFornecedores.id);
  return rows.map((r) => ({ ...r, precos: Number(r.precos) }));
}

// ---- prices

/** The prices of a cotação (or one of them), as the API answers them: by item, then source, then date. */
export async function lerPrecos(db: DbOrTx, cotacaoId: string, precoId?: string): Promise<PrecoListado[]> {
  const rows = await db
    .select({
      id: cotacaoPrecos.id,
      produtoId: cotacaoPrecos.produtoId,
      fonte: cotacaoPrecos.fonte,
      fonteDescricao: cotacaoPrecos.fonteDescricao,
      fornecedorId: cotacaoPrecos.fornecedorId,
      fornecedorNome: fornecedores.razaoSocial,
      valorUnitario: sql<string>`${cotacaoPrecos.valorUnitario}::text`,
      marca: cotacaoPrecos.marca,
      dataColeta: isoSql(cotacaoPrecos.dataColeta),
      validade: cotacaoPrecos.validade,
      link: cotacaoPrecos.link,
      evidenciaId: cotacaoEvidencias.id,
      evidenciaNome: cotacaoEvidencias.nome,
      evidenciaTipo: cotacaoEvidencias.tipo,
      evidenciaTamanho: cotacaoEvidencias.tamanho,
      evidenciaSha256: cotacaoEvidencias.sha256,
      coletadoPorNome: cotacaoPrecos.coletadoPorNome,
      inclusaoMotivo: cotacaoPrecos.inclusaoMotivo,
      exclusaoMotivo: cotacaoPrecos.exclusaoMotivo,
      version: cotacaoPrecos.version,
    })
    .from(cotacaoPrecos)
    .leftJoin(fornecedores, eq(fornecedores.id, cotacaoPrecos.fornecedorId))
    .leftJoin(cotacaoEvidencias, eq(cotacaoEvidencias.id, cotacaoPrecos.evidenciaId))
    .where(and(eq(cotacaoPrecos.cotacaoId, cotacaoId), precoId ? eq(cotacaoPrecos.id, precoId) : undefined))
    .orderBy(cotacaoPrecos.produtoId, cotacaoPrecos.fonte, cotacaoPrecos.dataColeta, cotacaoPrecos.id);
  return rows.map(({ evidenciaId, evidenciaNome, evidenciaTipo, evidenciaTamanho, evidenciaSha256, ...r }) => ({
    ...r,
    valorUnitario: canonico(r.valorUnitario),
    fornecedorNome: r.fornecedorNome ?? null,
    evidencia: evidenciaId
      ? { id: evidenciaId, nome: evidenciaNome!, tipo: evidenciaTipo!, tamanho: Number(evidenciaTamanho), sha256: String(evidenciaSha256) }
      : null,
  }));
}

/** What the audit records of a price: the answer without its id, version and the names joined in; the evidence by its id. */
export const precoAuditado = (p: PrecoListado): Row => {
  const { id: _id, fornecedorNome: _nome, coletadoPorNome: _por, evidencia, version: _version, ...preco } = p;
  return { ...preco, evidenciaId: evidencia?.id ?? null };
};

/** The justification and its approval as the mapa, PUT …/justificativa and POST …/justificativa/aprovar answer them. */
export const justificativaColunas = {
  justificativa: cotacoes.justificativa,
  justificativaPorNome: cotacoes.justificativaPorNome,
  justificativaEm: isoSqlNull(cotacoes.justificativaEm),
  justificativaAprovadaPorNome: cotacoes.justificativaAprovadaPorNome,
  justificativaAprovadaEm: isoSqlNull(cotacoes.justificativaAprovadaEm),
  justificativaAnuladaEm: isoSqlNull(cotacoes.justificativaAnuladaEm),
  justificativaAnuladaAprovador: cotacoes.justificativaAnuladaAprovador,
  justificativaAnuladaMotivo: cotacoes.justificativaAnuladaMotivo,
};

/** The columns of a chosen winner as the API answers them (the mapa and PUT …/vencedores/:produtoId). */
export const vencedorColunas = {
  produtoId: cotacaoVencedores.produtoId,
  precoId: cotacaoVencedores.precoId,
  motivo: cotacaoVencedores.motivo,
  escolhidoPorNome: cotacaoVencedores.escolhidoPorNome,
  escolhidoEm: isoSql(cotacaoVencedores.escolhidoEm),
};
