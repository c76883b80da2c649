import { formatDateTime, maskCpfPartial } from '@app/br';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from './db/types.js';

/** Usual actions; plugins may use others ('publicar', 'cancelar', …). */
export type AuditAction = 'criar' | 'alterar' | 'excluir' | (string & {});

export interface AuditEntry {
  /** Defaults to the id of the plugin that declared the route. */
  plugin?: string;
  /** Id of the record (or another stable reference). */
  registro?: string | number | null;
  acao: AuditAction;
  /** Record before the change (omit on 'criar'). */
  antes?: unknown;
  /** Record after the change (omit on 'excluir'). */
  depois?: unknown;
  /** Overrides used by server-core itself (e.g. sign-in, where the request has no user yet). */
  usuarioId?: string | null;
  entidadeId?: string | null;
}

/** Records an audit row in the current transaction (written when the mutate callback returns). */
export type AuditFn = (entry: AuditEntry) => void;

export interface AuditDefaults {
  plugin: string;
  usuarioId: string | null;
  entidadeId: string | null;
  ip: string | null;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function toJson(value: unknown): Json | null {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Json;
}

function isPlainObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  const ao = a as { [key: string]: Json };
  const bo = b as { [key: string]: Json };
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const key of keys) if (!sameJson(ao[key], bo[key])) return false;
  return true;
}

/**
 * Masks every value whose key contains "cpf" (any case, any depth) with @app/br's `maskCpfPartial`:
 * '***.456.789-**', and '***.***.***-**' for a value that is not a CPF (never partially shown).
 */
export function maskSensitive(value: Json | null): Json | null {
  if (Array.isArray(value)) return value.map((item) => maskSensitive(item));
  if (isPlainObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = /cpf/i.test(key) && (typeof v === 'string' || typeof v === 'number') ? maskCpfPartial(v) : maskSensitive(v);
    }
    return out;
  }
  return value;
}

/**
 * antes/depois as stored: on a change of two objects only the fields that changed (old → new);
 * otherwise the whole value. CPFs masked after comparing, so a CPF change is still recorded.
 */
export function auditValues(antes: unknown, depois: unknown): { antes: Json | null; depois: Json | null } {
  let a = toJson(antes);
  let d = toJson(depois);
  if (isPlainObject(a) && isPlainObject(d)) {
    const changedA: { [key: string]: Json } = {};
    const changedD: { [key: string]: Json } = {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(d)])) {
      if (!sameJson(a[key], d[key])) {
        changedA[key] = a[key] ?? null;
        changedD[key] = d[key] ?? null;
      }
    }
    a = changedA;
    d = changedD;
  }
  return { antes: maskSensitive(a), depois: maskSensitive(d) };
}

/** Audit rows written by one statement (a plan consolidating 10 000 DFDs audits each of them). */
const AUDIT_ROWS_PER_STATEMENT = 5_000;

/**
 * Inserts audit rows in the order given, many per statement: the rows go as one JSON parameter and
 * are inserted in their ordinal order, so the BEFORE INSERT trigger draws their ids and chains each
 * one to the row before it (a row trigger sees the rows the same statement inserted before it).
 * One statement per row cost a plan's 10 000 links ~3 s on PGlite; this ~0.5 s.
 */
export async function writeAudit(tx: Tx | DbOrTx, entries: readonly AuditEntry[], defaults: AuditDefaults): Promise<void> {
  const rows = entries.map((entry) => {
    const { antes, depois } = auditValues(entry.antes, entry.depois);
    return {
      plugin: entry.plugin ?? defaults.plugin,
      registro: entry.registro === undefined || entry.registro === null ? null : String(entry.registro),
      acao: entry.acao,
      antes,
      depois,
      usuario_id: entry.usuarioId === undefined ? defaults.usuarioId : entry.usuarioId,
      entidade_id: entry.entidadeId === undefined ? defaults.entidadeId : entry.entidadeId,
      ip: defaults.ip,
    };
  });
  for (let start = 0; start < rows.length; start += AUDIT_ROWS_PER_STATEMENT) {
    const lote = JSON.stringify(rows.slice(start, start + AUDIT_ROWS_PER_STATEMENT));
    await tx.execute(sql`
      INSERT INTO audit_log (plugin, registro, acao, antes, depois, usuario_id, entidade_id, ip)
      SELECT r.plugin, r.registro, r.acao, r.antes, r.depois, r.usuario_id, r.entidade_id, r.ip
        FROM ROWS FROM (jsonb_to_recordset(${lote}::jsonb)
               AS (plugin text, registro text, acao text, antes jsonb, depois jsonb, usuario_id uuid, entidade_id uuid, ip text))
             WITH ORDINALITY AS r (plugin, registro, acao, antes, depois, usuario_id, entidade_id, ip, ordem)
       ORDER BY r.ordem`);
  }
}

