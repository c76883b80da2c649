import type { ComponentType } from 'react';

/** Version of @app/core the running shell was built from (checked against each plugin's `core` range). */
export const CORE_VERSION: string = __PKG_VERSION__;

/** Tags exempt from the permission check (spec §6): 0 (any signed-in user) and -1..-4 (system pages). */
export const EXEMPT_TAGS: readonly number[] = [0, -1, -2, -3, -4];

export interface PluginRoute {
  /** Path relative to the plugin's basePath, e.g. '/', '/new', '/edit/:id'. */
  path: string;
  /** Title registered on navigation (also the document title). */
  title: string;
  /** Own permission tag; defaults to the plugin's tag. */
  tag?: number;
  /** Lazy page: must be a dynamic import so each page is its own chunk. */
  load: () => Promise<{ default: ComponentType }>;
}

export interface PluginMenu {
  label: string;
  /** Name of an icon from @app/ui's icon set. */
  icon?: string;
  /** Menu group heading, e.g. 'Cadastros', 'Documentos'. */
  group?: string;
  /** Sort order inside the group (lower first). */
  order?: number;
}

export interface PluginManifest {
  /** Unique id, also the server half's id and the API prefix (/api/<id>). */
  id: string;
  title: string;
  /** Where the plugin is mounted, e.g. '/memorando'. '/' is allowed for the home plugin only. */
  basePath: string;
  /** Numeric permission tag of the section (spec §6). */
  tag: number;
  /** semver range of @app/core this plugin supports, e.g. '^1.0.0'. */
  core: string;
  /** Plugin package version (filled by definePlugin from the build). */
  version: string;
  /** Package name (filled by definePlugin from the build). */
  packageName: string;
  menu?: PluginMenu;
  routes: PluginRoute[];
}

export type PluginDefinition = Omit<PluginManifest, 'version' | 'packageName'> &
  Partial<Pick<PluginManifest, 'version' | 'packageName'>>;

/**
 * Declares a web plugin. Keep the module that calls this cheap: no static page imports,
 * only `load: () => import('./pages/X')`.
 */
export function definePlugin(definition: PluginDefinition): PluginManifest {
  return {
    ...definition,
    version: definition.version ?? 'unknown',
    packageName: definition.packageName ?? `@app/${definition.id}`,
  };
}
