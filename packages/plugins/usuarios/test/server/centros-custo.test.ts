// The centros de custo of each user (usuario_entidades.centros_custo) and the perfis' access to every
// centro (perfis.todos_centros): demo data, validation, granting rules, audit, and the request context
// they feed (the row-level scope of documents).
import registros from '@app/registros/server';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import usuarios from '../../src/server/index.js';
import { MENSAGENS, type Opcoes, type PageOf, type Perfil, type Usuario } from '../../src/shared/index.js';
import { type Api, apiOf, catalogo, json, perfilId, userId } from './helpers.js';

type SessionBody = { centrosCusto: string[]; todosCentros: boolean };

describeEachDatabase('@app/usuarios: centros de custo', { plugins: [catalogo, registros, usuarios], seed: true }, (t) => {
  let ent: { prefeitura: string; camara: string };
  let admin: Api;
  /** código → id of the Prefeitura's demo centros de custo. */
  let centro: Record<string, string>;
  let perfil: Record<string, string>;

  const sessionOf = async (login: string, senha = 'demo1234') => {
    const { token } = await t.server.signIn(login, senha);
    return json<SessionBody>(await t.server.request('/api/session', { token }));
  };
  const lastAudit = async (registro: string, acao = 'alterar') =>
    (
      await t.server.sql<{ antes: Record<string, unknown> | null; depois: Record<string, unknown> | null; entidade_id: string }>(
        "SELECT antes, depois, entidade_id FROM audit_log WHERE plugin = 'usuarios' AND acao = $1 AND registro = $2 ORDER BY id DESC LIMIT 1",
        [acao, registro],
      )
    )[0]!;
  const novo = (login: string, centrosCusto?: string[], perfilNome = 'Requisitante') => ({
    nome: `Usuária ${login}`,
    login,
    email: `${login}@exemplo.gov.br`,
    ativo: true,
    senha: 'frase-longa-1',
    entidades: [{ entidadeId: ent.prefeitura, perfilId: perfil[perfilNome]!, ...(centrosCusto ? { centrosCusto } : {}) }],
  });
  const bodyOf = (u: Usuario, centros?: Record<string, string[]>) => ({
    nome: u.nome,
    login: u.login,
    email: u.email,
    cpf: u.cpf,
    cargo: u.cargo,
    ativo: u.ativo,
    entidades: u.entidades.map((e) => ({
      entidadeId: e.entidadeId,
      perfilId: e.perfilId,
      ...(centros?.[e.entidadeId] ? { centrosCusto: centros[e.entidadeId] } : {}),
    })),
    version: u.version,
  });

  beforeAll(async () => {
    ent = await t.server.demoEntidades();
    admin = apiOf(t.server, (await t.server.signIn('admin', 'demo1234', ent.prefeitura)).token);
    const rows = await t.server.sql<{ id: string; codigo: string }>('SELECT id, codigo FROM registros_centros_custo WHERE entidade_id = $1', [ent.prefeitura]);
    centro = Object.fromEntries(rows.map((r) => [r.codigo, r.id]));
    perfil = {};
    for (const nome of ['Administrador', 'Consulta', 'Requisitante', 'Aprovador', 'Comprador', 'Auditor']) {
      perfil[nome] = await perfilId(t.server, ent.prefeitura, nome);
    }
  });

  describe('demo data', () => {
    it('purchasing sector and auditor see every centro; requisitante and aprovador only theirs', async () => {
      const page = await json<PageOf<Perfil>>(await admin.get('/perfis?pageSize=50'));
      expect(Object.fromEntries(page.items.map((p) => [p.nome, p.todosCentros]))).toEqual({
        Administrador: true,
        Aprovador: false,
        Auditor: true,
        Comprador: true,
        Consulta: false,
        Requisitante: false,
      });
      expect(await sessionOf('requisitante')).toMatchObject({ centrosCusto: [centro['02']], todosCentros: false });
      expect(await sessionOf('aprovador')).toMatchObject({ centrosCusto: [centro['01'], centro['01.01']].sort(), todosCentros: false });
      expect(await sessionOf('comprador')).toMatchObject({ centrosCusto: [centro['01.01']], todosCentros: true });
      expect(await sessionOf('auditor')).toMatchObject({ centrosCusto: [], todosCentros: true });
      expect(await sessionOf('consulta')).toMatchObject({ centrosCusto: [], todosCentros: false });
      const { token } = await t.server.signIn('admin', 'demo1234', ent.prefeitura);
      expect(await json<SessionBody>(await t.server.request('/api/session', { token }))).toMatchObject({
        centrosCusto: [centro['01.01']],
        todosCentros: true,
      });
      // the seed's audit names the centros
      const requisitante = await userId(t.server, 'requisitante');
      expect((await lastAudit(requisitante, 'criar')).depois).toMatchObject({
        centrosCusto: { 'Prefeitura Municipal de Exemplo': ['02 – Secretaria Municipal de Educação'] },
      });
    });

    it('GET /opcoes offers the centros of each entidade and what the caller may give', async () => {
      const body = await json<Opcoes>(await admin.get('/opcoes'));
      const prefeitura = body.entidades.find((e) => e.id === ent.prefeitura)!;
      expect(prefeitura.meusTodosCentros).toBe(true);
      expect(prefeitura.meusCentros).toEqual([centro['01.01']]);
      expect(prefeitura.centrosCusto.slice(0, 2)).toEqual([
        { id: centro['01'], codigo: '01', nome: 'Secretaria Municipal de Administração', ativo: true },
        { id: centro['01.01'], codigo: '01.01', nome: 'Departamento de Compras e Licitações', ativo: true },
      ]);
      expect(prefeitura.centrosCusto).toHaveLength(Object.keys(centro).length);
      expect(prefeitura.perfis.find((p) => p.nome === 'Comprador')?.todosCentros).toBe(true);
      expect(body.entidades.find((e) => e.id === ent.camara)!.centrosCusto).toEqual([]);
    });
  });

  describe('user centros', () => {
    let id = '';

    it('creates a user in centros of the entidade; the read answer, the audit and the session carry them', async () => {
      const res = await admin.post('/usuarios', novo('educacao', [centro['02.01']!, centro['02']!, centro['02']!]));
      expect(res.status).toBe(201);
      id = (await json<{ id: string }>(res)).id;
      const got = await json<Usuario>(await admin.get(`/usuarios/${id}`));
      expect(got.entidades[0]!.centrosCusto.sort()).toEqual([centro['02'], centro['02.01']].sort());
      expect((await lastAudit(id, 'criar')).depois).toMatchObject({
        centrosCusto: { 'Prefeitura Municipal de Exemplo': ['02 – Secretaria Municipal de Educação', '02.01 – Ensino Fundamental'] },
      });
      expect(await sessionOf('educacao', 'frase-longa-1')).toEqual(
        expect.objectContaining({ centrosCusto: [centro['02'], centro['02.01']].sort(), todosCentros: false }),
      );
    });

    it('refuses a centro of another entidade, an unknown one or a malformed id: 400 with the field', async () => {
      const [outro] = await t.server.sql<{ id: string }>(
        "INSERT INTO registros_centros_custo (entidade_id, codigo, nome) VALUES ($1, '01', 'Gabinete da Presidência') RETURNING id",
        [ent.camara],
      );
      for (const ids of [[outro!.id], [centro['03']!, '00000000-0000-4000-8000-00000000ffff']]) {
        const res = await admin.post('/usuarios', novo('estrangeira', ids));
        expect(res.status).toBe(400);
        expect((await json<ErrorBody>(res)).error.fields).toEqual({ 'entidades.0.centrosCusto': MENSAGENS.centroCustoInvalido });
      }
      const malformed = await admin.post('/usuarios', novo('estrangeira', ['nao-e-uuid']));
      expect(malformed.status).toBe(400);
      expect((await json<ErrorBody>(malformed)).error.fields).toEqual({ 'entidades.0.centrosCusto.0': 'Centro de custo inválido.' });
      // the same refusal on update, and nothing changed
      const u = await json<Usuario>(await admin.get(`/usuarios/${id}`));
      const put = await admin.put(`/usuarios/${id}`, bodyOf(u, { [ent.prefeitura]: [outro!.id] }));
      expect(put.status).toBe(400);
      expect((await json<ErrorBody>(put)).error.fields).toEqual({ 'entidades.0.centrosCusto': MENSAGENS.centroCustoInvalido });
      expect((await json<Usuario>(await admin.get(`/usuarios/${id}`))).version).toBe(u.version);
      const [count] = await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM usuarios WHERE login = 'estrangeira'");
      expect(count!.n).toBe(0);
    });

    it('an inactive centro is not given to more users, but stays where it already is', async () => {
      await t.server.sql('UPDATE registros_centros_custo SET ativo = false WHERE id = $1', [centro['02.01']]);
      try {
        const res = await admin.post('/usuarios', novo('inativa', [centro['02.01']!]));
        expect(res.status).toBe(400);
        expect((await json<ErrorBody>(res)).error.fields).toEqual({ 'entidades.0.centrosCusto': MENSAGENS.centroCustoInativo });
        const u = await json<Usuario>(await admin.get(`/usuarios/${id}`));
        const keep = await admin.put(`/usuarios/${id}`, { ...bodyOf(u, { [ent.prefeitura]: [centro['02']!, centro['02.01']!] }), cargo: 'Diretora' });
        expect(keep.status).toBe(200);
      } finally {
        await t.server.sql('UPDATE registros_centros_custo SET ativo = true WHERE id = $1', [centro['02.01']]);
      }
    });

    it('a PUT without centrosCusto keeps them; with a list replaces them (audited before/after)', async () => {
      let u = await json<Usuario>(await admin.get(`/usuarios/${id}`));
      const kept = await admin.put(`/usuarios/${id}`, { ...bodyOf(u), cargo: 'Coordenadora' });
      expect(kept.status).toBe(200);
      u = await json<Usuario>(kept);
      expect(u.entidades[0]!.centrosCusto.sort()).toEqual([centro['02'], centro['02.01']].sort());
      expect(Object.keys((await lastAudit(id)).depois!)).toEqual(['cargo']); // the centros did not change

      const replaced = await admin.put(`/usuarios/${id}`, bodyOf(u, { [ent.prefeitura]: [centro['03']!] }));
      expect(replaced.status).toBe(200);
      u = await json<Usuario>(replaced);
      expect(u.entidades[0]!.centrosCusto).toEqual([centro['03']]);
      const audit = await lastAudit(id);
      expect(audit.antes).toMatchObject({
        centrosCusto: { 'Prefeitura Municipal de Exemplo': ['02 – Secretaria Municipal de Educação', '02.01 – Ensino Fundamental'] },
      });
      expect(audit.depois).toMatchObject({ centrosCusto: { 'Prefeitura Municipal de Exemplo': ['03 – Secretaria Municipal de Saúde'] } });
      // the next request of the user already sees the new centros (no new sign-in)
      expect((await sessionOf('educacao', 'frase-longa-1')).centrosCusto).toEqual([centro['03']]);

      const cleared = await admin.put(`/usuarios/${id}`, bodyOf(u, { [ent.prefeitura]: [] }));
      expect((await json<Usuario>(cleared)).entidades[0]!.centrosCusto).toEqual([]);
      expect((await sessionOf('educacao', 'frase-longa-1')).centrosCusto).toEqual([]);
    });
  });

  describe('perfis: access to every centro de custo', () => {
    it('creates (default false), keeps when omitted, turns on and off; audited', async () => {
      const created = await admin.post('/perfis', { nome: 'Controladoria', tags: [90], todosCentros: true });
      expect(created.status).toBe(201);
      const { id } = await json<{ id: string }>(created);
      let p = await json<Perfil>(await admin.get(`/perfis/${id}`));
      expect(p.todosCentros).toBe(true);
      expect((await lastAudit(id, 'criar')).depois).toEqual({ nome: 'Controladoria', tags: [90], todosCentros: true });
      p = await json<Perfil>(await admin.put(`/perfis/${id}`, { nome: 'Controladoria Interna', tags: [90], version: p.version }));
      expect(p.todosCentros).toBe(true);
      p = await json<Perfil>(await admin.put(`/perfis/${id}`, { nome: p.nome, tags: [90], todosCentros: false, version: p.version }));
      expect(p.todosCentros).toBe(false);
      const audit = await lastAudit(id);
      expect(audit.antes).toEqual({ todosCentros: true });
      expect(audit.depois).toEqual({ todosCentros: false });
      const plain = await json<{ id: string }>(await admin.post('/perfis', { nome: 'Sem escopo', tags: [] }));
      expect((await json<Perfil>(await admin.get(`/perfis/${plain.id}`))).todosCentros).toBe(false);
      // the users of the perfil feel it at their next request
      const uid = await userId(t.server, 'requisitante');
      const requisitante = await json<Usuario>(await admin.get(`/usuarios/${uid}`));
      const req = await admin.put(`/perfis/${perfil.Requisitante}`, {
        nome: 'Requisitante',
        tags: [29, 39],
        todosCentros: true,
        version: (await json<Perfil>(await admin.get(`/perfis/${perfil.Requisitante}`))).version,
      });
      expect(req.status).toBe(200);
      expect((await sessionOf('requisitante')).todosCentros).toBe(true);
      await admin.put(`/perfis/${perfil.Requisitante}`, { ...bodyOfPerfil(await json<Perfil>(req)), todosCentros: false });
      expect((await sessionOf('requisitante')).todosCentros).toBe(false);
      expect(requisitante.entidades[0]!.perfilNome).toBe('Requisitante');
    });
  });

  describe('granting: nobody gives an access they do not have', () => {
    let restrito: Api;
    let todosPerfil = '';

    beforeAll(async () => {
      // a user administrator who sees only the Secretaria de Educação's documents
      const p = await json<{ id: string }>(await admin.post('/perfis', { nome: 'Gestor Setorial', tags: [3, 29, 39] }));
      todosPerfil = (await json<{ id: string }>(await admin.post('/perfis', { nome: 'Leitor Geral', tags: [29], todosCentros: true }))).id;
      const res = await admin.post('/usuarios', {
        ...novo('setorial', [centro['02']!]),
        entidades: [{ entidadeId: ent.prefeitura, perfilId: p.id, centrosCusto: [centro['02']!] }],
      });
      expect(res.status).toBe(201);
      restrito = apiOf(t.server, (await t.server.signIn('setorial', 'frase-longa-1')).token);
    });

    it('gives only the centros they belong to (403 naming the others)', async () => {
      const ok = await restrito.post('/usuarios', novo('da.educacao', [centro['02']!]));
      expect(ok.status).toBe(201);
      const res = await restrito.post('/usuarios', novo('da.saude', [centro['02']!, centro['03']!]));
      expect(res.status).toBe(403);
      expect((await json<ErrorBody>(res)).error.message).toBe(
        'Você não pode atribuir centros de custo aos quais não pertence: 03 – Secretaria Municipal de Saúde.',
      );
      // nor to themselves
      const me = await json<Usuario>(await restrito.get(`/usuarios/${await userId(t.server, 'setorial')}`));
      expect((await restrito.put(`/usuarios/${me.id}`, bodyOf(me, { [ent.prefeitura]: [centro['02']!, centro['03']!] }))).status).toBe(403);
      // keeping a centro they do not belong to is not giving it
      const aprovador = await json<Usuario>(await restrito.get(`/usuarios/${await userId(t.server, 'aprovador')}`));
      const keep = await restrito.put(`/usuarios/${aprovador.id}`, bodyOf(aprovador, { [ent.prefeitura]: aprovador.entidades[0]!.centrosCusto }));
      expect(keep.status).toBe(200);
      const opcoes = await json<Opcoes>(await restrito.get('/opcoes'));
      expect(opcoes.entidades[0]).toMatchObject({ meusTodosCentros: false, meusCentros: [centro['02']] });
    });

    it('does not give the access to every centro: neither on a perfil nor by assigning such a perfil', async () => {
      const create = await restrito.post('/perfis', { nome: 'Tudo', tags: [29], todosCentros: true });
      expect(create.status).toBe(403);
      expect((await json<ErrorBody>(create)).error.message).toBe(MENSAGENS.todosCentrosSemPermissao);
      const sem = await json<Perfil>(await restrito.get(`/perfis/${perfil.Aprovador}`));
      const turnOn = await restrito.put(`/perfis/${perfil.Aprovador}`, { nome: sem.nome, tags: sem.tags, todosCentros: true, version: sem.version });
      expect(turnOn.status).toBe(403);
      // a perfil that already has it keeps it when renamed
      const leitor = await json<Perfil>(await restrito.get(`/perfis/${todosPerfil}`));
      const rename = await restrito.put(`/perfis/${todosPerfil}`, { nome: 'Leitor de Todos', tags: [29], version: leitor.version });
      expect(rename.status).toBe(200);
      expect((await json<Perfil>(rename)).todosCentros).toBe(true);
      const assign = await restrito.post('/usuarios', novo('leitora', [], 'Requisitante'));
      expect(assign.status).toBe(201);
      const withTodos = await restrito.post('/usuarios', {
        ...novo('leitora2'),
        entidades: [{ entidadeId: ent.prefeitura, perfilId: todosPerfil, centrosCusto: [] }],
      });
      expect(withTodos.status).toBe(403);
      expect((await json<ErrorBody>(withTodos)).error.message).toBe(
        'Você não pode atribuir o perfil Leitor de Todos: ele dá acesso aos documentos de todos os centros de custo, que o seu perfil não tem.',
      );
    });
  });
});

function bodyOfPerfil(p: Perfil) {
  return { nome: p.nome, tags: p.tags, version: p.version };
}