/**
 * Anchor of the chain outside its table: checkpoints (last id, its hash, rows up to it, time) signed
 * with HMAC-SHA256 by a key that is never stored in the database. Whoever changes the database without
 * the key (even a superuser) cannot sign a checkpoint for a rewritten or shortened chain.
 */
export interface AuditAnchor {
  /** HMAC-SHA256 key, at least 32 characters (env AUDIT_CHECKPOINT_KEY or AUDIT_CHECKPOINT_KEY_FILE). */
  key: string;
  /**
   * Also append every checkpoint to this file (JSON lines; env AUDIT_CHECKPOINT_FILE) and check the
   * ones it holds: they survive someone deleting the newest rows AND the newest checkpoints of the database.
   */
  file?: string | undefined;
}

/** A signed checkpoint, as stored in audit_checkpoint and in the checkpoint file. */
export interface AuditCheckpoint {
  /** Id of the newest audit_log row when it was taken. */
  lastId: number;
  /** Hash of that row. */
  lastHash: string;
  /** Rows in audit_log (all with id <= lastId). */
  rowCount: number;
  /** ISO 8601, UTC, milliseconds. */
  at: string;
  /** First 16 hex digits of sha256 of the key: which key signed it (the key itself is never stored). */
  keyId: string;
  /** HMAC-SHA256 (hex) of the four fields above. */
  signature: string;
}

/** What the signed checkpoints vouch for (present in a verification only when a key is configured). */
export interface AuditAnchorReport {
  /** Valid checkpoints checked (database and file, without duplicates). */
  checkpoints: number;
  /** The newest checkpoint. */
  last: { lastId: number; rowCount: number; at: string } | null;
  /** Rows after the newest checkpoint: not covered by any signature yet. */
  unanchored: number;
}

export type AuditBreakReason =
  /** The row's content does not match its hash (edited). */
  | 'hash_mismatch'
  /** The row does not point at the previous one (a row removed or inserted). */
  | 'broken_link'
  /** The chain is consistent, but the row a signed checkpoint names has another hash: rewritten and recomputed. */
  | 'checkpoint_mismatch'
  /** Rows a signed checkpoint counted are gone (e.g. the newest rows deleted). */
  | 'rows_missing'
  /** A checkpoint whose signature does not verify with the key (forged, or signed with another key). */
  | 'checkpoint_invalid';

export type AuditChainResult =
  | { ok: true; checked: number; anchor?: AuditAnchorReport }
  | {
      ok: false;
      checked: number;
      /** The first row found wrong; for checkpoint reasons, the checkpoint's last id. */
      brokenAt: number;
      reason: AuditBreakReason;
      /** checkpoint_mismatch: the rewrite starts somewhere from this id (after the last checkpoint that matched); rows_missing: first missing id. */
      from?: number;
      anchor?: AuditAnchorReport;
    };

const CHECKPOINT_VERSION = 'compras-audit-checkpoint-v1';
const MIN_KEY_LENGTH = 32;

/** Which key signed a checkpoint, without revealing it. */
export function auditKeyId(key: string): string {
  return createHash('sha256').update(`${CHECKPOINT_VERSION}:key-id:${key}`).digest('hex').slice(0, 16);
}

function signCheckpoint(key: string, c: Pick<AuditCheckpoint, 'lastId' | 'lastHash' | 'rowCount' | 'at'>): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([CHECKPOINT_VERSION, String(c.lastId), c.lastHash, String(c.rowCount), c.at]))
    .digest('hex');
}

