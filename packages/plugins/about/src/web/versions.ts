/** Tag of the '/about/sistema' page (technical details; administrators). */
export const SYSTEM_TAG = 3;

import type { Versions } from '../shared/index';

/** One row of the server table. */
export interface ServerVersionRow {
  name: string;
  version: string;
  detail?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function isVersions(data: unknown): data is Versions {
  return typeof data === 'object' && data !== null && typeof (data as Versions).core === 'string' && Array.isArray((data as Versions).plugins);
}

/**
 * Rows of GET /api/about/versions: `{ core, plugins }` as in ../shared (server-core first, then
 * each server plugin with its core range, tags and dependencies). Tolerant of a plain list or a
 * `{ name: version }` map, so an older or newer server never breaks the page.
 */
export function toServerRows(data: unknown): ServerVersionRow[] {
  if (isVersions(data)) {
    return [
      { name: '@app/server-core', version: data.core },
      ...data.plugins.map((p) => {
        const extra = [`core ${p.core}`];
        if (p.tags.length) extra.push(`tags ${p.tags.map((t) => `${t.tag} (${t.nome})`).join(', ')}`);
        if (p.dependsOn.length) extra.push(`depende de ${p.dependsOn.join(', ')}`);
        return { name: p.id, version: p.version, detail: extra.join(' · ') };
      }),
    ];
  }
  if (!data || typeof data !== 'object') return [];
  const record = data as Record<string, unknown>;
  const list: unknown[] | null = Array.isArray(data) ? data : Array.isArray(record.items) ? record.items : null;
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
