import { satisfies, validate } from 'compare-versions';
import { CORE_VERSION, EXEMPT_TAGS, type PluginManifest, type PluginRoute } from './contract';

/** Paths owned by core: no plugin route may take them. */
export const RESERVED_PATHS: readonly string[] = ['/signin', '/recoveryPass', '/403', '/500', '/__boom'];

export interface ResolvedRoute {
  plugin: PluginManifest;
  route: PluginRoute;
  /** Absolute path, e.g. '/memorando/edit/:id'. */
  fullPath: string;
  /** route.tag ?? plugin.tag */
  tag: number;
  title: string;
}

export interface ComposedApp {
  /** Enabled plugins in the order given. */
  plugins: PluginManifest[];
  /** The plugin mounted at '/', if any (its routes are registered at top level). */
  home: PluginManifest | null;
  /** Other plugins, longest basePath first (mount order). */
  mounted: PluginManifest[];
  routes: ResolvedRoute[];
}

/** Thrown by composePlugins; `problems` lists every refusal found (one sentence each). */
export class PluginCompositionError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      problems.length === 1
        ? `Composição de plugins recusada: ${problems[0]}`
        : `Composição de plugins recusada:\n- ${problems.join('\n- ')}`,
    );
    this.name = 'PluginCompositionError';
    this.problems = problems;
  }
}

const name = (p: PluginManifest) => `"${p.id}" (${p.packageName}@${p.version})`;

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

/**
 * Checks and composes the enabled plugins. Refuses (throws PluginCompositionError naming the
 * plugins): duplicate ids; invalid base paths; two plugins at the same basePath; a basePath
 * nested inside another plugin's; a route path registered twice (within or across plugins,
 * also against core's reserved paths); a home-plugin route inside another plugin's basePath;
 * a `core` range the running @app/core (CORE_VERSION) does not satisfy.
 */
