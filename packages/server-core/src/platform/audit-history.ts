// The history of one record, read from the audit trail: who did what, when, with the reason, and the
// field-level changes with record names instead of ids. Used by document timelines
// (GET <document>/:id/historico) and, through auditChanges(), by the Logs de Auditoria page.
import { z } from '@hono/zod-openapi';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './db/types.js';

/** One changed field: values as stored, except ids of other records, replaced by their names. */
export interface HistoryFieldChange {
  /** Field key as stored (the web shows its label). */
  campo: string;
  /** The field's pt-BR label when the server knows it (the Logs de Auditoria: VOCABULARIO_AUDITORIA). */
  rotulo?: string;
  /** null when the field had no value (always on 'criar'). For line items: how many there were. */
  antes: unknown;
  /** null when the field has no value now (always on 'excluir'). For line items: how many there are. */
  depois: unknown;
  /** Only for an array of line items (a document's `itens`). */
  itens?: HistoryItemsChange;
}

/** What changed in a list of line items, each item named (its product's name, or 'Item n'). */
export interface HistoryItemsChange {
  /** Items that appear (on 'criar': every item). */
  adicionados: string[];
  /** Items that are gone (on 'excluir': every item). */
  removidos: string[];
  /** Items present on both sides whose fields changed. */
  alterados: { item: string; mudancas: HistoryFieldChange[] }[];
}

export interface HistoryEntry {
  /** Id of the audit row. */
  id: number;
  /** ISO 8601, UTC, milliseconds. */
  at: string;
  /** null: done by the system (seed, job). */
  usuario: { id: string; nome: string } | null;
  /** 'criar', 'alterar', 'excluir', 'ativar', 'desativar', or a transition ('enviar', 'devolver', …). */
  acao: string;
  /** Reason of a transition (its `depois.motivo`); null when none was given. */
  motivo: string | null;
  /** The document this one was duplicated from (`depois.duplicadoDe`, named through `names`), else null. */
  duplicadoDe: string | null;
  /** Changed fields only (in jsonb key order: the web orders them by its field labels). */
  mudancas: HistoryFieldChange[];
}

export interface RecordHistory {
  /** Newest first. */
  items: HistoryEntry[];
  /** More rows exist than `limit`: the oldest ones were left out. */
  truncated: boolean;
}

/** Where the name of a referenced record is read. */
export interface HistoryNameSource {
  /** SQL table name ('produtos', or 'schema.table'); its `id` is a uuid. */
  table: string;
  /**
   * SQL expression (or column name) of the name, evaluated on that table, e.g.
   * "codigo || ' – ' || descricao". Code only: never built from user input.
   */
  label: string;
  /**
   * The table has `entidade_id` and only rows of the history's entidade are named (default true).
   * false for tables shared by every entidade (usuarios).
   */
  scoped?: boolean;
}

/**
 * Field → where its ids are named. A key names that field at the top level of antes/depois, the
 * elements of an array in it, and the same field of each line item (`produtoId` inside `itens`).
 */
export type HistoryNames = Record<string, HistoryNameSource>;

export interface RecordHistoryOptions {
  entidadeId: string;
  /** Plugin id the rows were written under (audit_log.plugin). */
  plugin: string;
  /** Record id (audit_log.registro). */
  registro: string;
  names?: HistoryNames;
  /** Most rows read (default 500, newest kept). */
  limit?: number;
  /** More fields to leave out of the changes (besides HISTORY_SKIPPED_FIELDS). */
  skip?: readonly string[];
}

/** Bookkeeping fields never shown as changes. */
export const HISTORY_SKIPPED_FIELDS: readonly string[] = ['version', 'updatedAt', 'createdAt', 'busca', 'entidadeId', 'id'];

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 5000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Actions whose `depois.motivo` is the reason, not a field of the record. */
const CONTENT_ACTIONS = new Set(['criar', 'alterar']);
// 'reativar': the legacy code of 'ativar' (@app/usuarios, before one verb); old audit rows keep it
const ACTIVATION_ACTIONS = new Set(['ativar', 'desativar', 'reativar']);

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
/** An array of line items (objects); [] counts as one when the other side is one. */
const isItemList = (v: unknown): v is Obj[] => Array.isArray(v) && v.length > 0 && v.every(isObject);

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const ao = a as Obj;
  const bo = b as Obj;
  for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) if (!sameValue(ao[key], bo[key])) return false;
  return true;
}

