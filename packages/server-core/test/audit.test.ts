import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AuditAnchor,
  type RawClient,
  auditAnchorFromEnv,
  auditValues,
  createServer,
  listAuditCheckpoints,
  silentLogger,
  verifyAuditChain,
  writeAuditCheckpoint,
} from '../src/index.js';
import { writeAudit } from '../src/platform/audit.js';
import { type TestServer, describeEachDatabase } from '../src/testing.js';

describe('audit values', () => {
  it("masks CPFs with @app/br's maskCpfPartial: ***.456.789-**, a value that is not a CPF wholly", () => {
    expect(auditValues(null, { cpf: '123.456.789-01', r: { cpfResponsavel: 12345678901 } }).depois).toEqual({
      cpf: '***.456.789-**',
      r: { cpfResponsavel: '***.456.789-**' },
    });
    // was '***' (this copy) / '' (@app/ui's) / null (@app/usuarios'): now one rule, nothing of it shown
    expect(auditValues(null, { cpf: '123', CPF: '1234567890a', cpfNovo: '' }).depois).toEqual({
      cpf: '***.***.***-**',
      CPF: '***.***.***-**',
      cpfNovo: '',
    });
  });

  it('keeps only changed fields on a change, the whole record otherwise, masking any cpf key', () => {
    expect(auditValues({ a: 1, b: 'x', cpf: '11122233344' }, { a: 1, b: 'y', cpf: '11122233344' })).toEqual({
      antes: { b: 'x' },
      depois: { b: 'y' },
    });
    expect(auditValues(null, { nome: 'N', responsavel: { cpfResponsavel: '98765432100' } })).toEqual({
      antes: null,
      depois: { nome: 'N', responsavel: { cpfResponsavel: '***.654.321-**' } },
    });
    expect(auditValues({ d: new Date('2024-01-02T03:04:05Z'), n: 1n }, undefined)).toEqual({
      antes: { d: '2024-01-02T03:04:05.000Z', n: '1' },
      depois: null,
    });
    expect(auditValues({ itens: [1, 2] }, { itens: [1, 2], novo: true })).toEqual({
      antes: { novo: null },
      depois: { novo: true },
    });
  });
});

