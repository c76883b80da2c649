// @vitest-environment jsdom
import { resetCoreState } from '@app/core';
import { mockApi, renderPlugin, signInForTest } from '@app/core/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MENSAGENS, type Opcoes, type PageOf, type Perfil, type Usuario, type UsuarioListItem } from '../../src/shared/index';
import usuarios from '../../src/web/index';
import { tagOptions } from '../../src/web/tags';
import { makeSession } from './helpers';

const start = (path: string) => renderPlugin(usuarios, { path });

const T = { timeout: 5000 };
const E1 = '00000000-0000-4000-8000-0000000000e1';
const E2 = '00000000-0000-4000-8000-0000000000e2';
const P = {
  p_req: '00000000-0000-4000-8000-000000000001',
  p_aud: '00000000-0000-4000-8000-000000000002',
  p_con: '00000000-0000-4000-8000-000000000003',
  p_new: '00000000-0000-4000-8000-000000000004',
  p1: '00000000-0000-4000-8000-000000000005',
  p9: '00000000-0000-4000-8000-000000000006',
  p_ctl: '00000000-0000-4000-8000-000000000007',
};
/** Centros de custo: C1..C3 of the Prefeitura (C3 inactive), C4 and C5 of the Câmara. */
const C = {
  c1: '00000000-0000-4000-8000-0000000000c1',
  c2: '00000000-0000-4000-8000-0000000000c2',
  c3: '00000000-0000-4000-8000-0000000000c3',
  c4: '00000000-0000-4000-8000-0000000000c4',
  c5: '00000000-0000-4000-8000-0000000000c5',
};

const lista: PageOf<UsuarioListItem> = {
  items: [
    {
      id: 'u1',
      nome: 'Carla Compradora',
      login: 'comprador',
      email: 'comprador@exemplo.gov.br',
      cpfMascarado: '***.456.789-**',
      cargo: 'Agente de Contratação',
      ativo: true,
      perfis: [
        { entidadeId: E1, entidadeNome: 'Prefeitura Municipal de Exemplo', perfilId: P.p1, perfilNome: 'Comprador', centrosCusto: [] },
        { entidadeId: E2, entidadeNome: 'Câmara Municipal de Exemplo', perfilId: P.p9, perfilNome: 'Consulta', centrosCusto: [] },
      ],
    },
  ],
  total: 45,
  page: 1,
  pageSize: 20,
};

const opcoes: Opcoes = {
  entidades: [
    {
      id: E1,
      nome: 'Prefeitura Municipal de Exemplo',
      atual: true,
      minhasTags: [3, 29, 39],
      meusTodosCentros: true,
      meusCentros: [],
      perfis: [
        { id: P.p_req, nome: 'Requisitante', tags: [29, 39], todosCentros: false },
        { id: P.p_aud, nome: 'Auditor', tags: [90], todosCentros: true },
      ],
      centrosCusto: [
        { id: C.c1, codigo: '02', nome: 'Secretaria de Educação', ativo: true },
        { id: C.c2, codigo: '03', nome: 'Secretaria de Saúde', ativo: true },
        { id: C.c3, codigo: '04', nome: 'Secretaria de Obras', ativo: false },
      ],
    },
    {
      id: E2,
      nome: 'Câmara Municipal de Exemplo',
      atual: false,
      minhasTags: [3],
      // the caller sees only the Gabinete's documents in the Câmara
      meusTodosCentros: false,
      meusCentros: [C.c4],
      perfis: [
        { id: P.p_con, nome: 'Consulta', tags: [], todosCentros: false },
        { id: P.p_ctl, nome: 'Controladoria', tags: [], todosCentros: true },
      ],
      centrosCusto: [
        { id: C.c4, codigo: '01', nome: 'Gabinete', ativo: true },
        { id: C.c5, codigo: '02', nome: 'Finanças', ativo: true },
      ],
    },
  ],
};