/** jsonb comes back parsed from both engines; a string (some drivers) is parsed here. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Names a value of a field: returns the record's name, or the value itself when it cannot. */
export type HistoryNamer = (campo: string, value: string) => string;

export interface AuditChangesOptions {
  /** Replaces ids by names (default: none). */
  name?: HistoryNamer;
  /** Fields that reference other records (first one present in an item names the item and pairs items). */
  referenceFields?: readonly string[];
  /** More fields to leave out (besides HISTORY_SKIPPED_FIELDS). */
  skip?: readonly string[];
}

export interface AuditChanges {
  mudancas: HistoryFieldChange[];
  motivo: string | null;
  duplicadoDe: string | null;
}

function named(campo: string, value: unknown, name: HistoryNamer | undefined): unknown {
  if (value === undefined) return null;
  if (!name) return value;
  if (typeof value === 'string') return name(campo, value);
  if (Array.isArray(value) && value.every((v) => !isObject(v))) return value.map((v) => (typeof v === 'string' ? name(campo, v) : v));
  return value;
}

function fieldChanges(antes: Obj, depois: Obj, skip: ReadonlySet<string>, options: AuditChangesOptions): HistoryFieldChange[] {
  const out: HistoryFieldChange[] = [];
  for (const campo of new Set([...Object.keys(depois), ...Object.keys(antes)])) {
    if (skip.has(campo)) continue;
    const a = antes[campo];
    const d = depois[campo];
    if (sameValue(a, d)) continue;
    if ((isItemList(a) || isEmpty(a)) && (isItemList(d) || isEmpty(d)) && (isItemList(a) || isItemList(d))) {
      const itens = itemsChange(isItemList(a) ? a : [], isItemList(d) ? d : [], skip, options);
      out.push({ campo, antes: isEmpty(a) ? null : (a as Obj[]).length, depois: isEmpty(d) ? null : (d as Obj[]).length, itens });
      continue;
    }
    out.push({ campo, antes: isEmpty(a) ? null : named(campo, a, options.name), depois: isEmpty(d) ? null : named(campo, d, options.name) });
  }
  return out;
}

/** Field that pairs and names the items: the first reference field the items carry. */
function itemReference(items: Obj[], options: AuditChangesOptions): string | undefined {
  return options.referenceFields?.find((f) => items.some((item) => typeof item[f] === 'string'));
}

function itemLabel(item: Obj, position: number, ref: string | undefined, options: AuditChangesOptions): string {
  const value = ref ? item[ref] : undefined;
  if (typeof value === 'string' && value) return options.name ? options.name(ref!, value) : value;
  for (const key of ['descricao', 'nome']) if (typeof item[key] === 'string' && item[key]) return item[key] as string;
  return `Item ${position}`;
}

/**
 * Items are paired by their `id` when they all have one, else by the referenced record (the same
 * product twice pairs in order), else by position.
 */
function itemsChange(antes: Obj[], depois: Obj[], skip: ReadonlySet<string>, options: AuditChangesOptions): HistoryItemsChange {
  const ref = itemReference([...antes, ...depois], options);
  const all = [...antes, ...depois];
  const keyOf: (item: Obj, index: number) => string =
    all.length && all.every((i) => typeof i.id === 'string' || typeof i.id === 'number')
      ? (item) => `id:${String(item.id)}`
      : ref
        ? (item) => `ref:${String(item[ref] ?? '')}`
        : (_item, index) => `pos:${index}`;
  const pending = new Map<string, { item: Obj; index: number }[]>();
  antes.forEach((item, index) => {
    const key = keyOf(item, index);
    pending.set(key, [...(pending.get(key) ?? []), { item, index }]);
  });
  const result: HistoryItemsChange = { adicionados: [], removidos: [], alterados: [] };
  depois.forEach((item, index) => {
    const match = pending.get(keyOf(item, index))?.shift();
    const label = itemLabel(item, index + 1, ref, options);
    if (!match) {
      result.adicionados.push(label);
      return;
    }
    const mudancas = fieldChanges(match.item, item, skip, options);
    if (mudancas.length) result.alterados.push({ item: label, mudancas });
  });
  for (const left of pending.values()) for (const { item, index } of left) result.removidos.push(itemLabel(item, index + 1, ref, options));
  return result;
}

