import { CONTROLE_INTERNO_TAG, EXEMPT_TAGS, type PluginManifest, type PluginMenuCount, type PluginMount, type PluginRoute, pluginMounts } from './contract';

/** Paths owned by core: no plugin route may take them. */
export const RESERVED_PATHS: readonly string[] = ['/signin', '/recoveryPass', '/verificar', '/403', '/500', '/__boom'];

/** One section of one plugin, as mounted. */
export interface ResolvedMount {
  plugin: PluginManifest;
  mount: PluginMount;
  /** mount.basePath normalized ('/a/' → '/a'). */
  basePath: string;
}

export interface ResolvedRoute {
  plugin: PluginManifest;
  /** The section the route belongs to (the plugin's only one unless it declares `mounts`). */
  mount: PluginMount;
  route: PluginRoute;
  /** Absolute path, e.g. '/memorando/edit/:id'. */
  fullPath: string;
  /** route.tag ?? mount.tag */
  tag: number;
  /** route.leitura: a read page of a document, open (read-only) to the controle interno. */
  leitura: boolean;
  title: string;
}

export interface ComposedApp {
  /** Enabled plugins in the order given. */
  plugins: PluginManifest[];
  /** Every section of every plugin, in the order given. */
  mounts: ResolvedMount[];
  /** The section mounted at '/', if any (its routes are registered at top level). */
  home: ResolvedMount | null;
  /** Other sections, longest basePath first (mount order). */
  mounted: ResolvedMount[];
  routes: ResolvedRoute[];
}

/** Thrown by composePlugins; `problems` lists every refusal found (one sentence each). */
export class PluginCompositionError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.length === 1 ? `Composição de plugins recusada: ${problems[0]}` : `Composição de plugins recusada:\n- ${problems.join('\n- ')}`);
    this.name = 'PluginCompositionError';
    this.problems = problems;
  }
}

export const pluginName = (p: PluginManifest) => `"${p.id}" (${p.packageName}@${p.version})`;

/** '/a/' → '/a', '' → '/', 'a' stays invalid (checked separately). */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function joinPath(base: string, path: string): string {
  const b = normalizePath(base);
  const p = normalizePath(path);
  if (b === '/') return p;
  return p === '/' ? b : `${b}${p}`;
}

/** Route patterns are compared with parameter names erased: '/edit/:id' equals '/edit/:codigo'. */
function patternKey(path: string): string {
  return normalizePath(path)
    .toLowerCase()
    .replace(/:[^/]+/g, ':');
}

function isUnder(path: string, base: string): boolean {
  if (base === '/') return true;
  const p = path.toLowerCase();
  const b = base.toLowerCase();
  return p === b || p.startsWith(`${b}/`);
}

const SINGLE_MOUNT_KEYS = ['basePath', 'tag', 'menu', 'routes'] as const;

/** The sections of a manifest, or a problem when its shape mixes or omits them (checked at run time too). */
function mountsOrProblem(p: PluginManifest): PluginMount[] | string {
  if (p.mounts === undefined) return pluginMounts(p);
  const mixed = SINGLE_MOUNT_KEYS.filter((k) => (p as unknown as Record<string, unknown>)[k] !== undefined);
  if (mixed.length > 0) {
    return `o plugin ${pluginName(p)} declara ${mixed.join(', ')} e mounts ao mesmo tempo: declare as seções só em mounts.`;
  }
  if (!Array.isArray(p.mounts) || p.mounts.length === 0) return `o plugin ${pluginName(p)} declara mounts sem nenhuma seção.`;
  return p.mounts;
}

/**
 * Checks and composes the enabled plugins. Refuses (throws PluginCompositionError naming the
 * plugins): duplicate ids; a manifest that mixes inline fields and `mounts`; invalid base paths;
 * two sections at the same basePath (across plugins or inside one); a basePath nested inside
 * another's; a route path registered twice (within or across plugins, also against core's
 * reserved paths); a home route inside another section's basePath; an invalid permission tag.
 * The `core` ranges are checked by `coreRangeProblems` (./ranges) in the signed-in shell, a lazy
 * chunk: the semver library stays off the sign-in page.
 */
