/** Tag of the '/about/sistema' page (technical details; administrators). */
export const SYSTEM_TAG = 3;

/** One row of GET /api/about/versions, as the page reads it (tolerant of a few shapes). */
export interface ServerVersionRow {
  name: string;
  version: string;
  detail?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * Accepts `[{ id|name|package, version, ... }]`, `{ items: [...] }`, `{ plugins: [...], server?: ... }`
 * or a flat `{ name: version }` map, and returns rows to show.
 */
export function toServerRows(data: unknown): ServerVersionRow[] {
  if (!data || typeof data !== 'object') return [];
  const record = data as Record<string, unknown>;
  const list: unknown[] | null = Array.isArray(data)
    ? data
    : Array.isArray(record.items)
      ? record.items
      : Array.isArray(record.plugins)
        ? [...(Array.isArray(record.core) ? record.core : record.core ? [record.core] : []), ...record.plugins]
        : null;
  if (list) {
    const rows: ServerVersionRow[] = [];
    for (const item of list) {
      if (!item || typeof item !== 'object') continue;
      const r = item as Record<string, unknown>;
      const name = str(r.packageName) ?? str(r.package) ?? str(r.name) ?? str(r.id);
      const version = str(r.version);
      if (!name || !version) continue;
      const extra: string[] = [];
      if (str(r.core)) extra.push(`core ${str(r.core)}`);
      if (Array.isArray(r.tags) && r.tags.length > 0) {
        extra.push(
          `tags ${r.tags
            .map((t) => (typeof t === 'object' && t !== null ? str((t as { tag?: unknown }).tag) : str(t)))
            .filter(Boolean)
            .join(', ')}`,
        );
      }
      rows.push(extra.length ? { name, version, detail: extra.join(' · ') } : { name, version });
    }
    return rows;
  }
  return Object.entries(record)
    .filter(([, v]) => typeof v === 'string')
    .map(([name, version]) => ({ name, version: version as string }));
}