/**
 * The changes one audit row records: fields that differ between antes and depois (on 'criar' the
 * fields set, on 'excluir' the fields the record had), bookkeeping fields left out; line items
 * summarized (count, added, removed, changed items); the reason of a transition and the document a
 * duplicate came from taken apart. Pure: ids are named only through `options.name`.
 */
export function auditChanges(row: { acao: string; antes: unknown; depois: unknown }, options: AuditChangesOptions = {}): AuditChanges {
  const antes = parsed(row.antes);
  const depois = parsed(row.depois);
  const skip = new Set([...HISTORY_SKIPPED_FIELDS, ...(options.skip ?? [])]);
  let motivo: string | null = null;
  let duplicadoDe: string | null = null;
  let d = depois;
  if (isObject(depois)) {
    d = { ...depois };
    const record = d as Obj;
    if (!CONTENT_ACTIONS.has(row.acao) && 'motivo' in record) {
      if (typeof record.motivo === 'string' && record.motivo.trim()) motivo = record.motivo.trim();
      delete record.motivo;
    }
    if ('duplicadoDe' in record) {
      const from = record.duplicadoDe;
      if (typeof from === 'string' && from) duplicadoDe = options.name ? options.name('duplicadoDe', from) : from;
      else if (typeof from === 'number') duplicadoDe = String(from);
      delete record.duplicadoDe;
    }
  }
  let mudancas: HistoryFieldChange[];
  if ((antes === null || isObject(antes)) && (d === null || isObject(d))) {
    mudancas = fieldChanges((antes ?? {}) as Obj, (d ?? {}) as Obj, skip, options);
  } else if (sameValue(antes, d)) {
    mudancas = [];
  } else {
    mudancas = [{ campo: '(valor)', antes: isEmpty(antes) ? null : antes, depois: isEmpty(d) ? null : d }];
  }
  // "Ativo: Sim → Não" only repeats what 'Desativação' says
  if (ACTIVATION_ACTIONS.has(row.acao)) mudancas = mudancas.filter((m) => m.campo !== 'ativo');
  return { mudancas, motivo, duplicadoDe };
}

/** Every string value of `fields` in antes/depois: top level, arrays, and the same field of line items. */
export function collectReferencedIds(rows: readonly { antes: unknown; depois: unknown }[], fields: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (campo: string, value: unknown) => {
    if (typeof value !== 'string' || !value) return;
    const set = out.get(campo) ?? new Set<string>();
    out.set(campo, set);
    set.add(value);
  };
  const visit = (obj: unknown) => {
    if (!isObject(obj)) return;
    for (const [campo, value] of Object.entries(obj)) {
      if (fields.has(campo)) {
        if (Array.isArray(value)) for (const v of value) add(campo, v);
        else add(campo, value);
      }
      if (Array.isArray(value)) for (const item of value) if (isObject(item)) visit(item);
    }
  };
  for (const row of rows) {
    visit(parsed(row.antes));
    visit(parsed(row.depois));
  }
  return out;
}

const SAFE_LABEL = /^[^;]*$/;

function tableRef(table: string): SQL {
  const parts = table.split('.');
  if (parts.length > 2 || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) {
    throw new Error(`recordHistory: invalid table name '${table}'.`);
  }
  return sql.join(
    parts.map((p) => sql.identifier(p)),
    sql`.`,
  );
}

/**
 * Names the ids found for each field, one query per referenced table (fields sharing a table and a
 * label share the query). Ids that are not uuids, or not found (deleted, another entidade), stay as they are.
 */
