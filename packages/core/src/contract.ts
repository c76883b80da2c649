import type { ComponentType } from 'react';

/** Version of @app/core the running shell was built from (checked against each plugin's `core` range). */
export const CORE_VERSION: string = __PKG_VERSION__;

/** Tags exempt from the permission check (spec §6): 0 (any signed-in user) and -1..-4 (system pages). */
export const EXEMPT_TAGS: readonly number[] = [0, -1, -2, -3, -4];

/**
 * Controle interno (the controladoria, auditors): a perfil with this tag reads every document of the
 * entidade and changes none. The server (@app/server-core's CONTROLE_INTERNO_TAG, the same number)
 * opens it the documents' reads; here it opens the pages declared `leitura` (a document's list and
 * record: `documentRoutes` marks them) and their sections' menu entries, and those pages are read-only.
 */
export const CONTROLE_INTERNO_TAG = 95;

export interface PluginRoute {
  /** Path relative to the plugin's basePath, e.g. '/', '/new', '/edit/:id'. */
  path: string;
  /** Title registered on navigation (also the document title). */
  title: string;
  /** Own permission tag; defaults to the plugin's tag. */
  tag?: number;
  /**
   * A page that only reads a document (its list, its record, a view of one document): also open,
   * read-only, to the controle interno (CONTROLE_INTERNO_TAG). `documentRoutes` sets it on the list
   * and on edit/:id; never on a page that creates (new, duplicar).
   */
  leitura?: boolean;
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
  /**
   * A number beside the entry (what awaits the user there, e.g. requisições to approve): the shell
   * asks GET /api<endpoint> (an answer `{ total }`) on sign-in and every minute, and shows it when
   * above 0; the label names it for screen readers ('Requisições (3 aguardando minha aprovação)').
   */
  count?: PluginMenuCount;
}

export interface PluginMenuCount {
  /** Endpoint under /api answering `{ total: number }`, e.g. '/requisicoes/requisicoes/aguardando-minha-aprovacao/contagem'. */
  endpoint: string;
  /** What the number counts, after the number: 'aguardando minha aprovação'. */
  label: string;
}

/**
 * One section of a plugin: mounted under `basePath`, guarded by `tag`, with its own menu entry and
 * routes. A plugin declares one inline (`basePath`, `tag`, `menu`, `routes` on the manifest) or
 * several in `mounts`, all under the plugin's one id (= the server half's id and API prefix).
 */
export interface PluginMount {
  /** Where the section is mounted, e.g. '/requisicao'. '/' is allowed for the home plugin only. */
  basePath: string;
  /** Title of the section (About page, composition messages). */
  title: string;
  /** Numeric permission tag of the section (spec §6); its routes inherit it. */
  tag: number;
  menu?: PluginMenu;
  routes: PluginRoute[];
}

/** What every manifest carries, whatever its mounts. */
export interface PluginIdentity {
  /** Unique id, also the server half's id and the API prefix (/api/<id>): one per package. */
  id: string;
  title: string;
  /** semver range of @app/core this plugin supports, e.g. '^1.0.0'. */
  core: string;
  /** Plugin package version (filled by definePlugin from the build). */
  version: string;
  /** Package name (filled by definePlugin from the build). */
  packageName: string;
}

/** One section declared inline (most plugins): its title is the plugin's. */
export interface SingleMount {
  /** Where the plugin is mounted, e.g. '/memorando'. '/' is allowed for the home plugin only. */
  basePath: string;
  /** Numeric permission tag of the section (spec §6). */
  tag: number;
  menu?: PluginMenu;
  routes: PluginRoute[];
  mounts?: never;
}

/** Several sections, e.g. @app/registros (nine registries, each at its historical URL). */
export interface SeveralMounts {
  mounts: PluginMount[];
  basePath?: never;
  tag?: never;
  menu?: never;
  routes?: never;
}

export type PluginManifest = PluginIdentity & (SingleMount | SeveralMounts);

export type PluginDefinition = Omit<PluginIdentity, 'version' | 'packageName'> &
  Partial<Pick<PluginIdentity, 'version' | 'packageName'>> &
  (SingleMount | SeveralMounts);

/**
 * Declares a web plugin. Keep the module that calls this cheap: no static page imports,
 * only `load: () => import('./pages/X')`. The result keeps the declared shape (inline or `mounts`).
 */
export function definePlugin(definition: PluginDefinition & SingleMount): PluginIdentity & SingleMount;
export function definePlugin(definition: PluginDefinition & SeveralMounts): PluginIdentity & SeveralMounts;
export function definePlugin(definition: PluginDefinition): PluginManifest;
export function definePlugin(definition: PluginDefinition): PluginManifest {
  return {
    ...definition,
    version: definition.version ?? 'unknown',
    packageName: definition.packageName ?? `@app/${definition.id}`,
  };
}

/** The sections of a plugin: its `mounts`, or the one declared inline (titled with the plugin's title). */
export function pluginMounts(plugin: PluginManifest): PluginMount[] {
  if (plugin.mounts !== undefined) return plugin.mounts;
  const mount: PluginMount = { basePath: plugin.basePath, title: plugin.title, tag: plugin.tag, routes: plugin.routes };
  if (plugin.menu !== undefined) mount.menu = plugin.menu;
  return [mount];
}