export function composePlugins(manifests: readonly PluginManifest[], coreVersion: string = CORE_VERSION): ComposedApp {
  const problems: string[] = [];

  // ids
  const byId = new Map<string, PluginManifest>();
  for (const p of manifests) {
    if (!p.id || !/^[a-z0-9][a-z0-9-]*$/.test(p.id)) {
      problems.push(`o plugin ${name(p)} tem um id inválido (use letras minúsculas, dígitos e hífens).`);
    }
    const other = byId.get(p.id);
    if (other) problems.push(`os plugins ${name(other)} e ${name(p)} usam o mesmo id "${p.id}".`);
    else byId.set(p.id, p);
  }

  // core ranges
  for (const p of manifests) {
    let ok = false;
    try {
      ok = validate(coreVersion) && satisfies(coreVersion, p.core);
    } catch {
      problems.push(`o plugin ${name(p)} declara uma faixa de @app/core inválida: "${p.core}".`);
      continue;
    }
    if (!ok) {
      problems.push(
        `o plugin ${name(p)} requer @app/core "${p.core}", mas a versão em execução é ${coreVersion}.`,
      );
    }
  }

  // base paths
  const byBase = new Map<string, PluginManifest>();
  const valid: PluginManifest[] = [];
  for (const p of manifests) {
    if (!p.basePath.startsWith('/') || /[?#*:]/.test(p.basePath) || p.basePath.includes('//')) {
      problems.push(`o plugin ${name(p)} tem um basePath inválido: "${p.basePath}".`);
      continue;
    }
    const base = normalizePath(p.basePath).toLowerCase();
    const other = byBase.get(base);
    if (other) {
      problems.push(`os plugins ${name(other)} e ${name(p)} usam o mesmo basePath "${normalizePath(p.basePath)}".`);
      continue;
    }
    byBase.set(base, p);
    valid.push(p);
  }
  for (const a of valid) {
    for (const b of valid) {
      const baseA = normalizePath(a.basePath);
      const baseB = normalizePath(b.basePath);
      if (a !== b && baseA !== '/' && baseB !== baseA && isUnder(baseB, baseA)) {
        problems.push(
          `o basePath "${baseB}" do plugin ${name(b)} fica dentro do basePath "${baseA}" do plugin ${name(a)}.`,
        );
      }
    }
  }

  // routes
  const routes: ResolvedRoute[] = [];
  const seen = new Map<string, { owner: string; path: string }>();
  for (const path of RESERVED_PATHS) seen.set(patternKey(path), { owner: 'o núcleo (@app/core)', path });
  for (const p of manifests) {
    if (!Array.isArray(p.routes) || p.routes.length === 0) {
      problems.push(`o plugin ${name(p)} não declara nenhuma rota.`);
      continue;
    }
    for (const route of p.routes) {
      if (!route.path.startsWith('/')) {
        problems.push(`a rota "${route.path}" do plugin ${name(p)} deve começar com "/".`);
        continue;
      }
      if (typeof route.load !== 'function') {
        problems.push(`a rota "${route.path}" do plugin ${name(p)} não tem a função load().`);
        continue;
      }
      const fullPath = joinPath(p.basePath, route.path);
      const key = patternKey(fullPath);
      const prev = seen.get(key);
      if (prev) {
        problems.push(
          `a rota "${fullPath}" do plugin ${name(p)} já foi registrada por ${prev.owner}${prev.path !== fullPath ? ` ("${prev.path}")` : ''}.`,
        );
        continue;
      }
      seen.set(key, { owner: `o plugin ${name(p)}`, path: fullPath });
      routes.push({ plugin: p, route, fullPath, tag: route.tag ?? p.tag, title: route.title });
    }
  }

  // a home-plugin route must not land inside another plugin's basePath (it would be shadowed)
  for (const r of routes) {
    if (normalizePath(r.plugin.basePath) !== '/' || r.fullPath === '/') continue;
    for (const other of valid) {
      const base = normalizePath(other.basePath);
      if (other !== r.plugin && base !== '/' && isUnder(r.fullPath, base)) {
        problems.push(
          `a rota "${r.fullPath}" do plugin ${name(r.plugin)} fica dentro do basePath "${base}" do plugin ${name(other)}.`,
        );
      }
    }
  }

  // tags
  for (const p of manifests) {
    for (const t of [p.tag, ...p.routes.map((r) => r.tag)]) {
      if (t !== undefined && (!Number.isInteger(t) || (t < 0 && !EXEMPT_TAGS.includes(t)))) {
        problems.push(`o plugin ${name(p)} usa uma tag de permissão inválida: ${t}.`);
      }
    }
  }

  if (problems.length > 0) throw new PluginCompositionError([...new Set(problems)]);

  const home = valid.find((p) => normalizePath(p.basePath) === '/') ?? null;
  const mounted = valid
    .filter((p) => p !== home)
    .sort((a, b) => normalizePath(b.basePath).length - normalizePath(a.basePath).length);
  return { plugins: [...manifests], home, mounted, routes };
}

/** Exempt tags (0 and -1..-4) pass without the user holding them (spec §6). */
export function isExemptTag(tag: number): boolean {
  return EXEMPT_TAGS.includes(tag);
}

/** Pure permission check: exempt, or held by the user. */
export function hasTag(userTags: readonly number[] | null | undefined, tag: number): boolean {
  return isExemptTag(tag) || (userTags?.includes(tag) ?? false);
}

/** Side-menu entry (same shape as @app/ui's MenuItem). */
export interface MenuEntry {
  href: string;
  label: string;
  icon?: string;
  group?: string;
  order?: number;
}

/** The side menu: enabled plugins' `menu` entries whose tag the user holds (or is exempt). */
export function buildMenu(plugins: readonly PluginManifest[], userTags: readonly number[] | null | undefined): MenuEntry[] {
  const items: MenuEntry[] = [];
  for (const p of plugins) {
    if (!p.menu || !hasTag(userTags, p.tag)) continue;
    const item: MenuEntry = { href: normalizePath(p.basePath), label: p.menu.label };
    if (p.menu.icon !== undefined) item.icon = p.menu.icon;
    if (p.menu.group !== undefined) item.group = p.menu.group;
    if (p.menu.order !== undefined) item.order = p.menu.order;
    items.push(item);
  }
  return items;
}