export async function resolveHistoryNames(
  db: DbOrTx,
  ids: ReadonlyMap<string, ReadonlySet<string>>,
  names: HistoryNames,
  entidadeId: string,
): Promise<HistoryNamer> {
  const groups = new Map<string, { source: HistoryNameSource; ids: Set<string>; found: Map<string, string> }>();
  const groupOf = new Map<string, string>();
  for (const [campo, values] of ids) {
    const source = names[campo];
    if (!source) continue;
    if (!SAFE_LABEL.test(source.label) || source.label.includes('--')) throw new Error(`recordHistory: invalid label for '${campo}'.`);
    const key = JSON.stringify([source.table, source.label, source.scoped !== false]);
    const group = groups.get(key) ?? { source, ids: new Set<string>(), found: new Map<string, string>() };
    groups.set(key, group);
    groupOf.set(campo, key);
    for (const v of values) if (UUID.test(v)) group.ids.add(v.toLowerCase());
  }
  for (const group of groups.values()) {
    if (!group.ids.size) continue;
    const list = sql.join(
      [...group.ids].map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const scope = group.source.scoped === false ? sql`` : sql` AND t.entidade_id = ${entidadeId}::uuid`;
    const { rows } = await db.execute<{ id: string; nome: string | null }>(
      sql`SELECT t.id::text AS id, (${sql.raw(group.source.label)})::text AS nome FROM ${tableRef(group.source.table)} t WHERE t.id IN (${list})${scope}`,
    );
    for (const row of rows) if (row.nome) group.found.set(row.id, row.nome);
  }
  return (campo, value) => {
    const key = groupOf.get(campo);
    if (!key) return value;
    return groups.get(key)?.found.get(value.toLowerCase()) ?? value;
  };
}

interface HistoryRow {
  id: string | number;
  at: string;
  usuario_id: string | null;
  usuario_nome: string | null;
  acao: string;
  antes: unknown;
  depois: unknown;
}

/**
 * The history of one record of the entidade, newest first (a timeline reads from what happened last:
 * the current state and its reason on top): who, when, action, reason and changed fields, ids of
 * referenced records replaced by their names (one query per referenced table). Rows of another
 * entidade never appear, whatever the registro. The caller checks the record itself may be read
 * (404 for a foreign or out-of-scope id) before calling.
 */
export async function recordHistory(db: DbOrTx, options: RecordHistoryOptions): Promise<RecordHistory> {
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
  const { rows } = await db.execute<HistoryRow & Record<string, unknown>>(sql`
    SELECT a.id::text AS id,
           to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
           a.usuario_id::text AS usuario_id, u.nome AS usuario_nome,
           a.acao, a.antes, a.depois
      FROM audit_log a
      LEFT JOIN usuarios u ON u.id = a.usuario_id
     WHERE a.entidade_id = ${options.entidadeId}::uuid
       AND a.plugin = ${options.plugin}
       AND a.registro = ${options.registro}
     ORDER BY a.id DESC
     LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const names = options.names ?? {};
  const fields = new Set(Object.keys(names));
  const namer = fields.size ? await resolveHistoryNames(db, collectReferencedIds(page, fields), names, options.entidadeId) : undefined;
  const changeOptions: AuditChangesOptions = {
    referenceFields: [...fields],
    ...(namer ? { name: namer } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
  };
  const items = page.map((row): HistoryEntry => {
    const { mudancas, motivo, duplicadoDe } = auditChanges(row, changeOptions);
    return {
      id: Number(row.id),
      at: row.at,
      usuario: row.usuario_id ? { id: row.usuario_id, nome: row.usuario_nome ?? row.usuario_id } : null,
      acao: row.acao,
      motivo,
      duplicadoDe,
      mudancas,
    };
  });
  return { items, truncated: rows.length > limit };
}

const fieldChangeShape = { campo: z.string(), rotulo: z.string().optional(), antes: z.unknown(), depois: z.unknown() };

/** OpenAPI/zod schema of one changed field (for the answer of a history route). */
export const historyFieldChangeSchema = z.object({
  ...fieldChangeShape,
  itens: z
    .object({
      adicionados: z.array(z.string()),
      removidos: z.array(z.string()),
      alterados: z.array(z.object({ item: z.string(), mudancas: z.array(z.object(fieldChangeShape)) })),
    })
    .optional(),
});

export const historyEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    usuario: z.object({ id: z.string(), nome: z.string() }).nullable(),
    acao: z.string(),
    motivo: z.string().nullable(),
    duplicadoDe: z.string().nullable(),
    mudancas: z.array(historyFieldChangeSchema),
  })
  .openapi('HistoryEntry');

/** Answer of GET <document>/:id/historico. */
export const recordHistorySchema = z.object({ items: z.array(historyEntrySchema), truncated: z.boolean() }).openapi('RecordHistory');
