// Issue 8: an outbox message to a user who also belongs to an entidade the reader does not administer
// (e.g. a recovery link of the Câmara's administrator) is not the reader's to see.
import { beforeAll, expect, it } from 'vitest';
import { listOutbox } from '../src/index.js';
import { DEMO, type TestServer, describeEachDatabase } from '../src/testing.js';
import { addUser, adminInPrefeitura } from './fixtures/users.js';

type Outbox = { items: { to: string; subject: string; body: string }[]; total: number };

async function outboxOf(server: TestServer, token: string, query = ''): Promise<Outbox> {
  const res = await server.request(`/api/auth/outbox${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Outbox;
}

const recipients = (o: Outbox) => o.items.map((m) => m.to).sort();

describeEachDatabase('outbox: who reads which message', { recoverMinDurationMs: 0 }, (t) => {
  let camaraId = '';
  let chefe = '';
  let adminPrefeitura = '';
  let adminCamara = '';

  // a Prefeitura-only administrator, users of one and of both entidades, a message for no user
  beforeAll(async () => {
    [{ id: camaraId }] = (await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj])) as [{ id: string }];
    await addUser(t.server, 'chefe', { perfil: 'Administrador' });
    await addUser(t.server, 'solo');
    // dupla: Consulta in both; chefe2: Administrador in the Prefeitura, Consulta in the Câmara
    for (const [login, perfil] of [
      ['dupla', 'Consulta'],
      ['chefe2', 'Administrador'],
    ] as const) {
      const id = await addUser(t.server, login, { perfil });
      await t.server.sql(
        `INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id)
         SELECT $1, $2, id FROM perfis WHERE entidade_id = $2 AND nome = 'Consulta'`,
        [id, camaraId],
      );
    }
    for (const login of ['solo', 'dupla', 'admin', 'chefe', 'chefe2']) {
      expect((await t.server.request('/api/auth/recover', { json: { login } })).status).toBe(202);
    }
    await t.server.sql("INSERT INTO outbox (to_address, subject, body) VALUES ('externo@exemplo.com', 'Aviso', 'Sem usuário')");
    chefe = (await t.server.signIn('chefe', DEMO.senha)).token;
    adminPrefeitura = await adminInPrefeitura(t.server);
    adminCamara = (await t.server.signIn(DEMO.admin.login, DEMO.senha, camaraId)).token;
  });

  it("an administrator of the Prefeitura only never sees a message to a user of the Câmara (the admin's recovery link included)", async () => {
    const seen = await outboxOf(t.server, chefe, '?pageSize=200');
    expect(recipients(seen)).toEqual(['chefe@exemplo.gov.br', 'solo@exemplo.gov.br']);
    expect(seen.total).toBe(2);
    expect(JSON.stringify(seen)).not.toContain('admin@exemplo.gov.br');
    // searching for it does not find it either
    expect((await outboxOf(t.server, chefe, '?q=admin')).total).toBe(0);
    expect((await outboxOf(t.server, chefe, '?q=dupla')).total).toBe(0);
    expect((await outboxOf(t.server, chefe, '?q=externo')).total).toBe(0);
    expect((await outboxOf(t.server, chefe, '?q=chefe2')).total).toBe(0);
  });

  it('a reader always sees the messages addressed to themself', async () => {
    const [prefeitura] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    const chefe2 = (await t.server.signIn('chefe2', DEMO.senha, prefeitura!.id)).token;
    expect(recipients(await outboxOf(t.server, chefe2, '?pageSize=200'))).toEqual(['chefe2@exemplo.gov.br', 'chefe@exemplo.gov.br', 'solo@exemplo.gov.br']);
  });

  it('an administrator of every entidade sees the messages of the current entidade, and those for no user', async () => {
    expect(recipients(await outboxOf(t.server, adminPrefeitura, '?pageSize=200'))).toEqual([
      'admin@exemplo.gov.br',
      'chefe2@exemplo.gov.br',
      'chefe@exemplo.gov.br',
      'dupla@exemplo.gov.br',
      'externo@exemplo.com',
      'solo@exemplo.gov.br',
    ]);
    expect(recipients(await outboxOf(t.server, adminCamara, '?pageSize=200'))).toEqual([
      'admin@exemplo.gov.br',
      'chefe2@exemplo.gov.br',
      'dupla@exemplo.gov.br',
      'externo@exemplo.com',
    ]);
  });

  it('follows the current memberships: a user who leaves the Câmara becomes visible to the Prefeitura-only administrator', async () => {
    await t.server.sql("DELETE FROM usuario_entidades WHERE entidade_id = $1 AND usuario_id = (SELECT id FROM usuarios WHERE login = 'dupla')", [camaraId]);
    expect(recipients(await outboxOf(t.server, chefe, '?pageSize=200'))).toEqual(['chefe@exemplo.gov.br', 'dupla@exemplo.gov.br', 'solo@exemplo.gov.br']);
  });

  it('the operator command (listOutbox without a reader) lists every message; each API read is audited', async () => {
    const all = await listOutbox(t.server.db, { pageSize: 200 });
    expect(all.items.map((m) => m.to).sort()).toEqual([
      'admin@exemplo.gov.br',
      'chefe2@exemplo.gov.br',
      'chefe@exemplo.gov.br',
      'dupla@exemplo.gov.br',
      'externo@exemplo.com',
      'solo@exemplo.gov.br',
    ]);
    const reads = async () =>
      Number((await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE acao = 'caixa_saida_consultada'"))[0]!.n);
    const before = await reads();
    await outboxOf(t.server, chefe);
    expect(await reads()).toBe(before + 1);
  });
});
