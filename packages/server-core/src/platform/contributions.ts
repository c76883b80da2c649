// Cross-plugin contributions: a plugin declares an extension point (a typed name) and reads, through
// its context, the values the ENABLED plugins of THIS server contribute to it. Contributions are part
// of each plugin's definition (`contributes`), so nothing is registered at import time: two servers in
// one process, or a server without the contributing plugin, never see each other's values.
// A leaf module (no imports), like plugin-info.ts: the contract, the contexts and the runtime name it.

/** A typed name other plugins contribute values of type `T` to. Declare it with {@link extensionPoint}. */
export interface ExtensionPoint<T> {
  /** Unique name, by convention '<owner plugin id>.<what>' ('produtos.usos'). */
  readonly id: string;
  /** Carries `T` for the type checker only; never set. */
  readonly __value?: T;
}

const POINT_ID = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;

/**
 * Declares an extension point. The plugin that reads it exports it (from its `/server` entry) so the
 * contributors name the same point and value type:
 *
 *   export const PRODUTO_USOS = extensionPoint<ProdutoUsageChecker>('produtos.usos');
 */
export function extensionPoint<T>(id: string): ExtensionPoint<T> {
  if (!POINT_ID.test(id)) {
    throw new Error(`Extension point '${id}': the id must be '<plugin id>.<name>' in lowercase letters, digits and '-' (e.g. 'produtos.usos').`);
  }
  return Object.freeze({ id });
}

/** One entry of a plugin's `contributes`, made by {@link contribute}. */
export interface PluginContribution {
  readonly kind: 'compras-contribution';
  readonly point: string;
  readonly value: unknown;
}

/**
 * A value for an extension point, typed by it; goes in the contributing plugin's `contributes`:
 *
 *   contributes: [contribute(PRODUTO_USOS, async (db, produto) => [...])],
 */
export function contribute<T>(point: ExtensionPoint<T>, value: NoInfer<T>): PluginContribution {
  if (typeof point?.id !== 'string') throw new Error('contribute(point, value): point must come from extensionPoint().');
  return Object.freeze({ kind: 'compras-contribution' as const, point: point.id, value });
}

export function isPluginContribution(value: unknown): value is PluginContribution {
  return (value as PluginContribution | null)?.kind === 'compras-contribution';
}

/** A contribution as the reading plugin sees it: the value and the id of the plugin that gave it. */
export interface Contribution<T> {
  plugin: string;
  value: T;
}

/** `ctx.contributions(point)`: what the enabled plugins contribute to `point`, in dependency order. */
export type ContributionsOf = <T>(point: ExtensionPoint<T>) => readonly Contribution<T>[];

/** Indexes the contributions of the enabled plugins (given in dependency order) by point. */
export function collectContributions(plugins: readonly { id: string; contributes?: readonly PluginContribution[] | undefined }[]): ContributionsOf {
  const byPoint = new Map<string, Contribution<unknown>[]>();
  for (const plugin of plugins) {
    for (const c of plugin.contributes ?? []) {
      const list = byPoint.get(c.point) ?? [];
      list.push(Object.freeze({ plugin: plugin.id, value: c.value }));
      byPoint.set(c.point, list);
    }
  }
  const frozen = new Map([...byPoint].map(([point, list]) => [point, Object.freeze(list)]));
  const none: readonly Contribution<never>[] = Object.freeze([]);
  return <T>(point: ExtensionPoint<T>) => (frozen.get(point.id) ?? none) as readonly Contribution<T>[];
}