describe('@app/usuarios manifest', () => {
  it("tag 3 at '/usuarios', menu 'Usuários' in 'Administração', lazy pages only", () => {
    expect(usuarios).toMatchObject({ id: 'usuarios', basePath: '/usuarios', tag: 3, packageName: '@app/usuarios' });
    expect(usuarios.menu).toMatchObject({ label: 'Usuários', group: 'Administração' });
    expect(usuarios.routes.map((r) => r.path)).toEqual(['/', '/new', '/edit/:id', '/perfis', '/perfis/new', '/perfis/edit/:id', '/caixa-de-saida']);
    expect(usuarios.routes.find((r) => r.path === '/caixa-de-saida')?.title).toBe('Caixa de saída');
    const source = readFileSync('src/web/index.ts', 'utf8');
    expect(source).not.toMatch(/^import .*pages/m);
    expect(source.match(/load: \(\) => import\('\.\/pages\/\w+'\)/g)).toHaveLength(7);
  });

  it('without tag 3 the pages answer Erro 403', async () => {
    signInForTest(makeSession({ tags: [] }));
    mockApi({});
    start('/usuarios');
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
  });
});

describe('users list', () => {
  it('shows nome, login, e-mail, masked CPF, cargo, perfis and ativo; search and page go to the API', async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    const { calls } = mockApi({ 'GET /api/usuarios/usuarios': () => Response.json(lista) });
    start('/usuarios');
    expect(await screen.findByRole('heading', { level: 1, name: 'Usuários' }, T)).toBeTruthy();
    const row = (await screen.findByRole('rowheader', { name: 'Carla Compradora' }, T)).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 6)).toEqual([
      'comprador',
      'comprador@exemplo.gov.br',
      '***.456.789-**',
      'Agente de Contratação',
      'Comprador; Consulta (Câmara Municipal de Exemplo)',
      'Sim',
    ]);
    expect(within(row).getByRole('link', { name: 'Editar Carla Compradora' }).getAttribute('href')).toBe('/usuarios/edit/u1');
    expect(screen.getByRole('link', { name: 'Novo usuário' }).getAttribute('href')).toBe('/usuarios/new');
    expect(screen.getByRole('link', { name: 'Perfis' }).getAttribute('href')).toBe('/usuarios/perfis');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Pesquisar' }), { target: { value: 'carla' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(calls.some((c) => c.search.get('q') === 'carla')).toBe(true));
    expect(window.location.search).toBe('?q=carla');
    fireEvent.click(await screen.findByRole('button', { name: /Próxima/ }, T));
    await waitFor(() => expect(calls.some((c) => c.search.get('page') === '2' && c.search.get('q') === 'carla')).toBe(true));
  });
});

