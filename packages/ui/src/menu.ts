/** Menu model helpers of AppLayout (pure; exported so the shell can reuse the same rules). */

export type MenuItem = {
  href: string;
  label: string;
  /** Name of an icon of the @app/ui set (see `iconNames`); unknown names show no icon. */
  icon?: string;
  /** Group heading; items without a group come first, under no heading. */
  group?: string;
  /** Order inside the group, lower first; items without order come after, by label. */
  order?: number;
  /** A number shown beside the label when above 0 (what awaits the user there). */
  count?: number;
  /** What the number counts, read after it by screen readers: 'aguardando minha aprovação'. */
  countLabel?: string;
};

export type MenuGroup = {
  /** Heading, or null for the items without a group. */
  group: string | null;
  items: MenuItem[];
};

const collator = /* @__PURE__ */ new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

function compareOrder(a: number | undefined, b: number | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a - b;
}

/** Sorts by `order` (missing last), then label (pt-BR collation). */
export function compareMenuItems(a: MenuItem, b: MenuItem): number {
  return compareOrder(a.order, b.order) || collator.compare(a.label, b.label);
}

/**
 * Groups menu items: the ungrouped ones first, then each group in the order of its lowest item
 * `order` (ties and groups without any order: by name). Items inside a group by order, then label.
 */
export function groupMenu(items: readonly MenuItem[]): MenuGroup[] {
  const byGroup = new Map<string | null, MenuItem[]>();
  for (const item of items) {
    const key = item.group?.trim() ? item.group.trim() : null;
    const list = byGroup.get(key);
    if (list) list.push(item);
    else byGroup.set(key, [item]);
  }
  const groups: MenuGroup[] = [...byGroup].map(([group, list]) => ({
    group,
    items: [...list].sort(compareMenuItems),
  }));
  const minOrder = (g: MenuGroup) => g.items[0]?.order;
  return groups.sort((a, b) => {
    if (a.group === null) return -1;
    if (b.group === null) return 1;
    return compareOrder(minOrder(a), minOrder(b)) || collator.compare(a.group, b.group);
  });
}

function normalizePath(path: string): string {
  const clean = path.split(/[?#]/)[0] ?? '';
  if (clean === '' || clean === '/') return '/';
  return clean.endsWith('/') ? clean.slice(0, -1) : clean;
}

/** True when `currentPath` is `href` or below it ('/' only matches exactly '/'). */
export function isActiveHref(href: string, currentPath: string): boolean {
  const h = normalizePath(href);
  const p = normalizePath(currentPath);
  if (h === '/') return p === '/';
  return p === h || p.startsWith(`${h}/`);
}

/** The href of the one item that is current: the longest matching href, so nested entries win. */
export function findActiveHref(items: readonly MenuItem[], currentPath: string): string | undefined {
  let best: string | undefined;
  for (const item of items) {
    if (isActiveHref(item.href, currentPath) && (best === undefined || normalizePath(item.href).length > normalizePath(best).length)) {
      best = item.href;
    }
  }
  return best;
}