export function composePlugins(manifests: readonly PluginManifest[]): ComposedApp {
  const problems: string[] = [];

  // ids: one per manifest, unique (it is the server half's id and the API prefix)
  const byId = new Map<string, PluginManifest>();
  for (const p of manifests) {
    if (!p.id || !/^[a-z0-9][a-z0-9-]*$/.test(p.id)) {
      problems.push(`o plugin ${pluginName(p)} tem um id inválido (use letras minúsculas, dígitos e hífens).`);
    }
    const other = byId.get(p.id);
    if (other) problems.push(`os plugins ${pluginName(other)} e ${pluginName(p)} usam o mesmo id "${p.id}".`);
    else byId.set(p.id, p);
  }

  // sections
  const all: { plugin: PluginManifest; mount: PluginMount }[] = [];
  for (const p of manifests) {
    const mounts = mountsOrProblem(p);
    if (typeof mounts === 'string') problems.push(mounts);
    else for (const mount of mounts) all.push({ plugin: p, mount });
  }

  // base paths
  const byBase = new Map<string, ResolvedMount>();
  const valid: ResolvedMount[] = [];
  for (const { plugin: p, mount } of all) {
    const raw = mount.basePath;
    if (typeof raw !== 'string' || !raw.startsWith('/') || /[?#*:]/.test(raw) || raw.includes('//')) {
      problems.push(`o plugin ${pluginName(p)} tem um basePath inválido: "${String(raw)}".`);
      continue;
    }
    const basePath = normalizePath(raw);
    const other = byBase.get(basePath.toLowerCase());
    if (other) {
      problems.push(
        other.plugin === p
          ? `o plugin ${pluginName(p)} declara o basePath "${basePath}" mais de uma vez.`
          : `os plugins ${pluginName(other.plugin)} e ${pluginName(p)} usam o mesmo basePath "${basePath}".`,
      );
      continue;
    }
    const resolved: ResolvedMount = { plugin: p, mount, basePath };
    byBase.set(basePath.toLowerCase(), resolved);
    valid.push(resolved);
  }
  for (const a of valid) {
    for (const b of valid) {
      if (a !== b && a.basePath !== '/' && isUnder(b.basePath, a.basePath)) {
        problems.push(
          `o basePath "${b.basePath}" do plugin ${pluginName(b.plugin)} fica dentro do basePath "${a.basePath}" do plugin ${pluginName(a.plugin)}.`,
        );
      }
    }
  }

  // routes
  const routes: ResolvedRoute[] = [];
  const seen = new Map<string, { owner: string; path: string }>();
  for (const path of RESERVED_PATHS) seen.set(patternKey(path), { owner: 'o núcleo (@app/core)', path });
  for (const { plugin: p, mount, basePath } of valid) {
    if (!Array.isArray(mount.routes) || mount.routes.length === 0) {
      problems.push(
        p.mounts === undefined
          ? `o plugin ${pluginName(p)} não declara nenhuma rota.`
          : `a seção "${basePath}" do plugin ${pluginName(p)} não declara nenhuma rota.`,
      );
      continue;
    }
    for (const route of mount.routes) {
      if (!route.path.startsWith('/')) {
        problems.push(`a rota "${route.path}" do plugin ${pluginName(p)} deve começar com "/".`);
        continue;
      }
      if (typeof route.load !== 'function') {
        problems.push(`a rota "${route.path}" do plugin ${pluginName(p)} não tem a função load().`);
        continue;
      }
      const fullPath = joinPath(basePath, route.path);
      const key = patternKey(fullPath);
      const prev = seen.get(key);
      if (prev) {
        problems.push(
          `a rota "${fullPath}" do plugin ${pluginName(p)} já foi registrada por ${prev.owner}${prev.path !== fullPath ? ` ("${prev.path}")` : ''}.`,
        );
        continue;
      }
      seen.set(key, { owner: `o plugin ${pluginName(p)}`, path: fullPath });
      routes.push({ plugin: p, mount, route, fullPath, tag: route.tag ?? mount.tag, leitura: route.leitura === true, title: route.title });
    }
  }

  // a home route must not land inside another section's basePath (it would be shadowed)
  const home = valid.find((m) => m.basePath === '/') ?? null;
  for (const r of routes) {
    if (r.mount !== home?.mount || r.fullPath === '/') continue;
    for (const other of valid) {
      if (other !== home && isUnder(r.fullPath, other.basePath)) {
        problems.push(
          `a rota "${r.fullPath}" do plugin ${pluginName(r.plugin)} fica dentro do basePath "${other.basePath}" do plugin ${pluginName(other.plugin)}.`,
        );
      }
    }
  }

  // tags
  for (const { plugin: p, mount } of all) {
    const routeTags = Array.isArray(mount.routes) ? mount.routes.map((r) => r.tag) : [];
    for (const t of [mount.tag, ...routeTags]) {
      if (t !== undefined && (!Number.isInteger(t) || (t < 0 && !EXEMPT_TAGS.includes(t)))) {
        problems.push(`o plugin ${pluginName(p)} usa uma tag de permissão inválida: ${t}.`);
      }
    }
  }

  if (problems.length > 0) throw new PluginCompositionError([...new Set(problems)]);

  const mounted = valid.filter((m) => m !== home).sort((a, b) => b.basePath.length - a.basePath.length);
  return { plugins: [...manifests], mounts: valid, home, mounted, routes };
}

/** Exempt tags (0 and -1..-4) pass without the user holding them (spec §6). */
export function isExemptTag(tag: number): boolean {
  return EXEMPT_TAGS.includes(tag);
}

/** Pure permission check: exempt, or held by the user. */
export function hasTag(userTags: readonly number[] | null | undefined, tag: number): boolean {
  return isExemptTag(tag) || (userTags?.includes(tag) ?? false);
}

/**
 * How a person may open a page: 'full' (holds its tag, or the tag is exempt), 'leitura' (a read page
 * of a document — `leitura` — opened by the controle interno tag: read-only), or null (refused).
 */
export type RouteAccess = 'full' | 'leitura' | null;

export function routeAccess(userTags: readonly number[] | null | undefined, tag: number, leitura: boolean | undefined): RouteAccess {
  if (hasTag(userTags, tag)) return 'full';
  if (leitura === true && (userTags?.includes(CONTROLE_INTERNO_TAG) ?? false)) return 'leitura';
  return null;
}

/** A section the controle interno may read: its list (the route at '/') is a `leitura` page of the section's tag. */
function readableSection(mount: PluginMount): boolean {
  return Array.isArray(mount.routes) && mount.routes.some((r) => r.leitura === true && normalizePath(r.path) === '/' && (r.tag ?? mount.tag) === mount.tag);
}

/** Side-menu entry (same shape as @app/ui's MenuItem). */
export interface MenuEntry {
  href: string;
  label: string;
  icon?: string;
  group?: string;
  order?: number;
  /** The section's `menu.count` (the shell fetches the number). */
  count?: PluginMenuCount;
}

/**
 * The side menu: the `menu` entry of every section of the enabled plugins whose tag the user holds
 * (or is exempt), and, for the controle interno, of every section whose list is a `leitura` page
 * (without its `count`: what awaits action is not theirs).
 */
export function buildMenu(plugins: readonly PluginManifest[], userTags: readonly number[] | null | undefined): MenuEntry[] {
  const items: MenuEntry[] = [];
  for (const p of plugins) {
    for (const mount of pluginMounts(p)) {
      const { menu } = mount;
      if (!menu) continue;
      const full = hasTag(userTags, mount.tag);
      if (!full && !(readableSection(mount) && routeAccess(userTags, mount.tag, true) === 'leitura')) continue;
      const item: MenuEntry = { href: normalizePath(mount.basePath), label: menu.label };
      if (menu.icon !== undefined) item.icon = menu.icon;
      if (menu.group !== undefined) item.group = menu.group;
      if (menu.order !== undefined) item.order = menu.order;
      if (menu.count !== undefined && full) item.count = menu.count;
      items.push(item);
    }
  }
  return items;
}
