import { sql } from 'drizzle-orm';
import { auditLog } from './db/schema.js';
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
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as Json;
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

/** 123.456.789-01 / 12345678901 → ***.456.789-** (what the audit trail may show of a CPF). */
export function maskCpf(value: unknown): string {
  const digits = String(value ?? '').replace(/\D/g, '');
  if (digits.length !== 11) return '***';
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

/** Masks every value whose key contains "cpf" (any case, any depth). */
export function maskSensitive(value: Json | null): Json | null {
  if (Array.isArray(value)) return value.map((item) => maskSensitive(item));
  if (isPlainObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = /cpf/i.test(key) && (typeof v === 'string' || typeof v === 'number') ? maskCpf(v) : maskSensitive(v);
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

/** Inserts audit rows, one statement per row (the database computes the chain). */
export async function writeAudit(tx: Tx | DbOrTx, entries: readonly AuditEntry[], defaults: AuditDefaults): Promise<void> {
  for (const entry of entries) {
    const { antes, depois } = auditValues(entry.antes, entry.depois);
    await tx.insert(auditLog).values({
      plugin: entry.plugin ?? defaults.plugin,
      registro: entry.registro === undefined || entry.registro === null ? null : String(entry.registro),
      acao: entry.acao,
      antes,
      depois,
      usuarioId: entry.usuarioId === undefined ? defaults.usuarioId : entry.usuarioId,
      entidadeId: entry.entidadeId === undefined ? defaults.entidadeId : entry.entidadeId,
      ip: defaults.ip,
    });
  }
}

export type AuditChainResult =
  | { ok: true; checked: number }
  | { ok: false; checked: number; brokenAt: number; reason: 'hash_mismatch' | 'broken_link' };

/**
 * Walks audit_log in id order, recomputing every row's hash and checking that each row points at the
 * previous one. Any edited, forged, reordered or removed (not last) row is reported.
 */
export async function verifyAuditChain(db: DbOrTx, batchSize = 2000): Promise<AuditChainResult> {
  let lastId = 0;
  let lastHash: string | null = null;
  let checked = 0;
  for (;;) {
    const { rows } = await db.execute<{ id: number | string; prev_hash: string | null; hash: string; expected: string }>(sql`
      SELECT id, prev_hash, hash,
             audit_log_hash(prev_hash, id, at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip) AS expected
        FROM audit_log
       WHERE id > ${lastId}
       ORDER BY id
       LIMIT ${batchSize}`);
    for (const row of rows) {
      const id = Number(row.id);
      if ((row.prev_hash ?? null) !== lastHash) return { ok: false, checked, brokenAt: id, reason: 'broken_link' };
      if (row.hash !== row.expected) return { ok: false, checked, brokenAt: id, reason: 'hash_mismatch' };
      lastHash = row.hash;
      lastId = id;
      checked++;
    }
    if (rows.length < batchSize) return { ok: true, checked };
  }
}
