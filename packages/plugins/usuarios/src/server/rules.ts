// Rules shared by the user and perfil routes: which entidades the caller administers, the
// "never leave an entidade without an active administrator" check, and the granting check.
import { AppError, type DbOrTx, entidades, forbidden, type ServerPluginInfo, usuarioEntidades } from '@app/server-core';
import { and, eq, inArray, sql } from '@app/server-core/orm';
import { ADMIN_TAG } from '@app/core/tags';
import { isExemptTag, MENSAGENS, tagNome, type TagInfo, ultimoAdministradorMensagem } from '../shared/index.js';
import { centrosCustoT, perfisT, usuariosT } from './tables.js';

/**
 * Serialises every membership/perfil change of this plugin (transaction-level advisory lock), so two
 * administrators demoting each other at the same moment cannot both pass the last-administrator check.
 */
export async function lockMemberships(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(7250310100)`);
}

export interface EntidadeAdministrada {
  nome: string;
  /** Tags the caller holds there. */
  tags: number[];
  /** The caller's perfil there sees every centro de custo. */
  todosCentros: boolean;
  /** The caller's own centros de custo there. */
  centrosCusto: string[];
}

/** Entidades where `usuarioId` holds the administration tag, with the tags held there. */
export async function entidadesAdministradas(db: DbOrTx, usuarioId: string): Promise<Map<string, EntidadeAdministrada>> {
  const rows = await db
    .select({
      id: usuarioEntidades.entidadeId,
      nome: entidades.nome,
      tags: perfisT.tags,
      todosCentros: perfisT.todosCentros,
      centrosCusto: usuarioEntidades.centrosCusto,
    })
    .from(usuarioEntidades)
    .innerJoin(entidades, eq(entidades.id, usuarioEntidades.entidadeId))
    .innerJoin(perfisT, eq(perfisT.id, usuarioEntidades.perfilId))
    .innerJoin(usuariosT, eq(usuariosT.id, usuarioEntidades.usuarioId))
    .where(and(eq(usuarioEntidades.usuarioId, usuarioId), eq(usuariosT.ativo, true), sql`${ADMIN_TAG} = ANY(${perfisT.tags})`))
    .orderBy(entidades.nome);
  return new Map(
    rows.map((r) => [r.id, { nome: r.nome, tags: [...r.tags].sort((a, b) => a - b), todosCentros: r.todosCentros, centrosCusto: [...r.centrosCusto] }]),
  );
}

/** Number of active administrators (active user, perfil holding tag 3) of each entidade. */
export async function activeAdmins(db: DbOrTx, entidadeIds: readonly string[]): Promise<Map<string, number>> {
  const ids = [...new Set(entidadeIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ entidadeId: usuarioEntidades.entidadeId, n: sql<number>`count(*)::int` })
    .from(usuarioEntidades)
    .innerJoin(usuariosT, eq(usuariosT.id, usuarioEntidades.usuarioId))
    .innerJoin(perfisT, eq(perfisT.id, usuarioEntidades.perfilId))
    .where(and(inArray(usuarioEntidades.entidadeId, ids), eq(usuariosT.ativo, true), sql`${ADMIN_TAG} = ANY(${perfisT.tags})`))
    .groupBy(usuarioEntidades.entidadeId);
  return new Map(rows.map((r) => [r.entidadeId, Number(r.n)]));
}

/**
 * Call after applying a change (inside the same transaction, after `lockMemberships`): an entidade
 * that had an active administrator before and has none now makes the whole change fail with 409.
 */
export async function assertAdminsKept(db: DbOrTx, before: Map<string, number>): Promise<void> {
  const after = await activeAdmins(db, [...before.keys()]);
  for (const [entidadeId, n] of before) {
    if (n > 0 && (after.get(entidadeId) ?? 0) === 0) {
      const [ent] = await db.select({ nome: entidades.nome }).from(entidades).where(eq(entidades.id, entidadeId));
      throw new AppError(409, 'ultimo_administrador', ultimoAdministradorMensagem(ent?.nome ?? 'a entidade'));
    }
  }
}

/** Every non-exempt tag declared by the enabled server plugins, named, sorted by number. */
export function declaredTags(plugins: readonly ServerPluginInfo[]): TagInfo[] {
  const byTag = new Map<number, TagInfo>();
  for (const plugin of plugins) {
    for (const t of plugin.tags) {
      if (isExemptTag(t.tag)) continue;
      const existing = byTag.get(t.tag);
      if (existing) existing.plugins.push(plugin.id);
      else byTag.set(t.tag, { tag: t.tag, nome: t.nome, plugins: [plugin.id] });
    }
  }
  return [...byTag.values()].sort((a, b) => a.tag - b.tag);
}

/** 403 unless every tag of `wanted` is held (`held`): nobody grants a permission they do not have. */
export function assertCanGrant(wanted: readonly number[], held: readonly number[], declared: readonly TagInfo[], perfilNome?: string): void {
  const missing = wanted.filter((t) => !isExemptTag(t) && !held.includes(t));
  if (missing.length === 0) return;
  const names = missing.map((t) => `${tagNome(t, declared)} (${t})`).join(', ');
  throw forbidden(
    perfilNome
      ? `Você não pode atribuir o perfil ${perfilNome}: ele concede permissões que você não possui: ${names}.`
      : `Você não pode conceder permissões que não possui: ${names}.`,
  );
}

/**
 * The account row (nome, login, e-mail, CPF, cargo, senha, ativo) is shared by every entidade of the
 * user: only the user themself, or someone who administers every one of those entidades, changes it.
 * Memberships (the perfil in each entidade) stay per entidade and are not covered by this rule.
 */
export function podeAlterarConta(callerId: string, usuarioId: string, entidadesDoUsuario: readonly string[], managed: ReadonlyMap<string, unknown>): boolean {
  return usuarioId === callerId || entidadesDoUsuario.every((id) => managed.has(id));
}

/** 403 (MENSAGENS.contaCompartilhada) unless `podeAlterarConta`. */
export function assertPodeAlterarConta(
  callerId: string,
  usuarioId: string,
  entidadesDoUsuario: readonly string[],
  managed: ReadonlyMap<string, unknown>,
): void {
  if (!podeAlterarConta(callerId, usuarioId, entidadesDoUsuario, managed)) throw forbidden(MENSAGENS.contaCompartilhada);
}

export interface CentroCusto {
  id: string;
  entidadeId: string;
  codigo: string;
  nome: string;
  ativo: boolean;
}

/** Every centro de custo of the entidades, by código. */
export async function centrosDe(db: DbOrTx, entidadeIds: readonly string[]): Promise<CentroCusto[]> {
  const ids = [...new Set(entidadeIds)];
  if (ids.length === 0) return [];
  return db
    .select({
      id: centrosCustoT.id,
      entidadeId: centrosCustoT.entidadeId,
      codigo: centrosCustoT.codigo,
      nome: centrosCustoT.nome,
      ativo: centrosCustoT.ativo,
    })
    .from(centrosCustoT)
    .where(inArray(centrosCustoT.entidadeId, ids))
    .orderBy(centrosCustoT.codigo);
}

/** 'código – nome' of a centro de custo (the audit trail and messages name centros this way). */
export const centroRotulo = (c: Pick<CentroCusto, 'codigo' | 'nome'>): string => `${c.codigo} – ${c.nome}`;

/** Labels of the ids, in código order; an id no longer registered shows as itself. */
export function rotulosDosCentros(ids: readonly string[], centros: readonly CentroCusto[]): string[] {
  const byId = new Map(centros.map((c) => [c.id, c]));
  const known = centros.filter((c) => ids.includes(c.id)).map(centroRotulo);
  return [...known, ...ids.filter((id) => !byId.has(id))];
}