describeEachDatabase('audit_log in the database', {}, (t) => {
  it('writes a valid hash chain', async () => {
    await t.server.signIn();
    await t.server.signIn('consulta', 'demo1234');
    const result = await verifyAuditChain(t.server.db);
    expect(result).toEqual({ ok: true, checked: 3 }); // demo seed + 2 sign-ins
    const rows = await t.server.sql<{ id: number; prev_hash: string | null; hash: string }>('SELECT id, prev_hash, hash FROM audit_log ORDER BY id');
    expect(rows.map((r) => Number(r.id))).toEqual([1, 2, 3]);
    expect(rows[0]!.prev_hash).toBeNull();
    expect(rows[1]!.prev_hash).toBe(rows[0]!.hash);
    expect(rows[2]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes many rows of one call in the order given, each chained to the one before (across statements of 5 000)', async () => {
    const [{ n } = { n: 0 }] = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    const entries = Array.from({ length: 5_003 }, (_, i) =>
      i % 2
        ? { registro: i, acao: 'alterar', antes: { cpf: '12345678909', v: 1 }, depois: { cpf: '12345678909', v: 2 } }
        : { registro: i, acao: 'criar', depois: { n: i } },
    );
    await writeAudit(t.server.db, entries, { plugin: 'teste', usuarioId: null, entidadeId: null, ip: '10.0.0.1' });
    const rows = await t.server.sql<{ id: string; registro: string; antes: unknown; depois: unknown; ip: string; prev_hash: string; hash: string }>(
      `SELECT id, registro, antes, depois, ip, prev_hash, hash FROM audit_log WHERE plugin = 'teste' ORDER BY id`,
    );
    expect(rows.map((r) => r.registro)).toEqual(entries.map((e) => String(e.registro)));
    expect(Number(rows.at(-1)!.id) - Number(rows[0]!.id)).toBe(5_002);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    expect(rows[0]).toMatchObject({ antes: null, depois: { n: 0 }, ip: '10.0.0.1' }); // SQL NULL, not JSON null
    expect(rows[1]).toMatchObject({ antes: { v: 1 }, depois: { v: 2 } }); // only what changed: the CPF did not
    const [{ nulos } = { nulos: 0 }] = await t.server.sql<{ nulos: number }>(
      `SELECT count(*)::int AS nulos FROM audit_log WHERE plugin = 'teste' AND antes IS NULL`,
    );
    expect(nulos).toBe(2_502);
    expect(await verifyAuditChain(t.server.db)).toEqual({ ok: true, checked: n + 5_003 });
  });

  it('rejects UPDATE, DELETE and TRUNCATE at the database level', async () => {
    await expect(t.server.sql("UPDATE audit_log SET acao = 'x'")).rejects.toThrow(/append-only: UPDATE/);
    await expect(t.server.sql('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE/);
    await expect(t.server.sql('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE/);
    await expect(t.server.db.execute("UPDATE audit_log SET ip = '1.2.3.4' WHERE id = (SELECT min(id) FROM audit_log)")).rejects.toThrow();
    expect((await verifyAuditChain(t.server.db)).ok).toBe(true);
  });

  it('ignores a forged id/hash on INSERT: the database assigns both', async () => {
    await t.server.sql("INSERT INTO audit_log (id, plugin, acao, prev_hash, hash) VALUES (999999, 'x', 'forjado', 'abc', 'abc')");
    const [row] = await t.server.sql<{ id: number; hash: string }>("SELECT id, hash FROM audit_log WHERE acao = 'forjado'");
    expect(Number(row!.id)).not.toBe(999999);
    expect(row!.hash).not.toBe('abc');
    expect((await verifyAuditChain(t.server.db)).ok).toBe(true);
  });

  it('detects a row tampered with while the triggers were disabled (superuser)', async () => {
    const [target] = await t.server.sql<{ id: number }>("SELECT id FROM audit_log WHERE acao = 'entrar' ORDER BY id LIMIT 1");
    await t.server.withRawClient(async (raw) => {
      await raw.exec('BEGIN');
      await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await raw.query(`UPDATE audit_log SET depois = '{"login":"outro"}' WHERE id = $1`, [target!.id]);
      await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await raw.exec('COMMIT');
    });
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: false, brokenAt: Number(target!.id), reason: 'hash_mismatch' });
  });
});

describeEachDatabase('audit_log forged rows', {}, (t) => {
  it('detects a row inserted with the chain trigger disabled', async () => {
    await t.server.signIn();
    expect((await verifyAuditChain(t.server.db)).ok).toBe(true);
    const [last] = await t.server.sql<{ id: number; hash: string }>('SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1');
    await t.server.withRawClient(async (raw) => {
      await raw.exec('BEGIN');
      await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await raw.query(`INSERT INTO audit_log (id, plugin, acao, prev_hash, hash) VALUES ($1, 'core', 'forjado', $2, repeat('0', 64))`, [
        Number(last!.id) + 1,
        last!.hash,
      ]);
      await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await raw.exec('COMMIT');
    });
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: false, brokenAt: Number(last!.id) + 1, reason: 'hash_mismatch' });
  });
});

describeEachDatabase('audit_log hash function replaced', {}, (t) => {
  it('detects a row edited after audit_log_hash() was replaced by one that returns the stored hash', async () => {
    await t.server.signIn();
    const [target] = await t.server.sql<{ id: number }>("SELECT id FROM audit_log WHERE acao = 'entrar' ORDER BY id LIMIT 1");
    await t.server.withRawClient(async (raw) => {
      await raw.exec('BEGIN');
      await raw.exec(`CREATE OR REPLACE FUNCTION audit_log_hash(
          p_prev_hash text, p_id bigint, p_at timestamptz, p_usuario_id uuid, p_entidade_id uuid,
          p_plugin text, p_registro text, p_acao text, p_antes jsonb, p_depois jsonb, p_ip text
        ) RETURNS text LANGUAGE sql STABLE AS $$ SELECT a.hash FROM audit_log a WHERE a.id = p_id $$`);
      await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await raw.query(`UPDATE audit_log SET depois = '{"login":"outro"}' WHERE id = $1`, [target!.id]);
      await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await raw.exec('COMMIT');
    });
    // what calling the (replaced) function would answer
    const [fooled] = await t.server.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log
        WHERE hash <> audit_log_hash(prev_hash, id, at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip)`,
    );
    expect(fooled!.n).toBe(0);
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: false, brokenAt: Number(target!.id), reason: 'hash_mismatch' });
  });
});

describeEachDatabase('audit_log removed rows', {}, (t) => {
  it('detects a row removed from the middle of the chain', async () => {
    await t.server.signIn('consulta', 'demo1234');
    await t.server.signIn();
    const all = await t.server.sql<{ id: number }>('SELECT id FROM audit_log ORDER BY id');
    const removed = all[all.length - 2]!.id;
    await t.server.withRawClient(async (raw) => {
      await raw.exec('BEGIN');
      await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await raw.query('DELETE FROM audit_log WHERE id = $1', [removed]);
      await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await raw.exec('COMMIT');
    });
    expect(await verifyAuditChain(t.server.db)).toMatchObject({
      ok: false,
      brokenAt: Number(all[all.length - 1]!.id),
      reason: expect.stringMatching(/broken_link|hash_mismatch/),
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Signed checkpoints: the anchor of the chain outside the database.

const anchorKey = () => randomBytes(32).toString('base64url');

/** What a superuser (or the owner of audit_log) can do: statements with the user triggers disabled. */
async function asSuperuser(server: TestServer, fn: (raw: RawClient) => Promise<void>): Promise<void> {
  await server.withRawClient(async (raw) => {
    await raw.exec('BEGIN');
    await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
    await raw.exec('ALTER TABLE audit_checkpoint DISABLE TRIGGER USER');
    try {
      await fn(raw);
    } catch (err) {
      await raw.exec('ROLLBACK');
      throw err;
    }
    await raw.exec('ALTER TABLE audit_checkpoint ENABLE TRIGGER USER');
    await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
    await raw.exec('COMMIT');
  });
}

/** Edits row `id`, then recomputes the chain from it with the database's own audit_log_hash(). */
async function editAndRecompute(raw: RawClient, id: number): Promise<void> {
  await raw.query(`UPDATE audit_log SET depois = '{"login":"outro"}' WHERE id = $1`, [id]);
  const rows = await raw.query<{ id: string | number }>('SELECT id FROM audit_log WHERE id >= $1 ORDER BY id', [id]);
  for (const row of rows) {
    await raw.query(`UPDATE audit_log SET prev_hash = (SELECT p.hash FROM audit_log p WHERE p.id < $1 ORDER BY p.id DESC LIMIT 1) WHERE id = $1`, [row.id]);
    await raw.query(
      `UPDATE audit_log SET hash = audit_log_hash(prev_hash, id, at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip)
        WHERE id = $1`,
      [row.id],
    );
  }
}

const lastIds = async (server: TestServer, n: number) =>
  (await server.sql<{ id: string | number }>('SELECT id FROM audit_log ORDER BY id DESC LIMIT $1', [n])).map((r) => Number(r.id));

describe('audit anchor configuration', () => {
  it('reads the key (or key file) and the checkpoint file from the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compras-audit-key-'));
    try {
      const key = anchorKey();
      expect(auditAnchorFromEnv({}, dir)).toBeUndefined();
      expect(auditAnchorFromEnv({ AUDIT_CHECKPOINT_KEY: key, AUDIT_CHECKPOINT_FILE: 'cp.jsonl' }, dir)).toEqual({ key, file: join(dir, 'cp.jsonl') });
      expect(() => auditAnchorFromEnv({ AUDIT_CHECKPOINT_KEY: 'curta' }, dir)).toThrow(/at least 32 characters/);
      expect(() => auditAnchorFromEnv({ AUDIT_CHECKPOINT_FILE: 'cp.jsonl' }, dir)).toThrow(/needs AUDIT_CHECKPOINT_KEY/);
      expect(() => auditAnchorFromEnv({ AUDIT_CHECKPOINT_KEY_FILE: 'nao-existe' }, dir)).toThrow(/does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const deletionKey = anchorKey();
describe('audit checkpoints across restarts', () => {
  it('warns at start when checkpoints were signed with another key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'compras-audit-rekey-'));
    try {
      const first = await createServer({ plugins: [], dataDir, auditAnchor: { key: anchorKey() }, logger: silentLogger });
      await first.close();
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
      const second = await createServer({ plugins: [], dataDir, seed: false, auditAnchor: { key: anchorKey() }, logger });
      await second.close();
      expect(warnings).toContain('1 audit checkpoint(s) were signed with another AUDIT_CHECKPOINT_KEY: verification will report them as invalid.');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describeEachDatabase('audit checkpoints: the newest rows deleted', { auditAnchor: { key: deletionKey } }, (t) => {
  it('writes a signed checkpoint at start and on demand, and verifies against it', async () => {
    const atStart = await listAuditCheckpoints(t.server.db);
    expect(atStart).toHaveLength(1); // createServer anchors the seeded trail
    expect(atStart[0]).toMatchObject({ lastId: 1, rowCount: 1 });
    expect(atStart[0]!.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(await writeAuditCheckpoint(t.server.db, { key: deletionKey })).toBeNull(); // nothing new since
    await t.server.signIn();
    await t.server.signIn('consulta', 'demo1234');
    expect(await verifyAuditChain(t.server.db)).toEqual({
      ok: true,
      checked: 3,
      anchor: { checkpoints: 1, last: { lastId: 1, rowCount: 1, at: atStart[0]!.at }, unanchored: 2 },
    });
  });

  it('detects the newest rows deleted once a checkpoint covered them', async () => {
    await t.server.signIn();
    const [newest] = await lastIds(t.server, 1);
    // what createServer does every AUDIT_CHECKPOINT_MINUTES, and at close
    expect(await writeAuditCheckpoint(t.server.db, { key: deletionKey })).toMatchObject({ lastId: newest, rowCount: 4 });
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: true, checked: 4, anchor: { checkpoints: 2, unanchored: 0 } });

    const removed = Math.min(...(await lastIds(t.server, 2)));
    await asSuperuser(t.server, async (raw) => {
      await raw.query('DELETE FROM audit_log WHERE id >= $1', [removed]);
    });
    // the chain alone still looks whole: what verify-audit answered before the checkpoints
    expect(await verifyAuditChain(t.server.db, { anchor: null })).toEqual({ ok: true, checked: 2 });
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: false, reason: 'rows_missing', brokenAt: newest, from: removed, checked: 2 });
  });
});

const recomputeKey = anchorKey();
describeEachDatabase('audit checkpoints: a row edited and the chain recomputed', { auditAnchor: { key: recomputeKey } }, (t) => {
  it('detects the rewrite at the first checkpoint after it, and names the range', async () => {
    await t.server.signIn();
    await t.server.signIn('consulta', 'demo1234');
    await t.server.signIn();
    const [newest] = await lastIds(t.server, 1);
    await writeAuditCheckpoint(t.server.db, { key: recomputeKey });
    await t.server.signIn(); // after the checkpoint: not covered yet
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: true, checked: 5, anchor: { checkpoints: 2, unanchored: 1 } });

    const [edited] = await t.server.sql<{ id: string | number }>("SELECT id FROM audit_log WHERE acao = 'entrar' ORDER BY id LIMIT 1 OFFSET 1");
    await asSuperuser(t.server, (raw) => editAndRecompute(raw, Number(edited!.id)));
    // every hash and link is consistent again: the chain alone cannot tell
    expect(await verifyAuditChain(t.server.db, { anchor: null })).toEqual({ ok: true, checked: 5 });
    // the checkpoint signed row `newest`'s old hash; the one at start (row 1) still matches
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: false, reason: 'checkpoint_mismatch', brokenAt: newest, from: 2 });
  });
});

const fileKey = anchorKey();
const fileDir = mkdtempSync(join(tmpdir(), 'compras-audit-cp-'));
afterAll(() => rmSync(fileDir, { recursive: true, force: true }));
describeEachDatabase('audit checkpoints: rows and checkpoints deleted, a checkpoint file outside the database', {}, (t) => {
  it('still detects the deletion from the checkpoints in the file', async () => {
    const anchor: AuditAnchor = { key: fileKey, file: join(fileDir, `${t.engine}.jsonl`) };
    await t.server.signIn();
    await t.server.signIn();
    const [newest] = await lastIds(t.server, 1);
    const written = await writeAuditCheckpoint(t.server.db, anchor);
    expect(JSON.parse(readFileSync(anchor.file!, 'utf8').trim())).toEqual(written);

    await asSuperuser(t.server, async (raw) => {
      await raw.query('DELETE FROM audit_log WHERE id = $1', [newest]);
      await raw.exec('DELETE FROM audit_checkpoint');
    });
    // with only the database's checkpoints (all gone) nothing is left to compare with
    expect(await verifyAuditChain(t.server.db, { anchor: { key: fileKey } })).toMatchObject({ ok: true, anchor: { checkpoints: 0 } });
    expect(await verifyAuditChain(t.server.db, { anchor })).toMatchObject({ ok: false, reason: 'rows_missing', brokenAt: newest, from: newest });
  });

  it('refuses a checkpoint it cannot verify (forged, or signed with another key)', async () => {
    const anchor: AuditAnchor = { key: fileKey };
    await t.server.signIn();
    await writeAuditCheckpoint(t.server.db, { key: anchorKey() });
    expect(await verifyAuditChain(t.server.db, { anchor })).toMatchObject({ ok: false, reason: 'checkpoint_invalid' });
  });

  it('cannot see rows deleted before any checkpoint covered them (the documented limit)', async () => {
    const server = t.server;
    await asSuperuser(server, (raw) => raw.exec('DELETE FROM audit_checkpoint'));
    const anchor: AuditAnchor = { key: anchorKey() };
    await writeAuditCheckpoint(server.db, anchor);
    await server.signIn();
    const [newest] = await lastIds(server, 1);
    await asSuperuser(server, async (raw) => {
      await raw.query('DELETE FROM audit_log WHERE id = $1', [newest]);
    });
    expect(await verifyAuditChain(server.db, { anchor })).toMatchObject({ ok: true, anchor: { unanchored: 0 } });
  });
});
