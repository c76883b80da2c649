// The audit log queries: filters → SQL, keyset pages (newest first, cursor = last id shown), CSV lines.
import { TIME_ZONE } from '@app/br';
import {
  type Contribution,
  type DbOrTx,
  type HistoryFieldChange,
  type ServerPluginInfo,
  type VocabularioAuditoria,
  auditChanges,
  collectReferencedIds,
  juntarVocabularios,
  resolveHistoryNames,
  rotuloDeValor,
} from '@app/server-core';
import { type SQL, sql } from '@app/server-core/orm';
import { BUSCA_MAX_ROWS, type LogFilters, type LogItem, acaoNome, acoesDoFiltro, pluginsDoFiltro } from '../shared/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%texto%` for ILIKE, with the user's own % and _ taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Filters as the query uses them: the user filter resolved to ids (`usuarioIds`: [] when nobody
 * matches), action and plugin names to codes, the free-text search to the rows and records it found.
 */
export type ResolvedFilters = Omit<LogFilters, 'usuario' | 'acao' | 'plugin' | 'busca'> & {
  usuarioIds?: string[];
  acoes?: string[];
  plugins?: string[];
  busca?: { ids: string[]; registros: string[]; limitada: boolean };
};

/** Most users a text user filter ('silva') may match. */
const MAX_USUARIOS = 500;

/**
 * Resolves `usuario` (an id, or part of a login or name) to user ids first, so the audit query itself
 * is always an index range on (entidade_id, usuario_id, id): joining a text match on usuarios would let
 * the planner pick a sequential scan of audit_log.
 */
export async function resolveFilters(
  db: DbOrTx,
  filters: LogFilters,
  /** The session's entidade (the search looks only at its rows) and the installed plugins (their names). */
  scope: { entidadeId?: string; plugins?: readonly Pick<ServerPluginInfo, 'id' | 'tags'>[] } = {},
): Promise<ResolvedFilters> {
  const { usuario, acao, plugin, busca, ...rest } = filters;
  const out: ResolvedFilters = { ...rest };
  if (acao) out.acoes = acoesDoFiltro(acao);
  if (plugin) out.plugins = pluginsDoFiltro(plugin, scope.plugins ?? []);
  if (busca) {
    if (!scope.entidadeId) throw new Error('resolveFilters: the search needs the entidade.');
    out.busca = await searchRows(db, busca, scope.entidadeId);
  }
  if (!usuario) return out;
  if (UUID.test(usuario)) return { ...out, usuarioIds: [usuario.toLowerCase()] };
  const pattern = likePattern(usuario);
  const { rows } = await db.execute<{ id: string }>(
    sql`SELECT id::text AS id FROM usuarios WHERE login ILIKE ${pattern} OR nome ILIKE ${pattern} ORDER BY id LIMIT ${MAX_USUARIOS}`,
  );
  return { ...out, usuarioIds: rows.map((r) => r.id) };
}

/** Keys of `depois` whose values name a record: searched by `busca`, and shown as its name. */
export const NAME_KEYS = ['codigo', 'descricao', 'nome', 'razaoSocial', 'nomeFantasia', 'titulo', 'assunto', 'sigla', 'login'] as const;

/**
 * The searchable text of an audit row: what names the record in its `depois` (código, descrição,
 * nome…, and número/ano as '12/2026'), without accents, in lower case. Only those fields: a record is
 * found by what the table shows of it, and every row of the records found is listed; the whole JSON
 * would cost ten times more per row and a ten times larger index. Migration 0002 indexes exactly this
 * expression (partial, `depois IS NOT NULL`; GIN, pg_trgm): keep both identical (a test checks it).
 */
export const SEARCH_TEXT = sql.raw(
  `compras_busca(${[...NAME_KEYS.map((k) => `coalesce(a.depois->>'${k}', '')`), `coalesce((a.depois->>'numero') || '/' || (a.depois->>'ano'), '')`].join(" || ' ' || ")})`,
);

/**
 * The search's first step (also used by the EXPLAIN test): the newest rows of the entidade whose
 * searchable text contains `text`. Materialized first: the trigram index finds every match (a
 * bitmap, cost in proportion to the matches), instead of the planner walking the trail newest first
 * and computing the text of every row until it has enough.
 */
export function searchSql(text: string, entidadeId: string, limit = BUSCA_MAX_ROWS): SQL {
  const pattern = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`
    WITH m AS MATERIALIZED (
      SELECT a.id, a.registro
        FROM audit_log a
       WHERE a.entidade_id = ${entidadeId}::uuid
         AND a.depois IS NOT NULL
         AND ${SEARCH_TEXT} LIKE '%' || compras_busca(${pattern}) || '%')
    SELECT m.id::text AS id, m.registro FROM m ORDER BY m.id DESC LIMIT ${limit + 1}`;
}

