import { satisfies, validate } from 'compare-versions';
import type { PluginContext, SeedContext } from './context.js';
import { type PluginContribution, isPluginContribution } from './contributions.js';
import { type JobDefinition, checkJobsDeclaration } from './jobs.js';
import type { PluginTag, ServerPluginInfo } from './plugin-info.js';
import type { PluginRouter } from './router.js';
import { SERVER_CORE_VERSION } from './version.js';

export type { PluginTag, ServerPluginInfo } from './plugin-info.js';

export interface ServerPluginDefinition {
  /** Unique id: the API prefix (/api/<id>) and the web half's id. Lowercase letters, digits, '-'. */
  id: string;
  /** Package version, usually `__PKG_VERSION__`. */
  version: string;
  /** semver range of @app/server-core this plugin was built against, e.g. '^1.0.0'. */
  core: string;
  /** Ids of plugins that must be enabled too; their migrations and seeds run first. */
  dependsOn?: string[];
  /** Permission tags the plugin's routes use (the demo Administrador perfil receives all of them). */
  tags: PluginTag[];
  /**
   * Folder of plain .sql files, run once each in name order at start, recorded per plugin in
   * `_migrations`. Prefer a URL: `new URL('../../migrations/', import.meta.url)`.
   */
  migrations?: URL | string;
  /**
   * Values for other plugins' extension points, each made by `contribute(point, value)`: the plugin
   * that declared the point reads them with `ctx.contributions(point)` (only while this plugin is enabled
   * on that server).
   */
  contributes?: readonly PluginContribution[];
  /**
   * Durable job queues (pg-boss), each made by `defineJob({ schema, handler, options })`, named
   * `<id>.<queue>` in the database. Enqueue with `ctx.jobs.send(tx, queue, { id })` inside ctx.mutate.
   * Payloads carry ids only, never secrets.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each queue has its own payload type
  jobs?: Readonly<Record<string, JobDefinition<any, any>>>;
  /** Declares the plugin's routes (mounted at /api/<id>). */
  routes(router: PluginRouter, ctx: PluginContext): void;
  /** Demo data for the embedded default; runs once, after the core demo seed. */
  seed?(ctx: SeedContext): Promise<void>;
}

export interface ServerPlugin extends Readonly<ServerPluginDefinition> {
  readonly dependsOn: string[];
  readonly contributes: readonly PluginContribution[];
  // biome-ignore lint/suspicious/noExplicitAny: each queue has its own payload type
  readonly jobs: Readonly<Record<string, JobDefinition<any, any>>>;
  readonly kind: 'compras-server-plugin';
}

const ID_PATTERN = /^[a-z][a-z0-9-]*$/;
/** First path segments under /api that belong to server-core. */
export const RESERVED_IDS: readonly string[] = ['auth', 'session', 'devtools', 'health', 'version', 'openapi.json', 'core'];

/** Declares a server plugin. Checks the shape now; composition (ids, dependencies, core range) is checked by createServer. */
export function defineServerPlugin(definition: ServerPluginDefinition): ServerPlugin {
  const name = `Server plugin '${definition.id}'`;
  if (!ID_PATTERN.test(definition.id)) {
    throw new Error(`${name}: id must match ${ID_PATTERN} (lowercase letters, digits and '-').`);
  }
  if (RESERVED_IDS.includes(definition.id)) {
    throw new Error(`${name}: id '${definition.id}' is reserved by @app/server-core (${RESERVED_IDS.join(', ')}).`);
  }
  if (!definition.version) throw new Error(`${name}: version is required.`);
  if (!definition.core) throw new Error(`${name}: core (a semver range of @app/server-core) is required.`);
  if (typeof definition.routes !== 'function') throw new Error(`${name}: routes(router, ctx) is required.`);
  for (const t of definition.tags ?? []) {
    if (!Number.isInteger(t.tag)) throw new Error(`${name}: tag ${String(t.tag)} is not an integer.`);
  }
  for (const c of definition.contributes ?? []) {
    if (!isPluginContribution(c)) throw new Error(`${name}: every entry of contributes must be made by contribute(point, value).`);
  }
  checkJobsDeclaration(definition.id, definition.jobs);
  return Object.freeze({
    ...definition,
    jobs: Object.freeze({ ...definition.jobs }),
    tags: [...(definition.tags ?? [])],
    contributes: Object.freeze([...(definition.contributes ?? [])]),
    dependsOn: [...(definition.dependsOn ?? [])],
    kind: 'compras-server-plugin' as const,
  });
}

/**
 * Validates the list of enabled plugins and returns it in dependency order (a plugin after the plugins it
 * depends on; otherwise the given order). Throws a clear English message naming the plugin on a
 * duplicate id, a missing or circular dependency, or a `core` range the running server-core does not satisfy.
 */
export function composePlugins(plugins: readonly ServerPlugin[], coreVersion: string = SERVER_CORE_VERSION): ServerPlugin[] {
  const byId = new Map<string, ServerPlugin>();
  for (const plugin of plugins) {
    if (plugin?.kind !== 'compras-server-plugin') {
      throw new Error('Every server plugin must be created with defineServerPlugin().');
    }
    if (byId.has(plugin.id)) {
      throw new Error(`Duplicate server plugin id '${plugin.id}': each plugin can be enabled once.`);
    }
    byId.set(plugin.id, plugin);
  }
  for (const plugin of plugins) {
    let compatible: boolean;
    try {
      compatible = validate(coreVersion) && satisfies(coreVersion, plugin.core);
    } catch {
      throw new Error(`Server plugin '${plugin.id}' (${plugin.version}) declares an invalid core range '${plugin.core}'.`);
    }
    if (!compatible) {
      throw new Error(`Server plugin '${plugin.id}' (${plugin.version}) requires @app/server-core ${plugin.core}, but ${coreVersion} is running.`);
    }
    for (const dep of plugin.dependsOn) {
      if (!byId.has(dep)) {
        throw new Error(`Server plugin '${plugin.id}' depends on '${dep}', which is not enabled.`);
      }
    }
  }
  const ordered: ServerPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: ServerPlugin, path: string[]) => {
    const s = state.get(plugin.id);
    if (s === 'done') return;
    if (s === 'visiting') {
      throw new Error(`Server plugin '${plugin.id}' has a circular dependency: ${[...path, plugin.id].join(' → ')}.`);
    }
    state.set(plugin.id, 'visiting');
    for (const dep of plugin.dependsOn) visit(byId.get(dep)!, [...path, plugin.id]);
    state.set(plugin.id, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

export function pluginInfo(plugin: ServerPlugin): ServerPluginInfo {
  return {
    id: plugin.id,
    version: plugin.version,
    core: plugin.core,
    dependsOn: [...plugin.dependsOn],
    tags: plugin.tags.map((t) => ({ ...t })),
  };
}
