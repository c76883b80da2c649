// Issue 8: a user row (nome, login, e-mail, CPF, cargo, senha, ativo) is shared by every entidade the
// user belongs to. An administrator of one entidade never changes the account of a user who also
// belongs to an entidade they do not administer; memberships stay per entidade.
import { cpfCheckDigits } from '@app/br';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import registros from '@app/registros/server';
import usuarios from '../../src/server/index.js';
import { MENSAGENS, type Usuario } from '../../src/shared/index.js';
import { type Api, apiOf, catalogo, json, perfilId, userId } from './helpers.js';

const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

/** The PUT body that changes nothing (the form sends every field back). */
function bodyOf(u: Usuario) {
  return {
    nome: u.nome,
    login: u.login,
    email: u.email,
    cpf: u.cpf,
    cargo: u.cargo,
    ativo: u.ativo,
    entidades: u.entidades.map((e) => ({ entidadeId: e.entidadeId, perfilId: e.perfilId })),
    version: u.version,
  };
}

describeEachDatabase('@app/usuarios: accounts shared by several entidades', { plugins: [catalogo, registros, usuarios], seed: true }, (t) => {
  let ent: { prefeitura: string; camara: string };
  let perfil: { prefAdmin: string; prefConsulta: string; prefRequisitante: string; camAdmin: string; camConsulta: string };
  /** The demo admin (administers both entidades), working in the Prefeitura. */
  let admin: Api;
  /** Administers the Prefeitura only. */
  let chefe: Api;
  let chefeId = '';
  let adminId = '';
  /** Consulta in the Prefeitura and in the Câmara. */
  let duplaId = '';
  /** Administrador in the Prefeitura, Consulta in the Câmara. */
  let chefeDuploId = '';

  const user = async (as: Api, id: string) => {
    const res = await as.get(`/usuarios/${id}`);
    expect(res.status).toBe(200);
    return json<Usuario>(res);
  };
  const expectForbidden = async (res: Response) => {
    expect(res.status).toBe(403);
    expect((await json<ErrorBody>(res)).error).toMatchObject({ code: 'forbidden', message: MENSAGENS.contaCompartilhada });
  };
  const account = async (id: string) =>
    (
      await t.server.sql<{ nome: string; login: string; email: string; cpf: string | null; cargo: string | null; ativo: boolean; version: number }>(
        'SELECT nome, login, email, cpf, cargo, ativo, version FROM usuarios WHERE id = $1',
        [id],
      )
    )[0]!;
  const memberships = async (id: string) =>
    (
      await t.server.sql<{ entidade: string; perfil: string }>(
        `SELECT e.nome AS entidade, p.nome AS perfil FROM usuario_entidades ue
           JOIN entidades e ON e.id = ue.entidade_id JOIN perfis p ON p.id = ue.perfil_id
          WHERE ue.usuario_id = $1 ORDER BY e.nome`,
        [id],
      )
    ).map((r) => `${r.entidade.split(' ')[0]}:${r.perfil}`);

  beforeAll(async () => {
    ent = await t.server.demoEntidades();
    perfil = {
      prefAdmin: await perfilId(t.server, ent.prefeitura, 'Administrador'),
      prefConsulta: await perfilId(t.server, ent.prefeitura, 'Consulta'),
      prefRequisitante: await perfilId(t.server, ent.prefeitura, 'Requisitante'),
      camAdmin: await perfilId(t.server, ent.camara, 'Administrador'),
      camConsulta: await perfilId(t.server, ent.camara, 'Consulta'),
    };
    admin = apiOf(t.server, (await t.server.signIn('admin', 'demo1234', ent.prefeitura)).token);
    adminId = await userId(t.server, 'admin');
    const create = async (login: string, base: string, entidades: { entidadeId: string; perfilId: string }[]) => {
      const res = await admin.post('/usuarios', {
        nome: `Usuária ${login}`,
        login,
        email: `${login}@exemplo.gov.br`,
        cpf: cpf(base),
        cargo: 'Servidora',
        ativo: true,
        senha: `senha de ${login} 123`,
        entidades,
      });
      expect(res.status).toBe(201);
      return (await json<{ id: string }>(res)).id;
    };
    chefeId = await create('chefe', '123456789', [{ entidadeId: ent.prefeitura, perfilId: perfil.prefAdmin }]);
    duplaId = await create('dupla', '234567891', [
      { entidadeId: ent.prefeitura, perfilId: perfil.prefConsulta },
      { entidadeId: ent.camara, perfilId: perfil.camConsulta },
    ]);
    chefeDuploId = await create('chefe.duplo', '345678912', [
      { entidadeId: ent.prefeitura, perfilId: perfil.prefAdmin },
      { entidadeId: ent.camara, perfilId: perfil.camConsulta },
    ]);
    chefe = apiOf(t.server, (await t.server.signIn('chefe', 'senha de chefe 123')).token);
  });

  it('the read answer says whether the caller may change the account', async () => {
    expect((await user(chefe, duplaId)).podeAlterarConta).toBe(false);
    expect((await user(chefe, adminId)).podeAlterarConta).toBe(false);
    expect((await user(chefe, chefeDuploId)).podeAlterarConta).toBe(false);
    expect((await user(chefe, await userId(t.server, 'comprador'))).podeAlterarConta).toBe(true);
    expect((await user(chefe, chefeId)).podeAlterarConta).toBe(true);
    expect((await user(admin, duplaId)).podeAlterarConta).toBe(true);
  });

  describe('an administrator of the Prefeitura only', () => {
    it('cannot set the password of an administrator (or a member) of the Câmara: 403, the password stays', async () => {
      for (const [id, login, senha] of [
        [adminId, 'admin', 'demo1234'],
        [duplaId, 'dupla', 'senha de dupla 123'],
      ] as const) {
        const before = await account(id);
        await expectForbidden(await chefe.put(`/usuarios/${id}`, { ...bodyOf(await user(chefe, id)), senha: 'tomada de conta 123' }));
        expect(await account(id)).toEqual(before);
        await expect(t.server.signIn(login, 'tomada de conta 123')).rejects.toThrow(/401/);
        expect((await t.server.signIn(login, senha, ent.camara)).token).toBeTruthy();
      }
    });

    it('cannot change the e-mail, the login, the name, the CPF or the cargo', async () => {
      const before = await account(duplaId);
      const current = bodyOf(await user(chefe, duplaId));
      for (const change of [
        { email: 'atacante@exemplo.com' },
        { login: 'dupla.nova' },
        { login: 'DUPLA' },
        { nome: 'Outro Nome' },
        { cpf: cpf('456789123') },
        { cargo: 'Outro cargo' },
      ]) {
        await expectForbidden(await chefe.put(`/usuarios/${duplaId}`, { ...current, ...change }));
      }
      expect(await account(duplaId)).toEqual(before);
      // the administrator of the Câmara too
      await expectForbidden(await chefe.put(`/usuarios/${adminId}`, { ...bodyOf(await user(chefe, adminId)), email: 'atacante@exemplo.com' }));
      expect((await account(adminId)).email).toBe('admin@exemplo.gov.br');
    });

    it('cannot deactivate (PUT or POST desativar) nor reactivate the account', async () => {
      const current = await user(chefe, duplaId);
      await expectForbidden(await chefe.put(`/usuarios/${duplaId}`, { ...bodyOf(current), ativo: false }));
      await expectForbidden(await chefe.post(`/usuarios/${duplaId}/desativar`, { version: current.version }));
      await expectForbidden(await chefe.post(`/usuarios/${adminId}/desativar`, {}));
      expect((await account(duplaId)).ativo).toBe(true);
      expect((await account(adminId)).ativo).toBe(true);
      // deactivated by someone who administers both entidades: only such a person reactivates
      expect((await admin.post(`/usuarios/${duplaId}/desativar`, {})).status).toBe(200);
      await expectForbidden(await chefe.post(`/usuarios/${duplaId}/ativar`, {}));
      await expectForbidden(await chefe.put(`/usuarios/${duplaId}`, { ...bodyOf(await user(chefe, duplaId)), ativo: true }));
      expect((await account(duplaId)).ativo).toBe(false);
      expect((await admin.post(`/usuarios/${duplaId}/ativar`, {})).status).toBe(200);
      expect((await account(duplaId)).ativo).toBe(true);
    });

    it("still changes the user's perfil in the Prefeitura (never the Câmara's), audited", async () => {
      const current = await user(chefe, duplaId);
      expect(current.entidades.map((e) => e.entidadeId)).toEqual([ent.prefeitura]);
      const res = await chefe.put(`/usuarios/${duplaId}`, {
        ...bodyOf(current),
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.prefRequisitante }],
      });
      expect(res.status).toBe(200);
      expect((await json<Usuario>(res)).podeAlterarConta).toBe(false);
      expect(await memberships(duplaId)).toEqual(['Câmara:Consulta', 'Prefeitura:Requisitante']);
      const [audit] = await t.server.sql<{ usuario_id: string; depois: Record<string, unknown> }>(
        "SELECT usuario_id, depois FROM audit_log WHERE plugin = 'usuarios' AND acao = 'alterar' AND registro = $1 ORDER BY id DESC LIMIT 1",
        [duplaId],
      );
      expect(audit).toMatchObject({ usuario_id: chefeId });
      expect(JSON.stringify(audit!.depois)).toContain('Requisitante');
    });

    it('still changes the account of users who belong only to the Prefeitura', async () => {
      const compradorId = await userId(t.server, 'comprador');
      const current = await user(chefe, compradorId);
      const res = await chefe.put(`/usuarios/${compradorId}`, { ...bodyOf(current), cargo: 'Pregoeira', senha: 'nova senha da carla' });
      expect(res.status).toBe(200);
      expect((await t.server.signIn('comprador', 'nova senha da carla')).token).toBeTruthy();
      expect((await chefe.post(`/usuarios/${compradorId}/desativar`, {})).status).toBe(200);
      expect((await chefe.post(`/usuarios/${compradorId}/ativar`, {})).status).toBe(200);
    });

    it('cannot take over or attach an existing account by creating a user with its login, CPF or e-mail', async () => {
      const novo = {
        nome: 'Conta Nova',
        login: 'conta.nova',
        email: 'conta.nova@exemplo.gov.br',
        cpf: null,
        cargo: null,
        ativo: true,
        senha: 'senha da conta nova',
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.prefAdmin }],
      };
      for (const login of ['admin', 'ADMIN', 'dupla']) {
        const res = await chefe.post('/usuarios', { ...novo, login });
        expect(res.status).toBe(409);
        expect((await json<ErrorBody>(res)).error.fields).toEqual({ login: MENSAGENS.loginEmUso });
      }
      const byCpf = await chefe.post('/usuarios', { ...novo, cpf: (await account(duplaId)).cpf });
      expect(byCpf.status).toBe(409);
      // the same e-mail makes a separate account: the admin's account and memberships are untouched
      const adminBefore = await account(adminId);
      const sameEmail = await chefe.post('/usuarios', { ...novo, email: 'admin@exemplo.gov.br' });
      expect(sameEmail.status).toBe(201);
      const { id } = await json<{ id: string }>(sameEmail);
      expect(id).not.toBe(adminId);
      expect(await memberships(id)).toEqual(['Prefeitura:Administrador']);
      expect(await memberships(adminId)).toEqual(['Câmara:Administrador', 'Prefeitura:Administrador']);
      expect(await memberships(duplaId)).toEqual(['Câmara:Consulta', 'Prefeitura:Requisitante']);
      expect(await account(adminId)).toEqual(adminBefore);
      expect((await t.server.signIn('admin', 'demo1234', ent.camara)).token).toBeTruthy();
    });

    it("removes the user from the Prefeitura; the Câmara's membership and the account stay", async () => {
      expect((await chefe.del(`/usuarios/${duplaId}`)).status).toBe(204);
      expect(await memberships(duplaId)).toEqual(['Câmara:Consulta']);
      expect((await account(duplaId)).ativo).toBe(true);
      expect((await chefe.get(`/usuarios/${duplaId}`)).status).toBe(404);
      // back in the Prefeitura, added by the admin of both entidades (from the Câmara, where dupla still is)
      const camara = apiOf(t.server, (await t.server.signIn('admin', 'demo1234', ent.camara)).token);
      const res = await camara.put(`/usuarios/${duplaId}`, {
        ...bodyOf(await user(camara, duplaId)),
        entidades: [
          { entidadeId: ent.camara, perfilId: perfil.camConsulta },
          { entidadeId: ent.prefeitura, perfilId: perfil.prefConsulta },
        ],
      });
      expect(res.status).toBe(200);
    });
  });

  it('the user themself still changes their own account', async () => {
    const self = apiOf(t.server, (await t.server.signIn('chefe.duplo', 'senha de chefe.duplo 123', ent.prefeitura)).token);
    const me = await user(self, chefeDuploId);
    expect(me.podeAlterarConta).toBe(true);
    const res = await self.put(`/usuarios/${chefeDuploId}`, { ...bodyOf(me), email: 'novo.email@exemplo.gov.br', senha: 'minha nova senha 1' });
    expect(res.status).toBe(200);
    expect(await account(chefeDuploId)).toMatchObject({ email: 'novo.email@exemplo.gov.br' });
    expect((await t.server.signIn('chefe.duplo', 'minha nova senha 1', ent.camara)).token).toBeTruthy();
    // ... but the chefe, who does not administer the Câmara, does not
    await expectForbidden(await chefe.put(`/usuarios/${chefeDuploId}`, { ...bodyOf(await user(chefe, chefeDuploId)), senha: 'tomada de conta 123' }));
  });

  it('an administrator of every entidade of the user changes the account', async () => {
    const current = await user(admin, duplaId);
    const res = await admin.put(`/usuarios/${duplaId}`, {
      ...bodyOf(current),
      nome: 'Dupla Renomeada',
      login: 'dupla.renomeada',
      email: 'dupla.nova@exemplo.gov.br',
      senha: 'senha nova da dupla',
    });
    expect(res.status).toBe(200);
    expect(await account(duplaId)).toMatchObject({ nome: 'Dupla Renomeada', login: 'dupla.renomeada', email: 'dupla.nova@exemplo.gov.br', ativo: true });
    expect((await t.server.signIn('dupla.renomeada', 'senha nova da dupla', ent.camara)).token).toBeTruthy();
    const off = await admin.post(`/usuarios/${duplaId}/desativar`, {});
    expect(off.status).toBe(200);
    expect((await json<Usuario>(off)).ativo).toBe(false);
    const acoes = await t.server.sql<{ acao: string; login: string }>(
      `SELECT a.acao, u.login FROM audit_log a JOIN usuarios u ON u.id = a.usuario_id
        WHERE a.plugin = 'usuarios' AND a.registro = $1 AND a.acao IN ('alterar', 'desativar', 'ativar') ORDER BY a.id`,
      [duplaId],
    );
    // every change that went through is in the trail, by whom (the refused ones left nothing)
    expect(acoes.map((a) => `${a.acao}:${a.login}`)).toEqual([
      'desativar:admin',
      'ativar:admin',
      'alterar:chefe', // perfil in the Prefeitura
      'alterar:admin', // back in the Prefeitura, from the Câmara (one row per entidade)
      'alterar:admin',
      'alterar:admin', // the account
      'desativar:admin',
    ]);
  });
});
