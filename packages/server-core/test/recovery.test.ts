import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { INVALID_RECOVERY_LINK_MESSAGE, RECOVER_MESSAGE, SENHA_MESSAGES, verifyAuditChain } from '../src/index.js';
import { type TestServer, createManualClock, createTestServer, describeEachDatabase } from '../src/testing.js';
import { addUser, adminInPrefeitura, errorOf } from './fixtures/users.js';

type Outbox = { items: { id: string; to: string; subject: string; body: string; createdAt: string }[]; total: number; page: number; pageSize: number };

const clock = createManualClock();

async function recover(server: TestServer, login: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const res = await server.request('/api/auth/recover', { json: { login }, headers });
  return { res, ms: performance.now() - started };
}

const adminTokens = new WeakMap<TestServer, string>();

/** The outbox as the demo admin of the Prefeitura sees it (signs in again when the clock moved past the token). */
async function outbox(server: TestServer, query = ''): Promise<Outbox> {
  let token = adminTokens.get(server);
  let res = token ? await server.request(`/api/auth/outbox${query}`, { token }) : null;
  if (!res || res.status === 401) {
    token = await adminInPrefeitura(server);
    adminTokens.set(server, token);
    res = await server.request(`/api/auth/outbox${query}`, { token });
  }
  expect(res.status).toBe(200);
  return (await res.json()) as Outbox;
}

/** The recovery token of the newest e-mail to `to`. */
async function linkTokenFor(server: TestServer, to: string): Promise<string> {
  const { items } = await outbox(server, `?q=${encodeURIComponent(to)}`);
  const message = items.find((m) => m.to === to);
  expect(message, `e-mail to ${to}`).toBeDefined();
  const match = /\/recoveryPass\?token=([A-Za-z0-9_-]+)/.exec(message!.body);
  expect(match).not.toBeNull();
  return match![1]!;
}

