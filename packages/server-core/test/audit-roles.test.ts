// PostgreSQL with two roles: an owner that migrates, and the app role, which may only read and insert
// the audit trail. On a fresh database and two fresh roles (neither a superuser) created on the server at
// TEST_DATABASE_URL, set up as README's "PostgreSQL: two roles" says, and dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComposedServer, type Logger, createServer, openDatabase, runMigrations, verifyAuditChain } from '../src/index.js';
import { requireTestDatabaseUrl, testEngines } from '../src/testing.js';
import { TESTE_TAG, testPlugin } from './fixtures/test-plugin.js';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined };
}

describe('MIGRATION_DATABASE_URL on the embedded database', () => {
  it('is refused: PGlite has no roles', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await expect(runMigrations(database, [], undefined, { migrationDatabaseUrl: 'postgres://dono@localhost/compras' })).rejects.toThrow(
        /MIGRATION_DATABASE_URL is for PostgreSQL/,
      );
    } finally {
      await database.close();
    }
  });
});

// declared whenever testEngines() has 'postgres': with TEST_DATABASE_URL, and in CI without it (then
// requireTestDatabaseUrl fails the suite with a clear message instead of letting it vanish)
for (const engine of testEngines().filter((e) => e === 'postgres')) {
  describe(`PostgreSQL: an owner role migrates, the app role cannot change the audit trail [${engine}]`, () => {
    const base = requireTestDatabaseUrl();
    const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const owner = `compras_owner_${suffix}`;
    const appRole = `compras_app_${suffix}`;
    const dbName = `compras_roles_${suffix}`;
    const urlOf = (role: string) => {
      const url = new URL(base);
      url.username = role;
      url.password = 'senha-de-teste';
      url.pathname = `/${dbName}`;
      return url.toString();
    };
    const ownerUrl = urlOf(owner);
    const appUrl = urlOf(appRole);
    const asSuperuserOn = async (database: string, fn: (client: pg.Client) => Promise<void>) => {
      const url = new URL(base);
      url.pathname = `/${database}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await fn(client);
      } finally {
        await client.end();
      }
    };
    const logger = recordingLogger();
    let server: ComposedServer | undefined;
    let created = false;

    beforeAll(async () => {
      await asSuperuserOn(new URL(base).pathname.slice(1) || 'postgres', async (admin) => {
        await admin.query(`CREATE ROLE ${owner} LOGIN PASSWORD 'senha-de-teste' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
        await admin.query(`CREATE ROLE ${appRole} LOGIN PASSWORD 'senha-de-teste' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
        await admin.query(`CREATE DATABASE ${dbName} OWNER ${owner}`);
        created = true;
      });
      // the README's setup, inside the new database
      await asSuperuserOn(dbName, async (admin) => {
        await admin.query(`
          REVOKE ALL ON DATABASE ${dbName} FROM PUBLIC;
          GRANT CONNECT, TEMPORARY ON DATABASE ${dbName} TO ${appRole};
          REVOKE CREATE ON SCHEMA public FROM PUBLIC;
          GRANT USAGE ON SCHEMA public TO ${appRole};
          ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${appRole};
          ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${appRole};`);
      });
      server = await createServer({
        plugins: [testPlugin],
        databaseUrl: appUrl,
        migrationDatabaseUrl: ownerUrl,
        seed: true,
        auditAnchor: null,
        jwtSecret: randomBytes(32).toString('hex'),
        logger,
      });
    });

    afterAll(async () => {
      await server?.close();
      if (!created) return;
      await asSuperuserOn(new URL(base).pathname.slice(1) || 'postgres', async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${appRole}`);
        await admin.query(`DROP ROLE IF EXISTS ${owner}`);
      });
    });

    const request = (path: string, init: { token?: string; json?: unknown } = {}) =>
      server!.app.request(path, {
        method: init.json === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });

    it('runs as the app role: the owner migrated, the app signs in, creates and audits', async () => {
      const [who] = await server!.database.withRawClient((raw) =>
        raw.query<{ role: string; superuser: boolean; owner: string }>(
          `SELECT current_user::text AS role, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
                  pg_get_userbyid(relowner)::text AS owner FROM pg_class WHERE oid = 'audit_log'::regclass`,
        ),
      );
      expect(who).toEqual({ role: appRole, superuser: false, owner });
      expect(logger.warnings.filter((w) => /audit_log|MIGRATION_DATABASE_URL/.test(w))).toEqual([]);

      const signin = await request('/api/auth/signin', { json: { login: 'admin', senha: 'demo1234' } });
      expect(signin.status).toBe(200);
      const { token } = (await signin.json()) as { token: string };
      const createdItem = await request('/api/teste/itens', { token, json: { nome: 'Item do papel app', quantidade: 2 } });
      expect(createdItem.status).toBe(201);
      expect(TESTE_TAG).toBe(24);

      const rows = await server!.database.withRawClient((raw) => raw.query<{ acao: string; plugin: string }>('SELECT acao, plugin FROM audit_log ORDER BY id'));
      expect(rows.slice(-2)).toEqual([
        { acao: 'entrar', plugin: 'core' },
        { acao: 'criar', plugin: 'teste' },
      ]);
      expect(await verifyAuditChain(server!.db)).toEqual({ ok: true, checked: rows.length });
    });

    it('refuses the app role disabling the triggers, deleting, updating or truncating the audit trail', async () => {
      const app = new pg.Client({ connectionString: appUrl });
      await app.connect();
      try {
        const attempt = (text: string) =>
          app.query(text).then(
            () => 'executed',
            (err: { code?: string; message: string }) => `${err.code}: ${err.message}`,
          );
        expect(await attempt('ALTER TABLE audit_log DISABLE TRIGGER USER')).toBe('42501: must be owner of table audit_log');
        expect(await attempt('DELETE FROM audit_log')).toBe('42501: permission denied for table audit_log');
        expect(await attempt("UPDATE audit_log SET acao = 'x'")).toBe('42501: permission denied for table audit_log');
        expect(await attempt('TRUNCATE audit_log')).toBe('42501: permission denied for table audit_log');
        expect(await attempt('DROP TABLE audit_log')).toBe('42501: must be owner of table audit_log');
        expect(await attempt('ALTER TABLE audit_checkpoint DISABLE TRIGGER USER')).toBe('42501: must be owner of table audit_checkpoint');
        expect(await attempt('DELETE FROM audit_checkpoint')).toBe('42501: permission denied for table audit_checkpoint');
        expect(await attempt("SELECT setval('audit_log_id_seq', 1)")).toBe('42501: permission denied for sequence audit_log_id_seq');
        expect(await attempt('CREATE OR REPLACE FUNCTION audit_log_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$')).toBe(
          '42501: permission denied for schema public',
        );
        expect(await attempt('ALTER FUNCTION audit_log_reject_change() RENAME TO neutralizada')).toBe(
          '42501: must be owner of function audit_log_reject_change',
        );
        expect(await attempt("UPDATE _migrations SET name = 'x'")).toBe('42501: permission denied for table _migrations');
        // a temporary audit_log no longer changes what the chain trigger reads as the previous row
        await app.query('CREATE TEMP TABLE audit_log (id bigint, hash text)');
        await app.query("INSERT INTO pg_temp.audit_log VALUES (1000000, 'forjado')");
        await app.query("INSERT INTO public.audit_log (plugin, acao) VALUES ('teste', 'sonda')");
        // what it may do: read and append (the database computes the chain)
        expect(await attempt('SELECT count(*) FROM public.audit_log')).toBe('executed');
      } finally {
        await app.end();
      }
      expect((await verifyAuditChain(server!.db)).ok).toBe(true);

      // the contrast: the owner (what the app role was with a single role) can do all of it
      const ownerClient = new pg.Client({ connectionString: ownerUrl });
      await ownerClient.connect();
      try {
        await ownerClient.query('BEGIN');
        await ownerClient.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
        expect((await ownerClient.query('DELETE FROM audit_log')).rowCount).toBeGreaterThan(0);
        await ownerClient.query('ROLLBACK');
      } finally {
        await ownerClient.end();
      }
      expect((await verifyAuditChain(server!.db)).ok).toBe(true);
    });

    it('starts as the app role alone on the migrated database, and warns when one role does everything', async () => {
      const alone = recordingLogger();
      const appOnly = await createServer({ plugins: [testPlugin], databaseUrl: appUrl, migrationDatabaseUrl: '', auditAnchor: null, logger: alone });
      await appOnly.close();
      expect(alone.warnings.filter((w) => /MIGRATION_DATABASE_URL|audit_log/.test(w))).toEqual([]);

      const single = recordingLogger();
      const ownerOnly = await createServer({ plugins: [testPlugin], databaseUrl: ownerUrl, migrationDatabaseUrl: '', auditAnchor: null, logger: single });
      await ownerOnly.close();
      expect(single.warnings).toContainEqual(
        expect.stringMatching(/^MIGRATION_DATABASE_URL is not set: migrations run as the app role '[^']+', which owns audit_log/),
      );
    });
  });
}