/** Rows whose searchable text contains the text (newest BUSCA_MAX_ROWS) and the records they belong to. */
async function searchRows(db: DbOrTx, text: string, entidadeId: string): Promise<NonNullable<ResolvedFilters['busca']>> {
  const { rows } = await db.execute<{ id: string; registro: string | null }>(searchSql(text, entidadeId));
  const found = rows.slice(0, BUSCA_MAX_ROWS);
  return {
    ids: found.map((r) => r.id),
    registros: [...new Set(found.flatMap((r) => (r.registro ? [r.registro] : [])))],
    limitada: rows.length > BUSCA_MAX_ROWS,
  };
}

const inList = (values: readonly string[], cast = sql``) =>
  sql.join(
    values.map((v) => sql`${v}${cast}`),
    sql`, `,
  );

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
  if (filters.plugins) {
    const [only] = filters.plugins;
    parts.push(filters.plugins.length === 1 ? sql`a.plugin = ${only}` : sql`a.plugin IN (${inList(filters.plugins)})`);
  }
  if (filters.registro) parts.push(sql`a.registro = ${filters.registro}`);
  if (filters.acoes) {
    const [only] = filters.acoes;
    parts.push(filters.acoes.length === 1 ? sql`a.acao = ${only}` : sql`a.acao IN (${inList(filters.acoes)})`);
  }
  if (filters.busca) {
    const { ids, registros } = filters.busca;
    const matches: SQL[] = [];
    if (ids.length) matches.push(sql`a.id IN (${inList(ids, sql`::bigint`)})`);
    if (registros.length) matches.push(sql`a.registro IN (${inList(registros)})`);
    parts.push(matches.length ? sql`(${sql.join(matches, sql` OR `)})` : sql`false`);
  }
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

/** A row as read (the list adds the names and changes: enrichRows). */
export type LogRow = Omit<LogItem, 'registroNome' | 'motivo' | 'duplicadoDe' | 'mudancas'> & { quando: string };

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
  if (filters.busca && !filters.busca.ids.length) return { items: [], nextCursor: null };
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

// ---- Names and changes of a page

function nameOf(v: Record<string, string>): string | null {
  const main = v.descricao ?? v.nome ?? v.razaoSocial ?? v.nomeFantasia ?? v.titulo ?? v.assunto;
  if (v.numero && v.ano) return `${v.numero}/${v.ano}${main ? ` – ${main}` : ''}`;
  if (v.codigo && main) return `${v.codigo} – ${main}`;
  return main ?? v.sigla ?? v.login ?? v.codigo ?? null;
}

/** Every uuid in a value, at any depth. */
function collectUuids(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (UUID.test(value)) out.add(value.toLowerCase());
  } else if (Array.isArray(value)) {
    for (const v of value) collectUuids(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) collectUuids(v, out);
  }
}

/** Keys of line items that reference other records ('produtoId'): they name and pair the items. */
function itemReferenceKeys(value: unknown): string[] {
  const keys = new Set<string>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const v of Object.values(value)) {
      if (!Array.isArray(v)) continue;
      for (const item of v) {
        if (item && typeof item === 'object' && !Array.isArray(item)) {
          for (const [k, x] of Object.entries(item)) if (/.Id$/.test(k) && k !== 'entidadeId' && typeof x === 'string' && UUID.test(x)) keys.add(k);
        }
      }
    }
  }
  return [...keys];
}

/**
 * Names of the ids a page shows, without knowing which plugin owns them: users, perfis and the
 * entidade itself (its 'Troca de entidade' rows) from their tables, any other record from its own audit trail (the newest código,
 * descrição, nome, número/ano… audited for it in this entidade: deleted records keep their name).
 * Three indexed queries, whatever the page holds.
 */