describeEachDatabase('password recovery', { clock }, (t) => {
  it('answers 202 with the same message, never before the floor, whether or not the account exists', async () => {
    await addUser(t.server, 'rita');
    const known = await recover(t.server, 'rita');
    const unknown = await recover(t.server, 'ninguem.aqui');
    const byEmail = await recover(t.server, 'RITA@exemplo.gov.br');
    for (const { res } of [known, unknown, byEmail]) {
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ message: RECOVER_MESSAGE });
    }
    // a floor of 250 ms hides the work done only for a real account (timing compared in the test below)
    for (const { ms } of [known, unknown, byEmail]) expect(ms).toBeGreaterThanOrEqual(245);

    // two e-mails (login and e-mail of rita), none for the unknown login
    const { items, total } = await outbox(t.server, '?q=rita');
    expect(total).toBe(2);
    expect(items.map((m) => m.to)).toEqual(['rita@exemplo.gov.br', 'rita@exemplo.gov.br']);
    expect(items[0]!.subject).toBe('Compras: criar nova senha');
    expect(items[0]!.body).toContain('Olá, Usuário rita.');
    expect(items[0]!.body).toContain('em até 30 minutos');
    // PUBLIC_URL unset: http://localhost:<PORT> (recovery-origin.test.ts: never the request's Host)
    expect(items[0]!.body).toContain(`\nhttp://localhost:${process.env.PORT || 3000}/recoveryPass?token=`);
    const rows = await t.server.sql<{ acao: string; depois: { login: string; conta?: string; enviado?: boolean } }>(
      "SELECT acao, depois FROM audit_log WHERE acao = 'recuperar_senha' ORDER BY id",
    );
    expect(rows.map((r) => [r.depois.login, r.depois.conta ?? r.depois.enviado])).toEqual([
      ['rita', true],
      ['ninguem.aqui', 'inexistente'],
      ['RITA@exemplo.gov.br', true],
    ]);
  });

  it('stores only the sha256 of the 32-byte token', async () => {
    const token = await linkTokenFor(t.server, 'rita@exemplo.gov.br');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await t.server.sql<{ token_hash: string }>('SELECT token_hash FROM password_resets');
    expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    const dump = JSON.stringify(await t.server.sql('SELECT * FROM password_resets'));
    expect(dump).not.toContain(token);
  });

  it('sets the new password once, ends every session of the user, and the old password stops working', async () => {
    await addUser(t.server, 'bruno');
    const a = await t.server.signIn('bruno', 'demo1234');
    const b = await t.server.signIn('bruno', 'demo1234');
    await recover(t.server, 'bruno');
    const token = await linkTokenFor(t.server, 'bruno@exemplo.gov.br');

    const reset = await t.server.request('/api/auth/reset', { json: { token, senha: 'cavalo correto bateria grampo' } });
    expect(reset.status).toBe(204);
    for (const session of [a, b]) {
      const res = await t.server.request('/api/session', { token: session.token });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).message).toBe('Sessão encerrada. Entre novamente.');
    }
    expect((await t.server.request('/api/auth/signin', { json: { login: 'bruno', senha: 'demo1234' } })).status).toBe(401);
    await t.server.signIn('bruno', 'cavalo correto bateria grampo');

    // single use
    const again = await t.server.request('/api/auth/reset', { json: { token, senha: 'outra frase bem comprida' } });
    expect(again.status).toBe(400);
    expect(await errorOf(again)).toEqual({ code: 'invalid_recovery_link', message: INVALID_RECOVERY_LINK_MESSAGE });
    const revoked = await t.server.sql<{ revoked_reason: string }>(
      "SELECT s.revoked_reason FROM sessoes s JOIN usuarios u ON u.id = s.usuario_id WHERE u.login = 'bruno' AND s.revoked_at IS NOT NULL",
    );
    expect(revoked.map((r) => r.revoked_reason)).toEqual(['senha_redefinida', 'senha_redefinida']);
    const [audit] = await t.server.sql<{ depois: unknown }>("SELECT depois FROM audit_log WHERE acao = 'senha_redefinida'");
    expect(audit!.depois).toEqual({ sessoesEncerradas: 2 });
  });

  it('refuses an unknown token with the same 400', async () => {
    for (const token of ['x', 'A'.repeat(43)]) {
      const res = await t.server.request('/api/auth/reset', { json: { token, senha: 'cavalo correto bateria grampo' } });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual({ code: 'invalid_recovery_link', message: INVALID_RECOVERY_LINK_MESSAGE });
    }
  });

  it('applies the password policy to the new password, without spending the link', async () => {
    await addUser(t.server, 'carla.lima');
    await recover(t.server, 'carla.lima');
    const token = await linkTokenFor(t.server, 'carla.lima@exemplo.gov.br');
    const cases: [string, string][] = [
      ['curta', SENHA_MESSAGES.curta],
      ['senha123', SENHA_MESSAGES.comum],
      ['Mudar123', SENHA_MESSAGES.comum],
      ['Carla.Lima', SENHA_MESSAGES.igualLogin],
    ];
    for (const [senha, message] of cases) {
      const res = await t.server.request('/api/auth/reset', { json: { token, senha } });
      expect(res.status, senha).toBe(400);
      expect(await errorOf(res), senha).toEqual({ code: 'validation_error', message: 'Verifique os campos destacados.', fields: { senha: message } });
    }
    expect((await t.server.request('/api/auth/reset', { json: { token, senha: 'x'.repeat(129) } })).status).toBe(400);
    const long = 'uma senha longa de sessenta e quatro caracteres ou mais: ok!!!!!!';
    expect(long.length).toBeGreaterThanOrEqual(64);
    expect((await t.server.request('/api/auth/reset', { json: { token, senha: long } })).status).toBe(204);
    await t.server.signIn('carla.lima', long);
  });

  it('a link expires 30 minutes after it was asked for', async () => {
    await addUser(t.server, 'davi');
    await addUser(t.server, 'elisa');
    await recover(t.server, 'davi');
    await recover(t.server, 'elisa');
    const davi = await linkTokenFor(t.server, 'davi@exemplo.gov.br');
    const elisa = await linkTokenFor(t.server, 'elisa@exemplo.gov.br');
    clock.advance(30 * 60_000 - 1000);
    expect((await t.server.request('/api/auth/reset', { json: { token: davi, senha: 'cavalo correto bateria grampo' } })).status).toBe(204);
    clock.advance(1000);
    const late = await t.server.request('/api/auth/reset', { json: { token: elisa, senha: 'cavalo correto bateria grampo' } });
    expect(late.status).toBe(400);
    expect((await errorOf(late)).message).toBe(INVALID_RECOVERY_LINK_MESSAGE);
    const [failure] = await t.server.sql<{ depois: unknown }>("SELECT depois FROM audit_log WHERE acao = 'senha_redefinicao_falhou' ORDER BY id DESC LIMIT 1");
    expect(failure!.depois).toEqual({ motivo: 'vencido' });
  });

  it('a new password ends the other pending links of the user', async () => {
    await addUser(t.server, 'fabio');
    await recover(t.server, 'fabio');
    const first = await linkTokenFor(t.server, 'fabio@exemplo.gov.br');
    await recover(t.server, 'fabio');
    const second = await linkTokenFor(t.server, 'fabio@exemplo.gov.br');
    expect(second).not.toBe(first);
    expect((await t.server.request('/api/auth/reset', { json: { token: second, senha: 'cavalo correto bateria grampo' } })).status).toBe(204);
    expect((await t.server.request('/api/auth/reset', { json: { token: first, senha: 'outra frase bem comprida' } })).status).toBe(400);
  });

  it('sends at most 3 links per account in 15 minutes (the answer stays the same)', async () => {
    await addUser(t.server, 'gil');
    for (let i = 0; i < 4; i++) expect((await recover(t.server, 'gil')).res.status).toBe(202);
    expect((await outbox(t.server, '?q=gil@')).total).toBe(3);
    clock.advance(15 * 60_000 + 1000);
    await recover(t.server, 'gil');
    expect((await outbox(t.server, '?q=gil@')).total).toBe(4);
  });

  it('sends nothing for an inactive user', async () => {
    const id = await addUser(t.server, 'helena');
    await t.server.sql('UPDATE usuarios SET ativo = false WHERE id = $1', [id]);
    expect((await recover(t.server, 'helena')).res.status).toBe(202);
    expect((await outbox(t.server, '?q=helena')).total).toBe(0);
  });

  it('outbox: newest first, paginated, tag 3 only, only messages for users of the current entidade, audited', async () => {
    const page = await outbox(t.server, '?page=1&pageSize=2');
    expect(page.pageSize).toBe(2);
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    const all = await outbox(t.server, '?pageSize=200');
    const times = all.items.map((m) => m.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await outbox(t.server, '?page=2&pageSize=2');
    expect(second.items[0]!.id).toBe(all.items[2]!.id);

    const { token } = await t.server.signIn('consulta', 'demo1234');
    const forbidden = await t.server.request('/api/auth/outbox', { token });
    expect(forbidden.status).toBe(403);

    // the admin working in the Câmara sees no message for the Prefeitura's users
    const [camara] = await t.server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Câmara%'");
    const inCamara = await t.server.signIn('admin', 'demo1234', camara!.id);
    const res = await t.server.request('/api/auth/outbox', { token: inCamara.token });
    expect(((await res.json()) as Outbox).total).toBe(0);
    const reads = await t.server.sql("SELECT 1 FROM audit_log WHERE acao = 'caixa_saida_consultada'");
    expect(reads.length).toBeGreaterThan(3);
  });

  it('keeps the audit chain valid', async () => {
    expect((await verifyAuditChain(t.server.db)).ok).toBe(true);
  });
});