function validSignature(key: string, c: AuditCheckpoint): boolean {
  if (c.keyId !== auditKeyId(key) || typeof c.signature !== 'string') return false;
  const expected = Buffer.from(signCheckpoint(key, c), 'hex');
  const given = Buffer.from(c.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The anchor configured by the environment: AUDIT_CHECKPOINT_KEY (or AUDIT_CHECKPOINT_KEY_FILE, a file
 * holding it) and optionally AUDIT_CHECKPOINT_FILE. undefined when no key is set (no external anchor).
 */
export function auditAnchorFromEnv(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): AuditAnchor | undefined {
  const inline = env.AUDIT_CHECKPOINT_KEY || undefined;
  const keyFile = env.AUDIT_CHECKPOINT_KEY_FILE || undefined;
  const file = env.AUDIT_CHECKPOINT_FILE ? resolve(cwd, env.AUDIT_CHECKPOINT_FILE) : undefined;
  if (inline && keyFile) throw new Error('Set AUDIT_CHECKPOINT_KEY or AUDIT_CHECKPOINT_KEY_FILE, not both.');
  let key = inline;
  if (keyFile) {
    const path = resolve(cwd, keyFile);
    if (!existsSync(path)) throw new Error(`AUDIT_CHECKPOINT_KEY_FILE: ${path} does not exist.`);
    key = readFileSync(path, 'utf8').trim();
  }
  if (!key) {
    if (file) throw new Error('AUDIT_CHECKPOINT_FILE needs AUDIT_CHECKPOINT_KEY (or AUDIT_CHECKPOINT_KEY_FILE): checkpoints are signed.');
    return undefined;
  }
  if (key.length < MIN_KEY_LENGTH) throw new Error(`The audit checkpoint key must have at least ${MIN_KEY_LENGTH} characters.`);
  return { key, file };
}

const anchors = new WeakMap<object, AuditAnchor | null>();

/** Sets the anchor verifyAuditChain(db) uses for this database by default (createServer does it). */
export function setAuditAnchor(db: DbOrTx, anchor: AuditAnchor | null | undefined): void {
  anchors.set(db, anchor ?? null);
}

type CheckpointRow = { last_id: number | string; last_hash: string; row_count: number | string; at: string; key_id: string; signature: string };

function fromRow(row: CheckpointRow): AuditCheckpoint {
  return {
    lastId: Number(row.last_id),
    lastHash: row.last_hash,
    rowCount: Number(row.row_count),
    at: row.at,
    keyId: row.key_id,
    signature: row.signature,
  };
}

const AT_ISO = sql.raw(`to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

async function checkpointTableExists(db: DbOrTx): Promise<boolean> {
  const { rows } = await db.execute<{ t: string | null }>(sql`SELECT to_regclass('audit_checkpoint')::text AS t`);
  return Boolean(rows[0]?.t);
}

/** Checkpoints kept in the database (oldest first); none before migration 0008. */
export async function listAuditCheckpoints(db: DbOrTx): Promise<AuditCheckpoint[]> {
  if (!(await checkpointTableExists(db))) return [];
  const { rows } = await db.execute<CheckpointRow>(
    sql`SELECT last_id, last_hash, row_count, ${AT_ISO} AS at, key_id, signature FROM audit_checkpoint ORDER BY id`,
  );
  return rows.map(fromRow);
}

/** Checkpoints of the file (a missing file has none); a line that is not a checkpoint is returned as an invalid one. */
async function fileCheckpoints(file: string): Promise<AuditCheckpoint[]> {
  if (!existsSync(file)) return [];
  const out: AuditCheckpoint[] = [];
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (!line.trim()) continue;
    try {
      const c = JSON.parse(line) as AuditCheckpoint;
      out.push({ ...c, lastId: Number(c.lastId), rowCount: Number(c.rowCount) });
    } catch {
      out.push({ lastId: 0, lastHash: '', rowCount: 0, at: '', keyId: '', signature: '' });
    }
  }
  return out;
}

/**
 * Signs and stores a checkpoint of the chain as it is now: in audit_checkpoint and, when configured, in
 * the checkpoint file. Nothing is written when the trail is empty or the newest checkpoint already
 * covers the newest row (unless `force`). Returns the checkpoint written, or null.
 */
export async function writeAuditCheckpoint(db: DbOrTx, anchor: AuditAnchor, options: { now?: Date; force?: boolean } = {}): Promise<AuditCheckpoint | null> {
  // One statement, one snapshot: ids are drawn in commit order (advisory lock), so every row visible
  // here has an id <= the newest one and the count is the count up to it.
  const keyId = auditKeyId(anchor.key);
  const { rows } = await db.execute<{ id: number | string; hash: string; row_count: number | string; covered: boolean }>(sql`
    SELECT a.id, a.hash, (SELECT count(*) FROM audit_log)::bigint AS row_count,
           EXISTS (SELECT 1 FROM audit_checkpoint c WHERE c.last_id = a.id AND c.last_hash = a.hash AND c.key_id = ${keyId}) AS covered
      FROM audit_log a ORDER BY a.id DESC LIMIT 1`);
  const newest = rows[0];
  if (!newest || (newest.covered && !options.force)) return null;
  const base = {
    lastId: Number(newest.id),
    lastHash: newest.hash,
    rowCount: Number(newest.row_count),
    at: (options.now ?? new Date()).toISOString(),
  };
  const checkpoint: AuditCheckpoint = { ...base, keyId, signature: signCheckpoint(anchor.key, base) };
  await db.execute(sql`
    INSERT INTO audit_checkpoint (at, last_id, last_hash, row_count, key_id, signature)
    VALUES (${checkpoint.at}::timestamptz, ${checkpoint.lastId}, ${checkpoint.lastHash}, ${checkpoint.rowCount}, ${checkpoint.keyId}, ${checkpoint.signature})`);
  if (anchor.file) await appendFile(anchor.file, `${JSON.stringify(checkpoint)}\n`, { encoding: 'utf8', mode: 0o600 });
  return checkpoint;
}

/** Checkpoints in the database signed with another key than `anchor`'s (they will fail verification). */
export async function countForeignCheckpoints(db: DbOrTx, anchor: AuditAnchor): Promise<number> {
  if (!(await checkpointTableExists(db))) return 0;
  const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_checkpoint WHERE key_id <> ${auditKeyId(anchor.key)}`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * What audit_log_hash() (migration 0002) computes for a row of audit_log, written out with pg_catalog's
 * functions: verification does not call audit_log_hash(), so replacing that function (e.g. by one that
 * returns the stored hash) cannot make an edited row look right.
 */
export const AUDIT_ROW_HASH_SQL = sql.raw(
  `pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(coalesce(prev_hash, '') || pg_catalog.jsonb_build_array(` +
    `id, pg_catalog.to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), ` +
    `usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip)::text, 'UTF8')), 'hex')`,
);

export interface VerifyAuditOptions {
  /** Rows read per query (default 2000). */
  batchSize?: number;
  /** Checkpoint key and file; default: the one createServer set for this database (setAuditAnchor), else none. */
  anchor?: AuditAnchor | null;
}

/**
 * Walks audit_log in id order, recomputing every row's hash and checking that each row points at the
 * previous one: any edited, forged, reordered or removed (not last) row is reported. With an anchor
 * (a key), every signed checkpoint (database and file) is checked too: the row it names must exist
 * with the hash it signed, and as many rows as it counted: this is what catches the newest rows
 * deleted, and a chain recomputed from an edited row with audit_log_hash(). Hashes are recomputed with
 * AUDIT_ROW_HASH_SQL, not by calling audit_log_hash(), which a superuser could replace.
 */
export async function verifyAuditChain(db: DbOrTx, options: VerifyAuditOptions | number = {}): Promise<AuditChainResult> {
  const opts = typeof options === 'number' ? { batchSize: options } : options;
  const batchSize = opts.batchSize ?? 2000;
  const anchor = opts.anchor !== undefined ? opts.anchor : (anchors.get(db) ?? null);

  let checkpoints: AuditCheckpoint[] = [];
  let report: AuditAnchorReport | undefined;
  if (anchor) {
    const seen = new Set<string>();
    const all = [...(await listAuditCheckpoints(db)), ...(anchor.file ? await fileCheckpoints(anchor.file) : [])];
    for (const c of all) {
      if (seen.has(c.signature)) continue;
      seen.add(c.signature);
      checkpoints.push(c);
    }
    const invalid = checkpoints.find((c) => !validSignature(anchor.key, c));
    report = { checkpoints: checkpoints.length, last: null, unanchored: 0 };
    if (invalid) return { ok: false, checked: 0, brokenAt: invalid.lastId || 0, reason: 'checkpoint_invalid', anchor: report };
    checkpoints = checkpoints.sort((a, b) => a.lastId - b.lastId || a.at.localeCompare(b.at));
    const newest = checkpoints.reduce<AuditCheckpoint | null>((acc, c) => (!acc || c.lastId > acc.lastId ? c : acc), null);
    report.last = newest ? { lastId: newest.lastId, rowCount: newest.rowCount, at: newest.at } : null;
  }

  let next = 0; // index of the next checkpoint to meet in the walk
  let anchoredId = 0; // last id vouched for by a checkpoint that matched
  let lastId = 0;
  let lastHash: string | null = null;
  let checked = 0;
  const fail = (brokenAt: number, reason: AuditBreakReason, from?: number): AuditChainResult => ({
    ok: false,
    checked,
    brokenAt,
    reason,
    ...(from === undefined ? {} : { from }),
    ...(report ? { anchor: report } : {}),
  });
  for (;;) {
    const { rows } = await db.execute<{ id: number | string; prev_hash: string | null; hash: string; expected: string }>(sql`
      SELECT id, prev_hash, hash,
             ${AUDIT_ROW_HASH_SQL} AS expected
        FROM audit_log
       WHERE id > ${lastId}
       ORDER BY id
       LIMIT ${batchSize}`);
    for (const row of rows) {
      const id = Number(row.id);
      // a checkpoint names a row before this one that is not there
      const skipped = checkpoints[next];
      if (skipped && skipped.lastId < id) return fail(skipped.lastId, 'rows_missing', lastId + 1);
      if ((row.prev_hash ?? null) !== lastHash) return fail(id, 'broken_link');
      if (row.hash !== row.expected) return fail(id, 'hash_mismatch');
      lastHash = row.hash;
      lastId = id;
      checked++;
      for (let c = checkpoints[next]; c && c.lastId === id; c = checkpoints[++next]) {
        if (c.lastHash !== row.hash) return fail(id, 'checkpoint_mismatch', anchoredId + 1);
        if (c.rowCount !== checked) return fail(id, 'rows_missing');
        anchoredId = id;
      }
    }
    if (rows.length < batchSize) break;
  }
  const beyond = checkpoints[next];
  if (beyond) return fail(beyond.lastId, 'rows_missing', lastId + 1);
  if (report) report.unanchored = checked - (report.last?.rowCount ?? 0);
  return report ? { ok: true, checked, anchor: report } : { ok: true, checked };
}

function whenPtBr(iso: string): string {
  return formatDateTime(iso, { seconds: true }) || iso;
}

/** pt-BR: what anchors the chain outside the database (for the CLI and the Logs de Auditoria page). */
export function auditAnchorSummary(result: AuditChainResult): string {
  const anchor = result.anchor;
  if (!anchor) {
    return (
      'Sem âncora externa (AUDIT_CHECKPOINT_KEY não configurada): a cadeia só é conferida contra si mesma; ' +
      'a remoção dos registros mais recentes, ou a edição de um registro com a cadeia recalculada, feitas direto no banco, não seriam detectadas.'
    );
  }
  if (!anchor.last) {
    return 'Nenhum ponto de controle assinado encontrado: nada ancora a trilha fora do banco ainda.';
  }
  const pontos = `${anchor.checkpoints.toLocaleString('pt-BR')} ponto(s) de controle assinado(s) conferido(s)`;
  const ultimo = `o último, de ${whenPtBr(anchor.last.at)}, cobre até o registro nº ${anchor.last.lastId} (${anchor.last.rowCount.toLocaleString('pt-BR')} registros)`;
  const depois = anchor.unanchored > 0 ? `; ${anchor.unanchored.toLocaleString('pt-BR')} registro(s) posteriores ainda sem ponto de controle` : '';
  return `Âncora externa: ${pontos}; ${ultimo}${depois}.`;
}

/** pt-BR: what a failed verification found, for the reasons that come from the signed checkpoints (null for the others). */
export function auditCheckpointProblem(result: AuditChainResult): string | null {
  if (result.ok) return null;
  switch (result.reason) {
    case 'checkpoint_mismatch':
      return (
        `o registro nº ${result.brokenAt} não tem o hash que o ponto de controle assinado registrou: ` +
        `a cadeia foi recalculada depois de editada, a partir de algum registro entre o nº ${result.from ?? 1} e o nº ${result.brokenAt}.`
      );
    case 'rows_missing':
      return `registros removidos: um ponto de controle assinado registrou a trilha até o nº ${result.brokenAt}, mas faltam registros a partir do nº ${result.from ?? result.brokenAt}.`;
    case 'checkpoint_invalid':
      return `um ponto de controle (registro nº ${result.brokenAt}) tem assinatura que não confere com a chave: forjado, ou assinado com outra chave.`;
    default:
      return null;
  }
}