export async function namesOfIds(db: DbOrTx, entidadeId: string, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!ids.size) return names;
  const list = inList([...ids], sql`::uuid`);
  const { rows: people } = await db.execute<{ id: string; nome: string }>(sql`
    SELECT u.id::text AS id, u.nome FROM usuarios u
     WHERE u.id IN (${list})
       AND EXISTS (SELECT 1 FROM usuario_entidades ue WHERE ue.usuario_id = u.id AND ue.entidade_id = ${entidadeId}::uuid)
    UNION ALL
    SELECT p.id::text, p.nome FROM perfis p WHERE p.id IN (${list}) AND p.entidade_id = ${entidadeId}::uuid
    UNION ALL
    SELECT e.id::text, e.nome FROM entidades e WHERE e.id IN (${list}) AND e.id = ${entidadeId}::uuid`);
  for (const row of people) names.set(row.id, row.nome);
  const rest = [...ids].filter((id) => !names.has(id));
  if (!rest.length) return names;
  const { rows } = await db.execute<{ registro: string; key: string; value: string }>(sql`
    SELECT DISTINCT ON (a.registro, e.key) a.registro, e.key, e.value #>> '{}' AS value
      FROM audit_log a
     CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(a.depois) = 'object' THEN a.depois ELSE '{}'::jsonb END) e
     WHERE a.entidade_id = ${entidadeId}::uuid
       AND a.registro IN (${inList(rest)})
       AND e.key IN (${inList([...NAME_KEYS, 'numero', 'ano'])})
       AND jsonb_typeof(e.value) IN ('string', 'number')
     ORDER BY a.registro, e.key, a.id DESC`);
  const values = new Map<string, Record<string, string>>();
  for (const row of rows) {
    const v = values.get(row.registro) ?? {};
    if (row.value) v[row.key] = row.value;
    values.set(row.registro, v);
  }
  for (const [id, v] of values) {
    const nome = nameOf(v);
    if (nome) names.set(id.toLowerCase(), nome);
  }
  return names;
}

/** The fields of changes (line items' too) labelled from the row's plugin vocabulary. */
function rotular(mudancas: HistoryFieldChange[], vocabulario: VocabularioAuditoria, parent?: string): HistoryFieldChange[] {
  const campos = vocabulario.campos ?? {};
  return mudancas.map((m) => {
    const rotulo = (parent ? campos[`${parent}.${m.campo}`] : undefined) ?? campos[m.campo];
    const itens = m.itens && {
      ...m.itens,
      alterados: m.itens.alterados.map((a) => ({ ...a, mudancas: rotular(a.mudancas, vocabulario, m.campo) })),
    };
    return { ...m, ...(rotulo ? { rotulo } : {}), ...(itens ? { itens } : {}) };
  });
}

/**
 * The page as the list answers it: each row's record named and its changes described with names
 * (server-core's auditChanges), and with the labels of the row's plugin (VOCABULARIO_AUDITORIA):
 * stored codes become their labels ('media_saneada' → 'Média saneada'), fields get theirs.
 */
export async function enrichRows(
  db: DbOrTx,
  entidadeId: string,
  rows: readonly LogRow[],
  vocabularios: readonly Contribution<VocabularioAuditoria>[] = [],
): Promise<(LogItem & { quando: string })[]> {
  // merged once per plugin of the page, not once per row
  const porPlugin = new Map<string, VocabularioAuditoria>();
  const vocabularioDe = (plugin: string) => {
    const visto = porPlugin.get(plugin);
    if (visto) return visto;
    const v = juntarVocabularios(vocabularios.filter((c) => c.plugin === plugin).map((c) => c.value));
    porPlugin.set(plugin, v);
    return v;
  };
  // the ids of fields a plugin names (centroCustoId, produtoId…), from the owner's table, whatever the row's plugin
  const { nomes } = juntarVocabularios(vocabularios.map((c) => c.value));
  const nomeado = await resolveHistoryNames(db, collectReferencedIds(rows, new Set(Object.keys(nomes))), nomes, entidadeId);
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.registro && UUID.test(row.registro)) ids.add(row.registro.toLowerCase());
    collectUuids(row.antes, ids);
    collectUuids(row.depois, ids);
  }
  const names = await namesOfIds(db, entidadeId, ids);
  return rows.map((row) => {
    const vocabulario = vocabularioDe(row.plugin);
    const name = (campo: string, value: string) => {
      if (!UUID.test(value)) return rotuloDeValor(vocabulario, campo, value) ?? value;
      const nome = nomeado(campo, value);
      return nome !== value ? nome : (names.get(value.toLowerCase()) ?? value);
    };
    const referenceFields = [...new Set([...itemReferenceKeys(row.antes), ...itemReferenceKeys(row.depois)])];
    const { mudancas, motivo, duplicadoDe } = auditChanges(row, { name, referenceFields });
    const registroNome = row.registro && UUID.test(row.registro) ? (names.get(row.registro.toLowerCase()) ?? null) : null;
    return { ...row, registroNome, motivo, duplicadoDe, mudancas: rotular(mudancas, vocabulario) };
  });
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
