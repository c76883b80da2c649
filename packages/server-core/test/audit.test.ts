import { describe, expect, it } from 'vitest';
import { auditValues, maskCpf, verifyAuditChain } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

describe('audit values', () => {
  it('masks CPFs as ***.456.789-**', () => {
    expect(maskCpf('123.456.789-01')).toBe('***.456.789-**');
    expect(maskCpf('12345678901')).toBe('***.456.789-**');
    expect(maskCpf('123')).toBe('***');
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
    const rows = await t.server.sql<{ id: number; prev_hash: string | null; hash: string }>(
      'SELECT id, prev_hash, hash FROM audit_log ORDER BY id',
    );
    expect(rows.map((r) => Number(r.id))).toEqual([1, 2, 3]);
    expect(rows[0]!.prev_hash).toBeNull();
    expect(rows[1]!.prev_hash).toBe(rows[0]!.hash);
    expect(rows[2]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects UPDATE, DELETE and TRUNCATE at the database level', async () => {
    await expect(t.server.sql("UPDATE audit_log SET acao = 'x'")).rejects.toThrow(/append-only: UPDATE/);
    await expect(t.server.sql('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE/);
    await expect(t.server.sql('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE/);
    await expect(t.server.db.execute("UPDATE audit_log SET ip = '1.2.3.4' WHERE id = (SELECT min(id) FROM audit_log)")).rejects.toThrow();
    expect((await verifyAuditChain(t.server.db)).ok).toBe(true);
  });

  it('ignores a forged id/hash on INSERT: the database assigns both', async () => {
    await t.server.sql(
      "INSERT INTO audit_log (id, plugin, acao, prev_hash, hash) VALUES (999999, 'x', 'forjado', 'abc', 'abc')",
    );
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
      await raw.query(
        `INSERT INTO audit_log (id, plugin, acao, prev_hash, hash) VALUES ($1, 'core', 'forjado', $2, repeat('0', 64))`,
        [Number(last!.id) + 1, last!.hash],
      );
      await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
      await raw.exec('COMMIT');
    });
    expect(await verifyAuditChain(t.server.db)).toMatchObject({ ok: false, brokenAt: Number(last!.id) + 1, reason: 'hash_mismatch' });
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
