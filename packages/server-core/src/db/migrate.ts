import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';
import { CORE_MIGRATIONS_DIR } from '../paths.js';
import type { ServerPlugin } from '../plugin.js';
import type { Database } from './types.js';

/** Advisory lock held while migrating, so instances starting together migrate one at a time. */
const MIGRATION_LOCK = 7250310002;

function toPath(dir: URL | string): string {
  if (dir instanceof URL) return fileURLToPath(dir);
  if (dir.startsWith('file:')) return fileURLToPath(dir);
  return resolve(dir);
}

async function sqlFiles(owner: string, dir: URL | string): Promise<{ dir: string; names: string[] }> {
  const path = toPath(dir);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new Error(`Migrations of '${owner}': folder ${path} does not exist.`);
  }
  const names = (await readdir(path)).filter((name) => name.endsWith('.sql')).sort();
  return { dir: path, names };
}

export interface MigrationResult {
  /** `plugin/file.sql` of every migration applied now. */
  applied: string[];
}

/**
 * Runs server-core's migrations, then each plugin's (plugins in dependency order, files in name order),
 * each file in its own transaction together with its `_migrations` row. Files must not contain
 * BEGIN/COMMIT. Safe to call at every start and from several instances at once.
 */
export async function runMigrations(
  database: Database,
  plugins: readonly ServerPlugin[],
  logger?: Logger,
): Promise<MigrationResult> {
  const sources: { owner: string; dir: URL | string }[] = [{ owner: 'core', dir: CORE_MIGRATIONS_DIR }];
  for (const plugin of plugins) if (plugin.migrations) sources.push({ owner: plugin.id, dir: plugin.migrations });
  const listed = await Promise.all(sources.map(async (s) => ({ owner: s.owner, ...(await sqlFiles(s.owner, s.dir)) })));

  return database.withRawClient(async (raw) => {
    await raw.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK]);
    try {
      await raw.exec(`CREATE TABLE IF NOT EXISTS _migrations (
        plugin text NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (plugin, name)
      )`);
      const done = new Set(
        (await raw.query<{ plugin: string; name: string }>('SELECT plugin, name FROM _migrations')).map(
          (r) => `${r.plugin}/${r.name}`,
        ),
      );
      const applied: string[] = [];
      for (const source of listed) {
        for (const name of source.names) {
          const key = `${source.owner}/${name}`;
          if (done.has(key)) continue;
          const text = await readFile(join(source.dir, name), 'utf8');
          await raw.exec('BEGIN');
          try {
            await raw.exec(text);
            await raw.query('INSERT INTO _migrations (plugin, name) VALUES ($1, $2)', [source.owner, name]);
            await raw.exec('COMMIT');
          } catch (err) {
            await raw.exec('ROLLBACK').catch(() => undefined);
            throw new Error(`Migration ${key} failed: ${(err as Error).message}`, { cause: err });
          }
          applied.push(key);
          logger?.info(`migration applied: ${key}`);
        }
      }
      return { applied };
    } finally {
      await raw.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}