describe('user form', () => {
  it('validates with the shared schema before calling the API (CPF, password policy, perfil)', async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    const { calls } = mockApi({ 'GET /api/usuarios/opcoes': () => Response.json(opcoes) });
    start('/usuarios/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'Novo usuário' }, T)).toBeTruthy();
    fireEvent.change(await screen.findByLabelText(/^Nome/, {}, T), { target: { value: 'Fernanda Lima' } });
    fireEvent.change(screen.getByLabelText(/^Login/), { target: { value: 'fernanda' } });
    fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: 'fernanda@exemplo.gov.br' } });
    fireEvent.change(screen.getByLabelText(/^CPF/), { target: { value: '11144477700' } });
    expect((screen.getByLabelText(/^CPF/) as HTMLInputElement).value).toBe('111.444.777-00');
    fireEvent.change(screen.getByLabelText(/^Senha inicial/), { target: { value: 'curta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('CPF inválido: confira os dígitos verificadores.')).toBeTruthy();
    expect(screen.getByText('A senha deve ter pelo menos 8 caracteres (recomendamos 15 ou mais).')).toBeTruthy();
    expect(screen.getByText('O usuário precisa ter um perfil nesta entidade.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    // a perfil granting tags the admin lacks is offered disabled
    const auditor = screen.getByRole('option', { name: 'Auditor (concede permissões que você não possui)' }) as HTMLOptionElement;
    expect(auditor.disabled).toBe(true);
  });

  it('creates: POST with the perfil of each entidade, then stays on the new user, naming it', async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    const criado: Usuario = {
      id: 'novo',
      nome: 'Fernanda Lima',
      login: 'fernanda',
      email: 'fernanda@exemplo.gov.br',
      cpf: '11144477735',
      cargo: null,
      ativo: true,
      version: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      entidades: [
        { entidadeId: E1, entidadeNome: 'Prefeitura Municipal de Exemplo', perfilId: P.p_req, perfilNome: 'Requisitante', centrosCusto: [C.c1, C.c2] },
      ],
      podeAlterarConta: true,
    };
    const { calls } = mockApi({
      'GET /api/usuarios/opcoes': () => Response.json(opcoes),
      // the API answers a create with the id only: the form reads the user
      'POST /api/usuarios/usuarios': () => Response.json({ id: 'novo' }, { status: 201 }),
      'GET /api/usuarios/usuarios/novo': () => Response.json(criado),
    });
    start('/usuarios/new');
    fireEvent.change(await screen.findByLabelText(/^Nome/, {}, T), { target: { value: 'Fernanda Lima' } });
    fireEvent.change(screen.getByLabelText(/^Login/), { target: { value: 'fernanda' } });
    fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: 'fernanda@exemplo.gov.br' } });
    fireEvent.change(screen.getByLabelText(/^CPF/), { target: { value: '111.444.777-35' } });
    fireEvent.change(screen.getByLabelText(/^Senha inicial/), { target: { value: 'uma frase longa' } });
    // no perfil yet: no centros de custo to choose
    expect(screen.queryByRole('group', { name: /^Centros de custo em/ })).toBeNull();
    fireEvent.change(screen.getByLabelText(/^Perfil em Prefeitura/), { target: { value: P.p_req } });
    // a perfil with access to every centro is offered only where the caller has that access too
    const controladoria = within(screen.getByLabelText(/^Perfil em Câmara/)).getByRole('option', {
      name: 'Controladoria (acessa todos os centros de custo, o que você não possui)',
    }) as HTMLOptionElement;
    expect(controladoria.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Perfil em Câmara/), { target: { value: P.p_con } });
    const prefeitura = screen.getByRole('group', { name: 'Centros de custo em Prefeitura Municipal de Exemplo' });
    // the inactive centro is not offered to a new user
    expect(
      within(prefeitura)
        .getAllByRole('checkbox')
        .map((b) => [(b as HTMLInputElement).labels?.[0]?.textContent, (b as HTMLInputElement).disabled]),
    ).toEqual([
      ['02 – Secretaria de Educação', false],
      ['03 – Secretaria de Saúde', false],
    ]);
    fireEvent.click(within(prefeitura).getByLabelText('03 – Secretaria de Saúde'));
    fireEvent.click(within(prefeitura).getByLabelText('02 – Secretaria de Educação'));
    const camara = screen.getByRole('group', { name: 'Centros de custo em Câmara Municipal de Exemplo' });
    expect(within(camara).getByText(/Você só pode dar os centros de custo aos quais pertence/)).toBeTruthy();
    // in the Câmara the caller gives only the centro they belong to
    expect((within(camara).getByLabelText('02 – Finanças') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(camara).getByLabelText('01 – Gabinete'));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios/edit/novo'), T);
    expect(await screen.findByText('Usuário Fernanda Lima salvo.', {}, T)).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar usuário' }, T)).toBeTruthy();
    expect(await screen.findByText('Fernanda Lima (fernanda)', {}, T)).toBeTruthy();
    expect(screen.getByLabelText(/^Nova senha/)).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      nome: 'Fernanda Lima',
      login: 'fernanda',
      email: 'fernanda@exemplo.gov.br',
      cpf: '111.444.777-35',
      cargo: '',
      ativo: true,
      senha: 'uma frase longa',
      entidades: [
        // in the order of the centros (by código), whatever the order they were checked
        { entidadeId: E1, perfilId: P.p_req, centrosCusto: [C.c1, C.c2] },
        { entidadeId: E2, perfilId: P.p_con, centrosCusto: [C.c4] },
      ],
    });
  });

  it('shows the server field message of a centro de custo refused', async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    mockApi({
      'GET /api/usuarios/opcoes': () => Response.json(opcoes),
      'POST /api/usuarios/usuarios': () =>
        Response.json(
          {
            error: {
              code: 'validation_error',
              message: 'Verifique os campos destacados.',
              fields: { 'entidades.0.centrosCusto': MENSAGENS.centroCustoInvalido },
            },
          },
          { status: 400 },
        ),
    });
    start('/usuarios/new');
    fireEvent.change(await screen.findByLabelText(/^Nome/, {}, T), { target: { value: 'Fernanda Lima' } });
    fireEvent.change(screen.getByLabelText(/^Login/), { target: { value: 'fernanda' } });
    fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: 'fernanda@exemplo.gov.br' } });
    fireEvent.change(screen.getByLabelText(/^Senha inicial/), { target: { value: 'uma frase longa' } });
    fireEvent.change(screen.getByLabelText(/^Perfil em Prefeitura/), { target: { value: P.p_req } });
    fireEvent.click(screen.getByLabelText('02 – Secretaria de Educação'));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const group = screen.getByRole('group', { name: 'Centros de custo em Prefeitura Municipal de Exemplo' });
    expect(await within(group).findByText(MENSAGENS.centroCustoInvalido, {}, T)).toBeTruthy();
  });

  it("edits with the version; 409 'stale' shows the kit's notice, and 'Recarregar' discards the changes", async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    const usuario: Usuario = {
      id: 'u1',
      nome: 'Carla Compradora',
      login: 'comprador',
      email: 'comprador@exemplo.gov.br',
      cpf: '11144477735',
      cargo: null,
      ativo: true,
      version: 4,
      createdAt: '2025-01-01T00:00:00.000Z',
      // C3 is inactive now, still hers; an id no longer registered is dropped on save
      entidades: [
        {
          entidadeId: E1,
          entidadeNome: 'Prefeitura Municipal de Exemplo',
          perfilId: P.p_aud,
          perfilNome: 'Auditor',
          centrosCusto: [C.c3, '00000000-0000-4000-8000-0000000000ff'],
        },
      ],
      podeAlterarConta: true,
    };
    let version = 4;
    const { calls } = mockApi({
      'GET /api/usuarios/opcoes': () => Response.json(opcoes),
      'GET /api/usuarios/usuarios/u1': () => Response.json({ ...usuario, version }),
      'PUT /api/usuarios/usuarios/u1': () => {
        version = 5;
        return Response.json({ error: { code: 'stale', message: MENSAGENS.versaoDesatualizada } }, { status: 409 });
      },
    });
    start('/usuarios/edit/u1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar usuário' }, T)).toBeTruthy();
    expect(((await screen.findByLabelText(/^CPF/, {}, T)) as HTMLInputElement).value).toBe('111.444.777-35');
    // the perfil the user already has stays selectable even if the admin could not grant it
    expect((screen.getByRole('option', { name: 'Auditor' }) as HTMLOptionElement).disabled).toBe(false);
    const centros = screen.getByRole('group', { name: 'Centros de custo em Prefeitura Municipal de Exemplo' });
    expect(within(centros).getByText(/acessa os documentos de todos os centros de custo/)).toBeTruthy();
    const inativo = within(centros).getByLabelText('04 – Secretaria de Obras (inativo)') as HTMLInputElement;
    expect([inativo.checked, inativo.disabled]).toEqual([true, false]);
    fireEvent.change(screen.getByLabelText(/^Cargo/), { target: { value: 'Pregoeira' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    // the resource kit's notice (same title and message as its forms)
    expect(await screen.findByText('Registro alterado por outra pessoa', {}, T)).toBeTruthy();
    expect(screen.getByText(`${MENSAGENS.versaoDesatualizada} Suas alterações não salvas serão descartadas.`)).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ version: 4, cargo: 'Pregoeira', entidades: [{ entidadeId: E1, perfilId: P.p_aud, centrosCusto: [C.c3] }] });
    expect(put.body).not.toHaveProperty('senha');
    expect(screen.getByRole('button', { name: 'Desativar usuário' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Voltar para Usuários/ }).getAttribute('href')).toBe('/usuarios');
    // 'Recarregar': the current version, the changes not saved discarded
    fireEvent.click(screen.getByRole('button', { name: 'Recarregar' }));
    await waitFor(() => expect((screen.getByLabelText(/^Cargo/) as HTMLInputElement).value).toBe(''), T);
    expect(screen.queryByText('Registro alterado por outra pessoa')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2), T);
    expect(calls.filter((c) => c.method === 'PUT')[1]!.body).toMatchObject({ version: 5, cargo: '' });
    // nothing changed since the reload: leaving does not ask
    fireEvent.click(screen.getByRole('link', { name: /Voltar para Usuários/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios'), T);
    expect(screen.queryByText('Sair sem salvar?')).toBeNull();
  });

  it('a user shared with an entidade the caller does not administer: account fields locked, with the reason; perfis still editable', async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    const usuario: Usuario = {
      id: 'u2',
      nome: 'Dora Dupla',
      login: 'dupla',
      email: 'dupla@exemplo.gov.br',
      cpf: null,
      cargo: 'Servidora',
      ativo: true,
      version: 2,
      createdAt: '2025-01-01T00:00:00.000Z',
      entidades: [{ entidadeId: E1, entidadeNome: 'Prefeitura Municipal de Exemplo', perfilId: P.p_aud, perfilNome: 'Auditor', centrosCusto: [C.c2] }],
      podeAlterarConta: false,
    };
    const { calls } = mockApi({
      'GET /api/usuarios/opcoes': () => Response.json(opcoes),
      'GET /api/usuarios/usuarios/u2': () => Response.json(usuario),
      'PUT /api/usuarios/usuarios/u2': () => Response.json({ ...usuario, version: 3 }),
      'GET /api/usuarios/usuarios': () => Response.json({ ...lista, items: [] }),
    });
    start('/usuarios/edit/u2');
    expect(await screen.findByText(MENSAGENS.contaCompartilhadaAviso, {}, T)).toBeTruthy();
    // shown, not changeable: read-only text inputs, a disabled checkbox
    for (const label of [/^Nome/, /^Login/, /^E-mail/, /^CPF/, /^Cargo/]) {
      expect((screen.getByLabelText(label) as HTMLInputElement).readOnly).toBe(true);
    }
    expect((screen.getByLabelText(/^Ativo/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText(/^Perfil em Prefeitura/) as HTMLSelectElement).disabled).toBe(false);
    expect(screen.queryByLabelText(/^Nova senha/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Desativar usuário' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remover desta entidade' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Perfil em Prefeitura/), { target: { value: P.p_req } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios'), T);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      nome: 'Dora Dupla',
      login: 'dupla',
      email: 'dupla@exemplo.gov.br',
      cpf: '',
      cargo: 'Servidora',
      ativo: true,
      entidades: [{ entidadeId: E1, perfilId: P.p_req, centrosCusto: [C.c2] }],
      version: 2,
    });
  });
  it("'Desativar usuário' loads the answer into the form; 'Remover desta entidade' asks, then goes back to the list", async () => {
    signInForTest(makeSession({ entidade: { ...makeSession().entidade, id: E1 } }));
    const usuario: Usuario = {
      id: 'u3',
      nome: 'Beto Bastos',
      login: 'beto',
      email: 'beto@exemplo.gov.br',
      cpf: null,
      cargo: null,
      ativo: true,
      version: 7,
      createdAt: '2025-01-01T00:00:00.000Z',
      entidades: [{ entidadeId: E1, entidadeNome: 'Prefeitura Municipal de Exemplo', perfilId: P.p_req, perfilNome: 'Requisitante', centrosCusto: [] }],
      podeAlterarConta: true,
    };
    const { calls } = mockApi({
      'GET /api/usuarios/opcoes': () => Response.json(opcoes),
      'GET /api/usuarios/usuarios/u3': () => Response.json(usuario),
      'POST /api/usuarios/usuarios/u3/desativar': () => Response.json({ ...usuario, ativo: false, version: 8 }),
      'POST /api/usuarios/usuarios/u3/ativar': () => Response.json({ ...usuario, ativo: true, version: 9 }),
      'DELETE /api/usuarios/usuarios/u3': () => new Response(null, { status: 204 }),
      'GET /api/usuarios/usuarios': () => Response.json({ ...lista, items: [] }),
    });
    start('/usuarios/edit/u3');
    fireEvent.click(await screen.findByRole('button', { name: 'Desativar usuário' }, T));
    expect(await screen.findByText('Usuário desativado.', {}, T)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ version: 7 });
    // the form holds the new version and state: saving now sends them
    expect(await screen.findByRole('button', { name: 'Ativar usuário' }, T)).toBeTruthy();
    expect((screen.getByLabelText(/^Ativo/) as HTMLInputElement).checked).toBe(false);
    // one verb with the kit: 'Ativar' posts to …/ativar
    fireEvent.click(screen.getByRole('button', { name: 'Ativar usuário' }));
    expect(await screen.findByText('Usuário ativado.', {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/api/usuarios/usuarios/u3/desativar', { version: 7 }],
      ['/api/usuarios/usuarios/u3/ativar', { version: 8 }],
    ]);
    expect(await screen.findByRole('button', { name: 'Desativar usuário' }, T)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remover desta entidade' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar remoção' }));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios'), T);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/usuarios/usuarios/u3']);
    expect(await screen.findByText('Usuário removido desta entidade.', {}, T)).toBeTruthy();
  });
});