describeEachDatabase(
  'recovery links behind a trusted proxy',
  { trustProxy: true, recoverMinDurationMs: 0, publicUrl: 'https://compras.exemplo.gov.br' },
  (t) => {
    it('use PUBLIC_URL, not X-Forwarded-Proto and X-Forwarded-Host', async () => {
      await addUser(t.server, 'igor');
      await t.server.request('/api/auth/recover', {
        json: { login: 'igor' },
        headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'malicioso.example', 'x-forwarded-for': '10.9.9.9' },
      });
      const { items } = await outbox(t.server, '?q=igor');
      expect(items[0]!.body).toMatch(/\nhttps:\/\/compras\.exemplo\.gov\.br\/recoveryPass\?token=[A-Za-z0-9_-]{43}\n/);
    });
  },
);

it('recovery links use PUBLIC_URL when it is set, whatever the request says', async () => {
  const server = await createTestServer([], { publicUrl: 'https://compras.prefeitura.sp.gov.br/', recoverMinDurationMs: 0 });
  try {
    await server.request('/api/auth/recover', { json: { login: 'admin' }, headers: { host: 'malicioso.example' } });
    const { items } = await outbox(server);
    expect(items[0]!.body).toContain('\nhttps://compras.prefeitura.sp.gov.br/recoveryPass?token=');
    expect(items[0]!.body).not.toContain('malicioso');
  } finally {
    await server.close();
  }
});

it('takes the same time for a known and an unknown account: the floor hides the real work', async () => {
  // A floor far above the work (a few ms) keeps this stable on a busy machine: both answers end at
  // the floor. Without it, a known account answers measurably slower than an unknown one.
  const server = await createTestServer([], { recoverMinDurationMs: 1000 });
  try {
    await addUser(server, 'tania');
    await recover(server, 'aquecimento'); // first request of the process pays for warm-up
    const known = await recover(server, 'tania');
    const unknown = await recover(server, 'ninguem.mais');
    for (const { res, ms } of [known, unknown]) {
      expect(res.status).toBe(202);
      expect(ms).toBeGreaterThanOrEqual(995);
    }
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(500);
  } finally {
    await server.close();
  }
});
