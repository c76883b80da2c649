import type { AuditFn } from './audit.js';
import type { ContributionsOf } from './contributions.js';
import type { DatabaseEngine, Db, Tx } from './db/types.js';
import type { PluginJobs } from './jobs-api.js';
import type { Logger } from './logger.js';
import type { ServerPluginInfo } from './plugin-info.js';

/** Given to `routes(router, ctx)` and shared by every request context. */
export interface PluginContext {
  db: Db;
  engine: DatabaseEngine;
  /** The plugin being set up / serving the request. */
  plugin: { id: string; version: string };
  /** Every enabled server plugin, in dependency order. */
  plugins: readonly ServerPluginInfo[];
  /**
   * What the enabled plugins of this server contribute to an extension point (their `contributes`), in
   * dependency order: `ctx.contributions(PRODUTO_USOS)` → `[{ plugin: 'cotacoes', value }]`.
   */
  contributions: ContributionsOf;
  /** Version of @app/server-core. */
  coreVersion: string;
  buildId: string;
  logger: Logger;
  /**
   * The plugin's durable job queues (its `jobs`): `ctx.jobs.send(tx, 'publicar', { id })` inside
   * ctx.mutate enqueues in the same transaction; also get/list/cancel/retry for a progress screen.
   */
  jobs: PluginJobs;
}

export interface SessionUser {
  id: string;
  nome: string;
  login: string;
  email: string;
}

/** Who is calling: resolved from the bearer token and the sessoes row on every request. */
export interface AuthState {
  user: SessionUser;
  entidadeId: string;
  sessionId: string;
  /** Tags of the user's perfil in the session's entidade (exempt tags are not listed). */
  tags: number[];
  /** When the password sign-in this session descends from happened (its absolute lifetime counts from it). */
  authenticatedAt: Date;
  /**
   * Ids of the centros de custo (registros_centros_custo) the user belongs to in the session's
   * entidade (usuario_entidades.centros_custo), sorted. A stale id (centro removed) grants nothing.
   */
  centrosCusto: string[];
  /** The user's perfil sees the documents of every centro de custo (perfis.todos_centros). */
  todosCentros: boolean;
}

/**
 * Runs `fn` in ONE transaction. Record what changed with `audit({ registro, acao, antes, depois })`:
 * the rows (who, when, entidade, ip, field-level before/after) are written in the same transaction.
 * Inside, use `tx` only (on the embedded database `ctx.db` would wait for the transaction).
 * A transaction the database aborts for a deadlock (40P01) or a serialization failure (40001) is run
 * again, up to MUTATION_ATTEMPTS times, then answered 409 ('Outra operação alterou este registro ao
 * mesmo tempo; tente de novo.'): `fn` may run more than once, so keep its effects inside `tx`.
 */
export type MutateFn = <T>(fn: (tx: Tx, audit: AuditFn) => Promise<T>) => Promise<T>;

/** `ctx` of a public route. */
export interface PublicRequestContext extends PluginContext {
  user: null;
  entidadeId: null;
  sessionId: null;
  tags: readonly number[];
  ip: string | null;
  mutate: MutateFn;
}

/** `ctx` of a route that requires a tag: the caller is signed in and holds it. */
export interface RequestContext extends PluginContext {
  user: SessionUser;
  entidadeId: string;
  sessionId: string;
  /** Tags held in the current entidade. */
  tags: readonly number[];
  ip: string | null;
  /** True for exempt tags (0, -1..-4) and tags of the user's perfil in the current entidade. */
  hasTag(tag: number): boolean;
  /**
   * Row-level scope of documents: the centros de custo (ids of registros_centros_custo) the user
   * belongs to in the current entidade. Ignored when `todosCentros`; empty = sees no scoped document.
   * Apply it with `centroCustoScope(ctx, ...columns)`.
   */
  centrosCusto: readonly string[];
  /** The user's perfil grants the documents of every centro de custo (purchasing, controladoria, auditors). */
  todosCentros: boolean;
  /**
   * This request is a read of a document (list, export, record, PDF, timeline, `<path>/:id/…`) by a
   * holder of the controle interno tag (CONTROLE_INTERNO_TAG): `centroCustoScope` answers every
   * centro de custo. Never set on a write. Roles and `todosCentros` stay the perfil's.
   */
  leituraControleInterno?: boolean;
  mutate: MutateFn;
}

export type AppEnv = {
  Variables: {
    auth: AuthState | undefined;
  };
};

/** Given to a plugin's `seed(ctx)`: the demo entidades and users, and an audited transaction. */
export interface SeedContext extends Omit<PluginContext, 'jobs'> {
  entidades: { prefeitura: { id: string; nome: string }; camara: { id: string; nome: string } };
  usuarios: { admin: { id: string }; consulta: { id: string } };
  /** Audited as done by the system (no user); pass `entidadeId` in each audit entry. */
  mutate: MutateFn;
  /**
   * Adds `tags` to the Prefeitura's demo perfis named `perfis` (those that exist: another plugin's
   * seed may have made them), audited as a change of the perfil; a perfil holding them already is left.
   */
  grantTags(perfis: readonly string[], tags: readonly number[]): Promise<void>;
}
