// 'Verificar integridade' against the signed checkpoints: the two rewrites the hash chain alone cannot
// see, done in the database as a superuser would (user triggers disabled).
import { randomBytes } from 'node:crypto';
import { type RawClient, writeAuditCheckpoint } from '@app/server-core';
import { type TestServer, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import auditoria from '../../src/server/index.js';
import type { Verificacao } from '../../src/shared/index.js';

async function asSuperuser(server: TestServer, fn: (raw: RawClient) => Promise<void>): Promise<void> {
  await server.withRawClient(async (raw) => {
    await raw.exec('BEGIN');
    await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
    await fn(raw);
    await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
    await raw.exec('COMMIT');
  });
}

async function verificar(server: TestServer, token: string): Promise<Verificacao> {
  const res = await server.request('/api/auditoria/verificacao', { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Verificacao;
}

async function addRows(server: TestServer, n: number): Promise<number> {
  for (let i = 0; i < n; i++) await server.sql("INSERT INTO audit_log (plugin, acao, registro) VALUES ('auditoria', 'teste', $1)", [String(i)]);
  const [row] = await server.sql<{ id: string | number }>('SELECT max(id) AS id FROM audit_log');
  return Number(row!.id);
}

describeEachDatabase('GET /api/auditoria/verificacao without a checkpoint key', { plugins: [auditoria], auditAnchor: null }, (t) => {
  it('says the trail has no external anchor', async () => {
    const { token } = await t.server.signIn();
    const body = await verificar(t.server, token);
    expect(body.ok).toBe(true);
    expect(body.ancora).toMatch(/^Sem âncora externa \(AUDIT_CHECKPOINT_KEY não configurada\)/);
  });
});

const deletionKey = randomBytes(32).toString('hex');
describeEachDatabase('GET /api/auditoria/verificacao: newest rows deleted', { plugins: [auditoria], auditAnchor: { key: deletionKey } }, (t) => {
  let token = '';
  beforeAll(async () => {
    token = (await t.server.signIn()).token;
  });

  it('reports the anchor, then the rows removed after a checkpoint covered them', async () => {
    const newest = await addRows(t.server, 4);
    await writeAuditCheckpoint(t.server.db, { key: deletionKey });
    const intact = await verificar(t.server, token);
    expect(intact.ok).toBe(true);
    expect(intact.ancora).toMatch(
      new RegExp(`^Âncora externa: 2 ponto\\(s\\) de controle assinado\\(s\\) conferido\\(s\\); o último, de .+, cobre até o registro nº ${newest} `),
    );

    await asSuperuser(t.server, async (raw) => {
      await raw.query('DELETE FROM audit_log WHERE id > $1', [newest - 2]);
    });
    const body = await verificar(t.server, token);
    expect(body).toMatchObject({ ok: false, reason: 'rows_missing', brokenAt: newest });
    expect(body.mensagem).toBe(
      `Trilha violada: registros removidos: um ponto de controle assinado registrou a trilha até o nº ${newest}, mas faltam registros a partir do nº ${newest - 1}.`,
    );
  });
});

const recomputeKey = randomBytes(32).toString('hex');
describeEachDatabase('GET /api/auditoria/verificacao: chain recomputed', { plugins: [auditoria], auditAnchor: { key: recomputeKey } }, (t) => {
  it('reports the checkpoint whose hash no longer matches', async () => {
    const { token } = await t.server.signIn();
    const newest = await addRows(t.server, 3);
    await writeAuditCheckpoint(t.server.db, { key: recomputeKey });
    const edited = newest - 1;
    await asSuperuser(t.server, async (raw) => {
      await raw.query(`UPDATE audit_log SET acao = 'adulterado' WHERE id = $1`, [edited]);
      for (const id of [edited, newest]) {
        await raw.query('UPDATE audit_log SET prev_hash = (SELECT p.hash FROM audit_log p WHERE p.id < $1 ORDER BY p.id DESC LIMIT 1) WHERE id = $1', [id]);
        await raw.query(
          'UPDATE audit_log SET hash = audit_log_hash(prev_hash, id, at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip) WHERE id = $1',
          [id],
        );
      }
    });
    const body = await verificar(t.server, token);
    expect(body).toMatchObject({ ok: false, reason: 'checkpoint_mismatch', brokenAt: newest });
    expect(body.mensagem).toMatch(new RegExp(`^Trilha violada: o registro nº ${newest} não tem o hash que o ponto de controle assinado registrou`));
  });
});
