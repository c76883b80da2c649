// The audit log queries: filters → SQL, keyset pages (newest first, cursor = last id shown), CSV lines.
import type { DbOrTx } from '@app/server-core';
import { type SQL, sql } from '@app/server-core/orm';
import { type LogFilters, type LogItem, TIME_ZONE, acaoNome } from '../shared/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%texto%` for ILIKE, with the user's own % and _ taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Filters with the user filter resolved to ids (`usuarioIds`: [] when nobody matches). */
export type ResolvedFilters = Omit<LogFilters, 'usuario'> & { usuarioIds?: string[] };

/** Most users a text user filter ('silva') may match. */
const MAX_USUARIOS = 500;

/**
 * Resolves `usuario` (an id, or part of a login or name) to user ids first, so the audit query itself
 * is always an index range on (entidade_id, usuario_id, id): joining a text match on usuarios would let
 * the planner pick a sequential scan of audit_log.
 */
export async function resolveFilters(db: DbOrTx, filters: LogFilters): Promise<ResolvedFilters> {
  const { usuario, ...rest } = filters;
  if (!usuario) return rest;
  if (UUID.test(usuario)) return { ...rest, usuarioIds: [usuario.toLowerCase()] };
  const pattern = likePattern(usuario);
  const { rows } = await db.execute<{ id: string }>(
    sql`SELECT id::text AS id FROM usuarios WHERE login ILIKE ${pattern} OR nome ILIKE ${pattern} ORDER BY id LIMIT ${MAX_USUARIOS}`,
  );
  return { ...rest, usuarioIds: rows.map((r) => r.id) };
}

/** WHERE of every audit query: always the session's entidade (another entidade's rows never match). */
export function whereOf(filters: ResolvedFilters, entidadeId: string): SQL {
  const parts: SQL[] = [sql`a.entidade_id = ${entidadeId}`];
  // de/ate are calendar days in America/Sao_Paulo: [de 00:00, ate + 1 day 00:00) local time
  if (filters.de) parts.push(sql`a.at >= (${filters.de}::date::timestamp AT TIME ZONE ${TIME_ZONE})`);
  if (filters.ate) parts.push(sql`a.at < ((${filters.ate}::date + 1)::timestamp AT TIME ZONE ${TIME_ZONE})`);
  if (filters.usuarioIds) {
    parts.push(
      filters.usuarioIds.length === 0
        ? sql`false`
        : sql`a.usuario_id IN (${sql.join(
            filters.usuarioIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
  }
  if (filters.plugin) parts.push(sql`a.plugin = ${filters.plugin}`);
  if (filters.registro) parts.push(sql`a.registro = ${filters.registro}`);
  if (filters.acao) parts.push(sql`a.acao = ${filters.acao}`);
  return sql.join(parts, sql` AND `);
}

/** Periods shorter than this many days are read through (entidade_id, at), then sorted by id. */
export const SHORT_PERIOD_DAYS = 31;

/**
 * Whether the period (`de`, to `ate` or today) is short. Walking (entidade_id, id DESC) from the
 * newest row would first read every row newer than the period (half a million for a day six months
 * back); reading the few rows of a short period by date and sorting them is what stays fast.
 */
export function isShortPeriod(filters: Pick<LogFilters, 'de' | 'ate'>, now = Date.now()): boolean {
  if (!filters.de) return false;
  const end = filters.ate ? Date.parse(filters.ate) : now;
  return (end - Date.parse(filters.de)) / 86_400_000 < SHORT_PERIOD_DAYS;
}

/** The list query (also used by the EXPLAIN test): newest first, after `cursor`, at most `limit` rows. */
export function listSql(filters: ResolvedFilters, entidadeId: string, cursor: string | undefined, limit: number): SQL {
  const where = whereOf(filters, entidadeId);
  const after = cursor ? sql` AND a.id < ${cursor}::bigint` : sql``;
  return sql`
    SELECT a.id::text AS id,
           to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
           to_char(a.at AT TIME ZONE ${TIME_ZONE}, 'DD/MM/YYYY HH24:MI:SS') AS quando,
           a.usuario_id::text AS usuario_id, u.nome AS usuario_nome, u.login AS usuario_login,
           a.plugin, a.registro, a.acao, a.antes, a.depois, a.ip
      FROM audit_log a
      LEFT JOIN usuarios u ON u.id = a.usuario_id
     WHERE ${where}${after}
     ORDER BY ${isShortPeriod(filters) ? sql`a.id + 0` /* same order, but not an index to walk */ : sql`a.id`} DESC
     LIMIT ${limit}`;
}

interface Row {
  id: string;
  at: string;
  quando: string;
  usuario_id: string | null;
  usuario_nome: string | null;
  usuario_login: string | null;
  plugin: string;
  registro: string | null;
  acao: string;
  antes: unknown;
  depois: unknown;
  ip: string | null;
}

export type LogRow = LogItem & { quando: string };

/** jsonb comes back parsed from both engines; a string (some drivers) is parsed here. */
function json(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** One keyset page: `limit` rows and the cursor of the next page (null at the end). */
export async function fetchPage(
  db: DbOrTx,
  filters: ResolvedFilters,
  entidadeId: string,
  cursor: string | undefined,
  limit: number,
): Promise<{ items: LogRow[]; nextCursor: string | null }> {
  if (filters.usuarioIds?.length === 0) return { items: [], nextCursor: null };
  const { rows } = await db.execute<Row & Record<string, unknown>>(listSql(filters, entidadeId, cursor, limit + 1));
  const page = rows.slice(0, limit);
  const items = page.map((r) => ({
    id: Number(r.id),
    at: r.at,
    quando: r.quando,
    usuarioId: r.usuario_id,
    usuarioNome: r.usuario_nome,
    usuarioLogin: r.usuario_login,
    plugin: r.plugin,
    registro: r.registro,
    acao: r.acao,
    antes: json(r.antes),
    depois: json(r.depois),
    ip: r.ip,
  }));
  return { items, nextCursor: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null };
}

// ---- CSV (pt-BR Excel: UTF-8 with BOM, ';' separator, CRLF: server-core's csvLine)

import { csvLine } from '@app/server-core';

export { csvField, csvLine } from '@app/server-core';

export const CSV_HEADER = ['Quando', 'Usuário', 'Login', 'Plugin', 'Registro', 'Ação', 'Código da ação', 'Antes', 'Depois', 'IP', 'Id'];

export function csvRow(r: LogRow): string {
  return csvLine([
    r.quando,
    r.usuarioNome ?? (r.usuarioId ? r.usuarioId : 'Sistema'),
    r.usuarioLogin,
    r.plugin,
    r.registro,
    acaoNome(r.acao),
    r.acao,
    r.antes == null ? '' : JSON.stringify(r.antes),
    r.depois == null ? '' : JSON.stringify(r.depois),
    r.ip,
    r.id,
  ]);
}
