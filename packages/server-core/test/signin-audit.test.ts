// Issue 8: refused and blocked sign-ins are recorded in a bounded way. Each (login, address, window)
// gets one audit row for its first refusal and one for its first block (the audit chain's global lock
// is taken twice, not 300 times); every attempt is counted in tentativas_entrada.
import { expect, it } from 'vitest';
import { verifyAuditChain } from '../src/index.js';
import { type TestServer, createManualClock, describeEachDatabase } from '../src/testing.js';
import { addUser } from './fixtures/users.js';

const clock = createManualClock(new Date('2026-03-02T12:00:00Z'));
const MINUTE = 60_000;

function signin(server: TestServer, login: string, senha: string, ip: string) {
  return server.request('/api/auth/signin', { json: { login, senha }, headers: { 'x-forwarded-for': ip } });
}

async function auditOf(server: TestServer, login: string) {
  return server.sql<{ acao: string; depois: { login: string; tentativas?: number } }>(
    "SELECT acao, depois FROM audit_log WHERE lower(depois->>'login') = $1 AND acao LIKE 'entrar%' ORDER BY id",
    [login],
  );
}

// 10 failures per account and address: 10 real scrypt verifications, then 290 refusals without one.
describeEachDatabase('refused sign-ins in the audit trail', { clock, trustProxy: true, throttle: { accountMaxFailures: 10, ipMaxFailures: 10 } }, (t) => {
  it('300 refused sign-ins add 2 audit rows (first refusal, first block); the counts are kept in tentativas_entrada', async () => {
    const userId = await addUser(t.server, 'insistente');
    const [before] = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await signin(t.server, 'insistente', `errada-${i}`, '10.6.0.1')).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(290);

    const [after] = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(after!.n - before!.n).toBe(2);
    const audit = await auditOf(t.server, 'insistente');
    expect(audit.map((r) => r.acao)).toEqual(['entrar_falhou', 'entrar_bloqueado']);

    const rows = await t.server.sql<{ login: string; ip: string; usuario_id: string; falhas: number; bloqueios: number }>(
      'SELECT login, ip, usuario_id, falhas, bloqueios FROM tentativas_entrada WHERE login = $1',
      ['insistente'],
    );
    expect(rows).toEqual([{ login: 'insistente', ip: '10.6.0.1', usuario_id: userId, falhas: 10, bloqueios: 290 }]);
    // 300 requests in a row (10 scrypt checks): about 10 s alone, up to 30 s on a loaded 2-core machine
  }, 120_000);

  it('a new window, or another address, gets its own first audit row', async () => {
    clock.advance(16 * MINUTE);
    expect((await signin(t.server, 'INSISTENTE', 'errada', '10.6.0.1')).status).toBe(401);
    expect((await signin(t.server, 'insistente', 'errada', '10.6.0.1')).status).toBe(401);
    expect((await signin(t.server, 'insistente', 'errada', '10.6.0.2')).status).toBe(401);
    const audit = await auditOf(t.server, 'insistente');
    expect(audit.map((r) => r.acao)).toEqual(['entrar_falhou', 'entrar_bloqueado', 'entrar_falhou', 'entrar_falhou']);
    const rows = await t.server.sql<{ ip: string; falhas: number }>('SELECT ip, falhas FROM tentativas_entrada WHERE login = $1 ORDER BY janela, ip', [
      'insistente',
    ]);
    expect(rows).toEqual([
      { ip: '10.6.0.1', falhas: 10 },
      { ip: '10.6.0.1', falhas: 2 },
      { ip: '10.6.0.2', falhas: 1 },
    ]);
  });

  it('keeps the audit chain valid', async () => {
    expect((await verifyAuditChain(t.server.db)).ok).toBe(true);
  });
});
