import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';
import { CORE_MIGRATIONS_DIR } from '../../paths.js';
import type { ServerPlugin } from '../plugin.js';
import { openDatabase, redactUrl } from './open.js';
import type { Database, RawClient } from './types.js';

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

export interface RunMigrationsOptions {
  /**
   * PostgreSQL only: URL of the role that owns the schema (env MIGRATION_DATABASE_URL). Migrations run
   * as it, then it grants the role of `database` (the app's, DATABASE_URL) what the app needs: SELECT,
   * INSERT, UPDATE, DELETE on every table, except SELECT and INSERT only on audit_log and
   * audit_checkpoint and SELECT only on _migrations. The app role then cannot change, delete or
   * truncate the audit trail, nor disable its triggers (it owns nothing).
   */
  migrationDatabaseUrl?: string | undefined;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What the app role may do, granted by the owner after migrating (idempotent, at every start). */
async function grantAppRole(raw: RawClient, appRole: string): Promise<void> {
  const app = ident(appRole);
  await raw.exec(`
    GRANT USAGE ON SCHEMA public TO ${app};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${app};
    REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON _migrations FROM ${app};
    REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_log, audit_checkpoint FROM ${app};
  `);
}

interface RoleFacts {
  role: string;
  superuser: boolean;
  /** Owns audit_log (null before it exists). */
  owner: boolean | null;
  /** Holds UPDATE, DELETE or TRUNCATE on audit_log. */
  canChange: boolean | null;
}

/** Why the app role can change the audit trail, or null when it cannot. */
function exposure(facts: RoleFacts): string | null {
  if (facts.superuser) return 'is a superuser (it can disable the append-only triggers, then delete or edit rows)';
  if (facts.owner) return 'owns audit_log (it can disable the append-only triggers, then delete or edit rows)';
  if (facts.canChange) return 'holds UPDATE, DELETE or TRUNCATE on audit_log (only the triggers stop it)';
  return null;
}

async function roleFacts(raw: RawClient): Promise<RoleFacts> {
  const [row] = await raw.query<RoleFacts>(`
    SELECT current_user::text AS role,
           (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
           (SELECT pg_get_userbyid(relowner) = current_user FROM pg_class WHERE oid = to_regclass('audit_log')) AS owner,
           CASE WHEN to_regclass('audit_log') IS NULL THEN NULL
                ELSE has_table_privilege('audit_log', 'UPDATE') OR has_table_privilege('audit_log', 'DELETE')
                  OR has_table_privilege('audit_log', 'TRUNCATE') END AS "canChange"`);
  return row!;
}

/**
 * Runs server-core's migrations, then each plugin's (plugins in dependency order, files in name order),
 * each file in its own transaction together with its `_migrations` row. Files must not contain
 * BEGIN/COMMIT. Safe to call at every start and from several instances at once.
 *
 * With `migrationDatabaseUrl` (PostgreSQL) they run as that owner role, which then grants the app role
 * (see RunMigrationsOptions). On PostgreSQL, the logger is warned when the app role can still change the
 * audit trail (no owner role, or the app role is a superuser or owns audit_log).
 */
export async function runMigrations(
  database: Database,
  plugins: readonly ServerPlugin[],
  logger?: Logger,
  options: RunMigrationsOptions = {},
): Promise<MigrationResult> {
  const ownerUrl = options.migrationDatabaseUrl || undefined;
  if (ownerUrl && database.engine !== 'postgres') {
    throw new Error('MIGRATION_DATABASE_URL is for PostgreSQL: set DATABASE_URL too (the embedded database has no roles).');
  }
  if (!ownerUrl) {
    const result = await migrateAs(database, plugins, logger);
    if (database.engine === 'postgres') {
      const facts = await database.withRawClient(roleFacts);
      const why = exposure(facts);
      if (why) {
        logger?.warn(
          `MIGRATION_DATABASE_URL is not set: migrations run as the app role '${facts.role}', which ${why}. Run the app as a role ` +
            'that can only read and insert the audit trail, with migrations run by an owner role (README, "PostgreSQL: two roles").',
        );
      }
    }
    return result;
  }
  const app = await database.withRawClient(roleFacts);
  const owner = await openDatabase({ databaseUrl: ownerUrl, poolMax: 1, logger });
  try {
    const ownerRole = await owner.withRawClient(roleFacts);
    if (ownerRole.role === app.role) {
      throw new Error(
        `MIGRATION_DATABASE_URL (${redactUrl(ownerUrl)}) connects as '${app.role}', the same role as DATABASE_URL: use an owner role distinct from the app role.`,
      );
    }
    const result = await migrateAs(owner, plugins, logger, (raw) => grantAppRole(raw, app.role));
    const after = await database.withRawClient(roleFacts);
    const why = exposure(after);
    if (why) logger?.warn(`the app role '${after.role}' ${why}: see README, "PostgreSQL: two roles".`);
    return result;
  } finally {
    await owner.close();
  }
}

async function migrateAs(
  database: Database,
  plugins: readonly ServerPlugin[],
  logger: Logger | undefined,
  afterMigrations?: (raw: RawClient) => Promise<void>,
): Promise<MigrationResult> {
  const sources: { owner: string; dir: URL | string }[] = [{ owner: 'core', dir: CORE_MIGRATIONS_DIR }];
  for (const plugin of plugins) if (plugin.migrations) sources.push({ owner: plugin.id, dir: plugin.migrations });
  const listed = await Promise.all(sources.map(async (s) => ({ owner: s.owner, ...(await sqlFiles(s.owner, s.dir)) })));

  return database.withRawClient(async (raw) => {
    await raw.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK]);
    try {
      // Already there: no DDL, so an app role without CREATE can start on a database its owner migrated.
      const [{ exists } = { exists: false }] = await raw.query<{ exists: boolean }>("SELECT to_regclass('_migrations') IS NOT NULL AS exists");
      if (!exists)
        await raw.exec(`CREATE TABLE IF NOT EXISTS _migrations (
        plugin text NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (plugin, name)
      )`);
      const done = new Set((await raw.query<{ plugin: string; name: string }>('SELECT plugin, name FROM _migrations')).map((r) => `${r.plugin}/${r.name}`));
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
          logger?.info(`migração aplicada: ${key}`);
        }
      }
      await afterMigrations?.(raw);
      return { applied };
    } finally {
      await raw.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}