describe('perfil form', () => {
  it('lists every declared tag named; tags the user does not hold are disabled', async () => {
    signInForTest(makeSession({ tags: [3, 25] }));
    const { calls } = mockApi({
      'GET /api/usuarios/tags': () =>
        Response.json({
          items: [
            { tag: 3, nome: 'Usuários e perfis', plugins: ['usuarios'] },
            { tag: 25, nome: 'Produtos', plugins: ['produtos'] },
            { tag: 90, nome: 'Logs de Auditoria', plugins: ['auditoria'] },
          ],
        }),
      'POST /api/usuarios/perfis': () => Response.json({ id: P.p_new }, { status: 201 }),
      [`GET /api/usuarios/perfis/${P.p_new}`]: () =>
        Response.json({ id: P.p_new, nome: 'Almoxarife', tags: [25], todosCentros: false, usuarios: 0, version: 1 } satisfies Perfil),
    });
    start('/usuarios/perfis/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'Novo perfil' }, T)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Voltar para Perfis/ }).getAttribute('href')).toBe('/usuarios/perfis');
    const group = await screen.findByRole('group', { name: 'Tags concedidas por este perfil' }, T);
    const boxes = within(group).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => [b.labels?.[0]?.textContent, b.disabled])).toEqual([
      ['Usuários e perfis (3)', false],
      ['Produtos (25)', false],
      ['Logs de Auditoria (90)', true],
    ]);
    fireEvent.change(screen.getByLabelText(/^Nome do perfil/), { target: { value: 'Almoxarife' } });
    fireEvent.click(within(group).getByLabelText('Produtos (25)'));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    // the new perfil's page, named in the toast
    await waitFor(() => expect(window.location.pathname).toBe(`/usuarios/perfis/edit/${P.p_new}`), T);
    expect(await screen.findByText('Perfil Almoxarife salvo.', {}, T)).toBeTruthy();
    expect(await screen.findByText('Almoxarife · nenhum usuário tem este perfil', {}, T)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ nome: 'Almoxarife', tags: [25], todosCentros: false });
  });

  it("'Acessa os documentos de todos os centros de custo': only who has that access gives it", async () => {
    signInForTest(makeSession({ tags: [3], todosCentros: false, centrosCusto: [C.c1] }));
    const tags = () => Response.json({ items: [{ tag: 3, nome: 'Usuários e perfis', plugins: ['usuarios'] }] });
    mockApi({ 'GET /api/usuarios/tags': tags });
    start('/usuarios/perfis/new');
    const box = (await screen.findByLabelText(MENSAGENS.todosCentros, {}, T)) as HTMLInputElement;
    expect([box.checked, box.disabled]).toEqual([false, true]);
    expect(screen.getByText(/Só quem acessa todos os centros de custo pode dar esse acesso/)).toBeTruthy();
    cleanup();
    resetCoreState();

    signInForTest(makeSession({ tags: [3], todosCentros: true }));
    const perfil: Perfil = { id: P.p_aud, nome: 'Auditor', tags: [3], todosCentros: false, usuarios: 1, version: 3 };
    const { calls } = mockApi({
      'GET /api/usuarios/tags': tags,
      [`GET /api/usuarios/perfis/${P.p_aud}`]: () => Response.json(perfil),
      [`PUT /api/usuarios/perfis/${P.p_aud}`]: () => Response.json({ ...perfil, todosCentros: true, version: 4 }),
      'GET /api/usuarios/perfis': () => Response.json({ items: [], total: 0, page: 1, pageSize: 50 } satisfies PageOf<Perfil>),
    });
    start(`/usuarios/perfis/edit/${P.p_aud}`);
    const enabled = (await screen.findByLabelText(MENSAGENS.todosCentros, {}, T)) as HTMLInputElement;
    expect(enabled.disabled).toBe(false);
    fireEvent.click(enabled);
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios/perfis'), T);
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ nome: 'Auditor', tags: [3], todosCentros: true, version: 3 });
  });

  it('unsaved changes: leaving asks in the app dialog (core guard), not before any change', async () => {
    signInForTest(makeSession({ tags: [3] }));
    const perfil: Perfil = { id: P.p_aud, nome: 'Auditor', tags: [3], todosCentros: false, usuarios: 1, version: 3 };
    mockApi({
      'GET /api/usuarios/tags': () => Response.json({ items: [{ tag: 3, nome: 'Usuários e perfis', plugins: ['usuarios'] }] }),
      [`GET /api/usuarios/perfis/${P.p_aud}`]: () => Response.json(perfil),
      'GET /api/usuarios/perfis': () => Response.json({ items: [], total: 0, page: 1, pageSize: 50 } satisfies PageOf<Perfil>),
    });
    start(`/usuarios/perfis/edit/${P.p_aud}`);
    const nome = (await screen.findByLabelText(/^Nome do perfil/, {}, T)) as HTMLInputElement;
    // a change undone is no change
    fireEvent.change(nome, { target: { value: 'Auditoria' } });
    fireEvent.change(nome, { target: { value: 'Auditor' } });
    fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios/perfis'), T);
    expect(screen.queryByText('Sair sem salvar?')).toBeNull();
    cleanup();

    start(`/usuarios/perfis/edit/${P.p_aud}`);
    fireEvent.change(await screen.findByLabelText(/^Nome do perfil/, {}, T), { target: { value: 'Auditoria' } });
    fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    expect(await screen.findByText('Sair sem salvar?', {}, T)).toBeTruthy();
    expect(screen.getByText('Há alterações não salvas. Deseja sair sem salvar?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continuar editando' }));
    await waitFor(() => expect(screen.queryByText('Sair sem salvar?')).toBeNull(), T);
    expect(window.location.pathname).toBe(`/usuarios/perfis/edit/${P.p_aud}`);
    expect((screen.getByLabelText(/^Nome do perfil/) as HTMLInputElement).value).toBe('Auditoria');
    fireEvent.click(screen.getByRole('link', { name: /Voltar para Perfis/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sair sem salvar' }, T));
    await waitFor(() => expect(window.location.pathname).toBe('/usuarios/perfis'), T);
  });

  it("only 409 'stale' is the stale notice; another 409 (a name in use) is the server's message, with no 'Recarregar'", async () => {
    signInForTest(makeSession({ tags: [3] }));
    const perfil: Perfil = { id: P.p_aud, nome: 'Auditor', tags: [3], todosCentros: false, usuarios: 1, version: 3 };
    let answer: { code: string; message: string } = { code: 'conflict', message: MENSAGENS.perfilNomeEmUso };
    mockApi({
      'GET /api/usuarios/tags': () => Response.json({ items: [{ tag: 3, nome: 'Usuários e perfis', plugins: ['usuarios'] }] }),
      [`GET /api/usuarios/perfis/${P.p_aud}`]: () => Response.json(perfil),
      [`PUT /api/usuarios/perfis/${P.p_aud}`]: () => Response.json({ error: answer }, { status: 409 }),
    });
    start(`/usuarios/perfis/edit/${P.p_aud}`);
    expect(await screen.findByText('Auditor · atribuído a 1 usuário', {}, T)).toBeTruthy();
    fireEvent.change(await screen.findByLabelText(/^Nome do perfil/, {}, T), { target: { value: 'Auditoria' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MENSAGENS.perfilNomeEmUso, {}, T)).toBeTruthy();
    expect(screen.queryByText('Registro alterado por outra pessoa')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Recarregar' })).toBeNull();

    answer = { code: 'stale', message: MENSAGENS.versaoDesatualizada };
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Registro alterado por outra pessoa', {}, T)).toBeTruthy();
    expect(screen.getByText(`${MENSAGENS.versaoDesatualizada} Suas alterações não salvas serão descartadas.`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Recarregar' })).toBeTruthy();
  });

  it('perfis list: permissions named (exempt tags hidden), users count, edit link', async () => {
    signInForTest(makeSession());
    mockApi({
      'GET /api/usuarios/tags': () => Response.json({ items: [{ tag: 90, nome: 'Logs de Auditoria', plugins: ['auditoria'] }] }),
      'GET /api/usuarios/perfis': () =>
        Response.json({
          items: [
            { id: P.p_aud, nome: 'Auditor', tags: [0, 90], todosCentros: true, usuarios: 2, version: 1 },
            { id: P.p_con, nome: 'Consulta', tags: [], todosCentros: false, usuarios: 0, version: 1 },
          ],
          total: 2,
          page: 1,
          pageSize: 50,
        } satisfies PageOf<Perfil>),
    });
    start('/usuarios/perfis');
    expect(await screen.findByRole('heading', { level: 1, name: 'Perfis' }, T)).toBeTruthy();
    const row = (await screen.findByRole('rowheader', { name: 'Auditor' }, T)).closest('tr')!;
    await waitFor(() => expect(within(row).getAllByRole('cell')[0]!.textContent).toBe('Logs de Auditoria (90)'));
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('2');
    expect(within(row).getAllByRole('cell')[2]!.textContent).toBe('Todos os centros de custo');
    expect(within(row).getByRole('link', { name: 'Editar perfil Auditor' }).getAttribute('href')).toBe(`/usuarios/perfis/edit/${P.p_aud}`);
    const consulta = screen.getByRole('rowheader', { name: 'Consulta' }).closest('tr')!;
    expect(within(consulta).getAllByRole('cell')[0]!.textContent).toBe('Nenhuma');
    expect(within(consulta).getAllByRole('cell')[2]!.textContent).toBe('Dos centros do usuário');
    expect(screen.getByRole('link', { name: 'Novo perfil' }).getAttribute('href')).toBe('/usuarios/perfis/new');
  });

  it('tagOptions: declared ∪ perfil ∪ held, exempt tags out, names from the plugins then the spec', () => {
    const options = tagOptions([{ tag: 25, nome: 'Produtos', plugins: ['produtos'] }], [29, 0], [3, 25, -1]);
    expect(options).toEqual([
      { tag: 3, nome: 'Usuários e perfis', held: true },
      { tag: 25, nome: 'Produtos', held: true },
      { tag: 29, nome: 'Memorandos', held: false },
    ]);
  });
});
