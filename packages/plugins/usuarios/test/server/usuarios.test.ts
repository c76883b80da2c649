import { cpfCheckDigits } from '@app/br';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import registros from '@app/registros/server';
import usuarios from '../../src/server/index.js';
import { MENSAGENS, type Opcoes, type PageOf, type Perfil, type Usuario, type UsuarioListItem } from '../../src/shared/index.js';
import { type Api, apiOf, catalogo, json, perfilId, userId } from './helpers.js';

const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

describeEachDatabase('@app/usuarios API', { plugins: [catalogo, registros, usuarios], seed: true }, (t) => {
  let admin: Api;
  let ent: { prefeitura: string; camara: string };
  let perfil: Record<string, string>;

  beforeAll(async () => {
    ent = await t.server.demoEntidades();
    const { token } = await t.server.signIn('admin', 'demo1234', ent.prefeitura);
    admin = apiOf(t.server, token);
    perfil = {};
    for (const nome of ['Administrador', 'Consulta', 'Requisitante', 'Aprovador', 'Comprador', 'Auditor']) {
      perfil[nome] = await perfilId(t.server, ent.prefeitura, nome);
    }
  });

  describe('seed', () => {
    it('creates the four demo perfis with their tags in the Prefeitura', async () => {
      const res = await admin.get('/perfis');
      expect(res.status).toBe(200);
      const page = await json<PageOf<Perfil>>(res);
      const tags = Object.fromEntries(page.items.map((p) => [p.nome, p.tags]));
      expect(tags).toMatchObject({
        Requisitante: [29, 39],
        Aprovador: [39],
        Comprador: [24, 25, 26, 29, 39, 73],
        Auditor: [90, 95],
      });
      expect(page.items.find((p) => p.nome === 'Auditor')?.usuarios).toBe(1);
    });

    it('demo users sign in with demo1234 and get their perfil tags', async () => {
      const { token } = await t.server.signIn('comprador', 'demo1234');
      const session = await json<{ tags: number[]; user: { nome: string } }>(await t.server.request('/api/session', { token }));
      expect(session.tags).toEqual([24, 25, 26, 29, 39, 73]);
      const auditor = await t.server.signIn('auditor', 'demo1234');
      const s2 = await json<{ tags: number[] }>(await t.server.request('/api/session', { token: auditor.token }));
      expect(s2.tags).toEqual([90, 95]); // logs de auditoria and the controle interno (reads every document)
    });
  });

  describe('list', () => {
    it('lists the entidade users with masked CPF, cargo, perfis and ativo', async () => {
      const res = await admin.get('/usuarios?pageSize=50');
      expect(res.status).toBe(200);
      const page = await json<PageOf<UsuarioListItem>>(res);
      const logins = page.items.map((u) => u.login);
      expect(logins).toEqual(expect.arrayContaining(['admin', 'consulta', 'requisitante', 'aprovador', 'comprador', 'auditor']));
      const comprador = page.items.find((u) => u.login === 'comprador')!;
      expect(comprador).toMatchObject({ nome: 'Carla Compradora', cargo: 'Agente de Contratação', ativo: true, email: 'comprador@exemplo.gov.br' });
      expect(comprador.cpfMascarado).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
      // never a full CPF in the list (ids are uuids: their hex runs may hold 11 digits, so leave them out)
      expect(JSON.stringify(page.items.map(({ id: _id, perfis: _perfis, ...rest }) => rest))).not.toMatch(/\d{11}/);
      expect(comprador.perfis[0]).toMatchObject({ entidadeId: ent.prefeitura, perfilNome: 'Comprador' });
      // the admin is in both entidades (and administers both): both perfis, the session's first
      const adminRow = page.items.find((u) => u.login === 'admin')!;
      expect(adminRow.perfis.map((p) => p.entidadeId)).toEqual([ent.prefeitura, ent.camara]);
    });

    it('searches by name, login, e-mail and CPF, and pages', async () => {
      const byName = await json<PageOf<UsuarioListItem>>(await admin.get('/usuarios?q=carla'));
      expect(byName.items.map((u) => u.login)).toEqual(['comprador']);
      const cpfComprador = (await t.server.sql<{ cpf: string }>("SELECT cpf FROM usuarios WHERE login = 'comprador'"))[0]!.cpf;
      const byCpf = await json<PageOf<UsuarioListItem>>(await admin.get(`/usuarios?q=${cpfComprador.slice(0, 3)}.${cpfComprador.slice(3, 6)}`));
      expect(byCpf.items.map((u) => u.login)).toContain('comprador');
      const literal = await json<PageOf<UsuarioListItem>>(await admin.get('/usuarios?q=%25'));
      expect(literal.total).toBe(0);
      const p1 = await json<PageOf<UsuarioListItem>>(await admin.get('/usuarios?pageSize=2&page=1&sort=login'));
      const p2 = await json<PageOf<UsuarioListItem>>(await admin.get('/usuarios?pageSize=2&page=2&sort=login'));
      expect(p1.total).toBeGreaterThanOrEqual(6);
      expect(p1.items.map((u) => u.login)).toEqual(['admin', 'aprovador']);
      expect(p2.items.map((u) => u.login)).toEqual(['auditor', 'comprador']);
      expect((await admin.get('/usuarios?sort=senha_hash')).status).toBe(400);
      for (const sort of ['__proto__', 'constructor', 'toString', '-hasOwnProperty']) {
        expect((await admin.get(`/usuarios?sort=${sort}`)).status, sort).toBe(400);
      }
    });

    it('needs tag 3 (403) and a session (401)', async () => {
      const { token } = await t.server.signIn('comprador', 'demo1234');
      const comprador = apiOf(t.server, token);
      expect((await comprador.get('/usuarios')).status).toBe(403);
      expect((await comprador.get('/perfis')).status).toBe(403);
      expect((await comprador.post('/perfis', { nome: 'X', tags: [] })).status).toBe(403);
      expect((await t.server.request('/api/usuarios/usuarios')).status).toBe(401);
    });
  });

  describe('create and update', () => {
    let createdId = '';
    const novo = () => ({
      nome: 'Fernanda Lima',
      login: 'fernanda.lima',
      email: 'fernanda@exemplo.gov.br',
      cpf: '111.444.777-35',
      cargo: 'Assessora',
      ativo: true,
      senha: 'segredo123',
      entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.Requisitante! }],
    });

    it('validates in pt-BR: password policy, CPF check digits, e-mail, the session entidade', async () => {
      const res = await admin.post('/usuarios', { ...novo(), senha: 'curta', cpf: '111.444.777-00', email: 'x' });
      expect(res.status).toBe(400);
      const body = await json<{ error: { fields: Record<string, string> } }>(res);
      expect(body.error.fields).toMatchObject({
        senha: 'A senha deve ter pelo menos 8 caracteres (recomendamos 15 ou mais).',
        cpf: 'CPF inválido: confira os dígitos verificadores.',
        email: 'Informe um e-mail válido.',
      });
      // server-core's policy: not a common password, not the login
      const comum = await admin.post('/usuarios', { ...novo(), senha: '12345678' });
      expect(comum.status).toBe(400);
      expect((await json<{ error: { fields: Record<string, string> } }>(comum)).error.fields.senha).toBe(
        'Esta senha é muito comum e fácil de adivinhar. Escolha outra.',
      );
      const igual = await admin.post('/usuarios', { ...novo(), senha: 'Fernanda.Lima' });
      expect((await json<{ error: { fields: Record<string, string> } }>(igual)).error.fields.senha).toBe('A senha não pode ser igual ao login.');
      const semEntidade = await admin.post('/usuarios', {
        ...novo(),
        entidades: [{ entidadeId: ent.camara, perfilId: await perfilId(t.server, ent.camara, 'Consulta') }],
      });
      expect(semEntidade.status).toBe(400);
      expect((await json<{ error: { fields: Record<string, string> } }>(semEntidade)).error.fields.entidades).toBe(MENSAGENS.entidadeAtualObrigatoria);
      const perfilErrado = await admin.post('/usuarios', {
        ...novo(),
        entidades: [{ entidadeId: ent.prefeitura, perfilId: await perfilId(t.server, ent.camara, 'Consulta') }],
      });
      expect(perfilErrado.status).toBe(400);
    });

    it('creates with an initial password (audited, CPF masked, no hash in the trail)', async () => {
      const res = await admin.post('/usuarios', novo());
      expect(res.status).toBe(201);
      createdId = (await json<{ id: string }>(res)).id;
      const got = await json<Usuario>(await admin.get(`/usuarios/${createdId}`));
      expect(got).toMatchObject({ login: 'fernanda.lima', cpf: '11144477735', cargo: 'Assessora', ativo: true, version: 1 });
      expect(got.entidades).toEqual([
        {
          entidadeId: ent.prefeitura,
          entidadeNome: expect.stringMatching(/^Prefeitura/),
          perfilId: perfil.Requisitante,
          perfilNome: 'Requisitante',
          centrosCusto: [],
        },
      ]);
      const { token } = await t.server.signIn('fernanda.lima', 'segredo123');
      expect(token).toBeTruthy();
      const [row] = await t.server.sql<{ depois: Record<string, unknown>; entidade_id: string; usuario_id: string }>(
        "SELECT depois, entidade_id, usuario_id FROM audit_log WHERE plugin = 'usuarios' AND acao = 'criar' AND registro = $1",
        [createdId],
      );
      expect(row?.depois).toMatchObject({ login: 'fernanda.lima', cpf: '***.444.777-**', perfis: { [got.entidades[0]!.entidadeNome]: 'Requisitante' } });
      expect(JSON.stringify(row?.depois)).not.toMatch(/scrypt|senha/);
      expect(row?.entidade_id).toBe(ent.prefeitura);
      expect(row?.usuario_id).toBe(await userId(t.server, 'admin'));
    });

    it('refuses a login (any case) or CPF already used: 409 with the field', async () => {
      const login = await admin.post('/usuarios', { ...novo(), login: 'FERNANDA.LIMA', cpf: null });
      expect(login.status).toBe(409);
      expect((await json<{ error: { fields: Record<string, string> } }>(login)).error.fields).toEqual({ login: MENSAGENS.loginEmUso });
      const doc = await admin.post('/usuarios', { ...novo(), login: 'outra.pessoa', cpf: '11144477735' });
      expect(doc.status).toBe(409);
      expect((await json<{ error: { fields: Record<string, string> } }>(doc)).error.fields).toEqual({ cpf: MENSAGENS.cpfEmUso });
    });

    it('updates with the current version; a stale version is 409 with the pt-BR message', async () => {
      const current = await json<Usuario>(await admin.get(`/usuarios/${createdId}`));
      const body = {
        nome: 'Fernanda Lima Souza',
        login: current.login,
        email: current.email,
        cpf: current.cpf,
        cargo: 'Chefe de Gabinete',
        ativo: true,
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.Aprovador! }],
        version: current.version,
      };
      const ok = await admin.put(`/usuarios/${createdId}`, body);
      expect(ok.status).toBe(200);
      const saved = await json<Usuario>(ok);
      expect(saved).toMatchObject({ nome: 'Fernanda Lima Souza', cargo: 'Chefe de Gabinete', version: 2 });
      expect(saved.entidades[0]?.perfilNome).toBe('Aprovador');
      const stale = await admin.put(`/usuarios/${createdId}`, { ...body, nome: 'Outra' });
      expect(stale.status).toBe(409);
      const staleBody = await json<{ error: { code: string; message: string } }>(stale);
      // the same protocol as every registry of the kit: 409 'stale'
      expect(staleBody.error.code).toBe('stale');
      expect(staleBody.error.message).toBe('Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.');
      const [audit] = await t.server.sql<{ antes: Record<string, unknown>; depois: Record<string, unknown> }>(
        "SELECT antes, depois FROM audit_log WHERE plugin = 'usuarios' AND acao = 'alterar' AND registro = $1 ORDER BY id DESC LIMIT 1",
        [createdId],
      );
      expect(audit?.antes).toMatchObject({ nome: 'Fernanda Lima', cargo: 'Assessora' });
      expect(audit?.depois).toMatchObject({ nome: 'Fernanda Lima Souza', cargo: 'Chefe de Gabinete' });
      expect(Object.keys(audit!.depois)).not.toContain('login'); // only the changed fields
    });

    it('sets a new password only when one is sent', async () => {
      const current = await json<Usuario>(await admin.get(`/usuarios/${createdId}`));
      const body = {
        nome: current.nome,
        login: current.login,
        email: current.email,
        cpf: current.cpf,
        cargo: current.cargo,
        ativo: true,
        entidades: current.entidades.map((e) => ({ entidadeId: e.entidadeId, perfilId: e.perfilId })),
        version: current.version,
        senha: 'nova-senha-1',
      };
      expect((await admin.put(`/usuarios/${createdId}`, body)).status).toBe(200);
      await expect(t.server.signIn('fernanda.lima', 'segredo123')).rejects.toThrow(/401/);
      expect((await t.server.signIn('fernanda.lima', 'nova-senha-1')).token).toBeTruthy();
    });

    it('deactivates and reactivates (audited); a deactivated user cannot sign in', async () => {
      const current = await json<Usuario>(await admin.get(`/usuarios/${createdId}`));
      const off = await admin.post(`/usuarios/${createdId}/desativar`, { version: current.version });
      expect(off.status).toBe(200);
      expect((await json<Usuario>(off)).ativo).toBe(false);
      await expect(t.server.signIn('fernanda.lima', 'nova-senha-1')).rejects.toThrow(/401/);
      const stale = await admin.post(`/usuarios/${createdId}/ativar`, { version: current.version });
      expect(stale.status).toBe(409);
      const on = await admin.post(`/usuarios/${createdId}/ativar`, {});
      expect((await json<Usuario>(on)).ativo).toBe(true);
      const acoes = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'usuarios' AND registro = $1 ORDER BY id", [createdId]);
      expect(acoes.map((a) => a.acao)).toEqual(['criar', 'alterar', 'alterar', 'desativar', 'ativar']);
    });

    it('removes a user from the entidade (the user row and its history stay)', async () => {
      expect((await admin.del(`/usuarios/${createdId}`)).status).toBe(204);
      expect((await admin.get(`/usuarios/${createdId}`)).status).toBe(404);
      const [row] = await t.server.sql<{ ativo: boolean }>('SELECT ativo FROM usuarios WHERE id = $1', [createdId]);
      expect(row?.ativo).toBe(false); // no entidade left: deactivated
    });
  });

  describe('tenancy', () => {
    it("another entidade's users and perfis answer 404 and never appear", async () => {
      const { token } = await t.server.signIn('admin', 'demo1234', ent.camara);
      const camara = apiOf(t.server, token);
      const list = await json<PageOf<UsuarioListItem>>(await camara.get('/usuarios?pageSize=100'));
      expect(list.items.map((u) => u.login)).toEqual(['admin']);
      const requisitante = await userId(t.server, 'requisitante');
      expect((await camara.get(`/usuarios/${requisitante}`)).status).toBe(404);
      expect((await camara.post(`/usuarios/${requisitante}/desativar`, {})).status).toBe(404);
      expect((await camara.del(`/usuarios/${requisitante}`)).status).toBe(404);
      expect((await camara.get(`/perfis/${perfil.Comprador}`)).status).toBe(404);
      expect((await camara.put(`/perfis/${perfil.Comprador}`, { nome: 'Outro nome', tags: [], version: 1 })).status).toBe(404);
      expect((await camara.del(`/perfis/${perfil.Comprador}`)).status).toBe(404);
      const perfis = await json<PageOf<Perfil>>(await camara.get('/perfis'));
      expect(perfis.items.map((p) => p.nome).sort()).toEqual(['Administrador', 'Consulta']);
    });
  });

  describe('perfis', () => {
    it('CRUD with version, unique name, and 409 while in use', async () => {
      const created = await admin.post('/perfis', { nome: 'Almoxarife', tags: [24, 24, 0, 29] });
      expect(created.status).toBe(201);
      const { id } = await json<{ id: string }>(created);
      const got = await json<Perfil>(await admin.get(`/perfis/${id}`));
      expect(got).toMatchObject({ nome: 'Almoxarife', tags: [24, 29], usuarios: 0, version: 1 }); // exempt 0 dropped
      expect((await admin.post('/perfis', { nome: 'almoxarife', tags: [] })).status).toBe(409);
      const ok = await admin.put(`/perfis/${id}`, { nome: 'Almoxarifado', tags: [24], version: 1 });
      expect(ok.status).toBe(200);
      expect(await json<Perfil>(ok)).toMatchObject({ nome: 'Almoxarifado', tags: [24], version: 2 });
      const stale = await admin.put(`/perfis/${id}`, { nome: 'Outro', tags: [24], version: 1 });
      expect(stale.status).toBe(409);
      expect((await json<{ error: { message: string } }>(stale)).error.message).toBe(MENSAGENS.versaoDesatualizada);
      const inUse = await admin.del(`/perfis/${perfil.Auditor}`);
      expect(inUse.status).toBe(409);
      expect((await json<{ error: { message: string } }>(inUse)).error.message).toBe(MENSAGENS.perfilEmUso);
      expect((await admin.del(`/perfis/${id}`)).status).toBe(204);
      expect((await admin.get(`/perfis/${id}`)).status).toBe(404);
      const acoes = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'usuarios' AND registro = $1 ORDER BY id", [id]);
      expect(acoes.map((a) => a.acao)).toEqual(['criar', 'alterar', 'excluir']);
    });

    it('GET /tags names every non-exempt tag declared by the enabled server plugins', async () => {
      const body = await json<{ items: { tag: number; nome: string; plugins: string[] }[] }>(await admin.get('/tags'));
      expect(body.items).toEqual([
        { tag: 3, nome: 'Usuários e perfis', plugins: ['usuarios'] },
        { tag: 24, nome: 'Cadastros', plugins: ['registros'] },
        { tag: 25, nome: 'Produtos', plugins: ['catalogo'] },
        { tag: 26, nome: 'Fornecedores', plugins: ['catalogo'] },
        { tag: 90, nome: 'Logs de Auditoria', plugins: ['catalogo'] },
        { tag: 95, nome: 'Controle interno: leitura de todos os documentos', plugins: ['usuarios'] },
      ]);
    });

    it('GET /opcoes lists the entidades the caller administers with their perfis', async () => {
      const body = await json<Opcoes>(await admin.get('/opcoes'));
      expect(body.entidades.map((e) => [e.id, e.atual])).toEqual([
        [ent.prefeitura, true],
        [ent.camara, false],
      ]);
      expect(body.entidades[0]!.perfis.map((p) => p.nome)).toEqual(
        expect.arrayContaining(['Administrador', 'Auditor', 'Comprador', 'Consulta', 'Requisitante', 'Aprovador']),
      );
      expect(body.entidades[0]!.minhasTags).toEqual(expect.arrayContaining([3, 25, 26, 90]));
    });
  });

  describe('granting, self and last administrator', () => {
    let gestor: Api;
    let gestorId = '';
    let admin2: Api;
    let admin2Id = '';
    let adminId = '';

    beforeAll(async () => {
      adminId = await userId(t.server, 'admin');
      // a user administrator (tag 3) who holds only 3 and 39
      const p = await admin.post('/perfis', { nome: 'Gestor de Usuários', tags: [3, 39] });
      const gestorPerfil = (await json<{ id: string }>(p)).id;
      const g = await admin.post('/usuarios', {
        nome: 'Gustavo Gestor',
        login: 'gestor',
        email: 'gestor@exemplo.gov.br',
        cpf: cpf('987654321'),
        cargo: null,
        ativo: true,
        senha: 'gestor-123',
        entidades: [{ entidadeId: ent.prefeitura, perfilId: gestorPerfil }],
      });
      gestorId = (await json<{ id: string }>(g)).id;
      gestor = apiOf(t.server, (await t.server.signIn('gestor', 'gestor-123')).token);
      const a2 = await admin.post('/usuarios', {
        nome: 'Segunda Administradora',
        login: 'admin2',
        email: 'admin2@exemplo.gov.br',
        ativo: true,
        senha: 'admin2-123',
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.Administrador! }],
      });
      admin2Id = (await json<{ id: string }>(a2)).id;
      admin2 = apiOf(t.server, (await t.server.signIn('admin2', 'admin2-123')).token);
    });

    it('nobody grants a tag they do not hold: perfil create/update 403, assigning such a perfil 403', async () => {
      const create = await gestor.post('/perfis', { nome: 'Auditor 2', tags: [90] });
      expect(create.status).toBe(403);
      expect((await json<{ error: { message: string } }>(create)).error.message).toBe(
        'Você não pode conceder permissões que não possui: Logs de Auditoria (90).',
      );
      const aprovador = await json<Perfil>(await gestor.get(`/perfis/${perfil.Aprovador}`));
      const add = await gestor.put(`/perfis/${perfil.Aprovador}`, { nome: 'Aprovador', tags: [39, 29], version: aprovador.version });
      expect(add.status).toBe(403);
      // keeping a tag one does not hold is not granting it
      const auditor = await json<Perfil>(await gestor.get(`/perfis/${perfil.Auditor}`));
      const rename = await gestor.put(`/perfis/${perfil.Auditor}`, { nome: 'Auditor', tags: [90], version: auditor.version });
      expect(rename.status).toBe(200);
      const assign = await gestor.post('/usuarios', {
        nome: 'Alguém Novo',
        login: 'alguem',
        email: 'alguem@exemplo.gov.br',
        ativo: true,
        senha: 'alguem-123',
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.Auditor! }],
      });
      expect(assign.status).toBe(403);
      expect((await json<{ error: { message: string } }>(assign)).error.message).toMatch(/^Você não pode atribuir o perfil Auditor/);
      // the gestor administers only the Prefeitura: the Câmara is not offered
      const opcoes = await json<Opcoes>(await gestor.get('/opcoes'));
      expect(opcoes.entidades.map((e) => e.id)).toEqual([ent.prefeitura]);
    });

    it('nobody deactivates or removes themselves', async () => {
      const off = await admin.post(`/usuarios/${adminId}/desativar`, {});
      expect(off.status).toBe(409);
      expect((await json<{ error: { message: string } }>(off)).error.message).toBe(MENSAGENS.desativarProprio);
      const me = await json<Usuario>(await gestor.get(`/usuarios/${gestorId}`));
      const put = await gestor.put(`/usuarios/${gestorId}`, {
        nome: me.nome,
        login: me.login,
        email: me.email,
        cpf: me.cpf,
        cargo: me.cargo,
        ativo: false,
        entidades: me.entidades.map((e) => ({ entidadeId: e.entidadeId, perfilId: e.perfilId })),
        version: me.version,
      });
      expect(put.status).toBe(409);
      expect((await gestor.del(`/usuarios/${gestorId}`)).status).toBe(409);
    });

    it('the last active administrator of an entidade cannot be deactivated, downgraded or left without tag 3', async () => {
      // admin also belongs to the Câmara, which admin2 does not administer: his account (global ativo) is not hers to change
      const off = await admin2.post(`/usuarios/${adminId}/desativar`, {});
      expect(off.status).toBe(403);
      expect((await json<{ error: { code: string; message: string } }>(off)).error).toEqual({ code: 'forbidden', message: MENSAGENS.contaCompartilhada });
      // downgrading admin in the Prefeitura is fine: admin2 and gestor still administer it
      const a = await json<Usuario>(await admin2.get(`/usuarios/${adminId}`));
      expect(a.entidades.map((e) => e.entidadeId)).toEqual([ent.prefeitura]); // admin2 does not administer the Câmara
      const down = await admin2.put(`/usuarios/${adminId}`, {
        nome: a.nome,
        login: a.login,
        email: a.email,
        cpf: a.cpf,
        cargo: a.cargo,
        ativo: true,
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.Consulta! }],
        version: a.version,
      });
      expect(down.status).toBe(200);
      // his Câmara membership is untouched
      const [camaraLink] = await t.server.sql<{ nome: string }>(
        'SELECT p.nome FROM usuario_entidades ue JOIN perfis p ON p.id = ue.perfil_id WHERE ue.usuario_id = $1 AND ue.entidade_id = $2',
        [adminId, ent.camara],
      );
      expect(camaraLink?.nome).toBe('Administrador');
      // gestor leaves: admin2 is now the Prefeitura's last administrator
      expect((await admin2.del(`/usuarios/${gestorId}`)).status).toBe(204);
      const me = await json<Usuario>(await admin2.get(`/usuarios/${admin2Id}`));
      const selfDown = await admin2.put(`/usuarios/${admin2Id}`, {
        nome: me.nome,
        login: me.login,
        email: me.email,
        cpf: me.cpf,
        cargo: me.cargo,
        ativo: true,
        entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil.Consulta! }],
        version: me.version,
      });
      expect(selfDown.status).toBe(409);
      expect((await json<{ error: { code: string } }>(selfDown)).error.code).toBe('ultimo_administrador');
      const adm = await json<Perfil>(await admin2.get(`/perfis/${perfil.Administrador}`));
      const noTag3 = await admin2.put(`/perfis/${perfil.Administrador}`, {
        nome: adm.nome,
        tags: adm.tags.filter((x) => x !== 3),
        version: adm.version,
      });
      expect(noTag3.status).toBe(409);
      // nothing changed
      const after = await json<Perfil>(await admin2.get(`/perfis/${perfil.Administrador}`));
      expect(after.tags).toContain(3);
      expect(after.version).toBe(adm.version);
    });
  });

  it('documents every route in /api/openapi.json with tag 3', async () => {
    const res = await t.server.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = await json<{ paths: Record<string, Record<string, { 'x-permission-tag'?: number }>> }>(res);
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/usuarios/'));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/usuarios/usuarios',
        '/api/usuarios/usuarios/{id}',
        '/api/usuarios/usuarios/{id}/desativar',
        '/api/usuarios/usuarios/{id}/ativar',
        '/api/usuarios/perfis',
        '/api/usuarios/perfis/{id}',
        '/api/usuarios/tags',
      ]),
    );
    for (const p of paths) for (const op of Object.values(doc.paths[p]!)) expect(op['x-permission-tag']).toBe(3);
  });
});
