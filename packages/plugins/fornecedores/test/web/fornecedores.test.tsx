// @vitest-environment jsdom
import { makeTestSession, mockApi, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import fornecedores from '../../src/web/index';

const T = { timeout: 5000 };

/** Opens the page as a user of the catalogue: tags 24 (registros), 25 (produtos) and 26 (fornecedores). */
const start = (path: string) => renderPlugin(fornecedores, { path, session: makeTestSession({ tags: [24, 25, 26] }) });

const R1 = '00000000-0000-4000-8000-0000000000a1';
const R2 = '00000000-0000-4000-8000-0000000000a2';
const ramos = pageOf([
  { id: R1, nome: 'Comércio varejista de artigos de papelaria', cnae: '4761003', ativo: true },
  { id: R2, nome: 'Comércio atacadista de equipamentos de informática', cnae: '4651601', ativo: true },
]);

const fornecedor = {
  id: '00000000-0000-4000-8000-000000000f01',
  documento: '12ABC34501DE35',
  documentoFormatado: '12.ABC.345/01DE-35',
  tipoPessoa: 'juridica',
  razaoSocial: 'Nova Era Tecnologia Ltda',
  nomeFantasia: 'Nova Era',
  logradouro: 'Rua Líbero Badaró',
  numero: '425',
  complemento: null,
  bairro: 'Centro',
  cep: '01009000',
  municipio: 'São Paulo',
  uf: 'SP',
  contatos: [{ nome: 'Larissa Okada', email: 'larissa@novaera.example.com', telefone: '1130350800' }],
  ramoIds: [R2],
  ramos: [{ id: R2, nome: 'Comércio atacadista de equipamentos de informática' }],
  situacao: 'impedido',
  impedimentoMotivo: 'Sanção',
  impedimentoDe: '2026-03-01',
  impedimentoAte: '2027-02-28',
  ativo: true,
  version: 3,
};

describe('@app/fornecedores manifest', () => {
  it("'Fornecedores' at /fornecedor with tag 26; lazy pages only", () => {
    expect(fornecedores).toMatchObject({ id: 'fornecedores', basePath: '/fornecedor', tag: 26, title: 'Fornecedores', packageName: '@app/fornecedores' });
    expect(fornecedores.menu).toMatchObject({ label: 'Fornecedores', group: 'Cadastros' });
    expect(fornecedores.routes.map((r) => [r.path, r.title])).toEqual([
      ['/', 'Fornecedores'],
      ['/new', 'Novo fornecedor'],
      ['/edit/:id', 'Editar fornecedor'],
      ['/importar', 'Importar fornecedores'],
    ]);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });
});

describe('list', () => {
  it('shows the document masked and the impedimento', async () => {
    mockApi({ 'GET /api/fornecedores/fornecedores': () => Response.json(pageOf([fornecedor])) });
    start('/fornecedor');
    expect(await screen.findByRole('heading', { level: 1, name: 'Fornecedores' }, T)).toBeTruthy();
    expect(await screen.findByText('12.ABC.345/01DE-35', {}, T)).toBeTruthy();
    expect(screen.getByText('Impedido até 28/02/2027')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Importar planilha' }).getAttribute('href')).toBe('/fornecedor/importar');
  });
});

describe('form', () => {
  it('new supplier: masks as typed, validates with the shared schema, asks for the impedimento, and posts a clean body', async () => {
    let posted: Record<string, unknown> | undefined;
    mockApi({
      'GET /api/registros/ramos-atividade': () => Response.json(ramos),
      'GET /api/fornecedores/fornecedores': () => Response.json(pageOf([])),
      'POST /api/fornecedores/fornecedores': async (call) => {
        posted = (await call.request.json()) as Record<string, unknown>;
        return Response.json({ ...fornecedor, id: 'novo' }, { status: 201 });
      },
    });
    start('/fornecedor/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'Novo fornecedor' }, T)).toBeTruthy();
    const doc = screen.getByLabelText(/CPF ou CNPJ/) as HTMLInputElement;
    fireEvent.change(doc, { target: { value: '12abc34501de35' } });
    expect(doc.value).toBe('12.ABC.345/01DE-35');
    expect(screen.getByText('Pessoa jurídica.')).toBeTruthy();

    // submit with little filled: the schema's pt-BR messages
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe a razão social (ou o nome, para pessoa física).', {}, T)).toBeTruthy();
    expect(screen.getByText('Escolha ao menos um ramo de atividade.')).toBeTruthy();
    expect(screen.getByText('O CEP tem 8 dígitos.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/Razão social/), { target: { value: 'Nova Era Tecnologia Ltda' } });
    const cep = screen.getByLabelText(/CEP/) as HTMLInputElement;
    fireEvent.change(cep, { target: { value: '01009000' } });
    expect(cep.value).toBe('01009-000');
    fireEvent.change(screen.getByLabelText(/Logradouro/), { target: { value: 'Rua Líbero Badaró' } });
    fireEvent.change(screen.getByLabelText(/Município/), { target: { value: 'São Paulo' } });
    fireEvent.change(screen.getByLabelText(/^UF/), { target: { value: 'SP' } });
    fireEvent.click(await screen.findByLabelText('Comércio atacadista de equipamentos de informática (CNAE 4651601)', {}, T));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar contato' }));
    fireEvent.change(screen.getByLabelText('Nome do contato 1'), { target: { value: 'Larissa Okada' } });
    const tel = screen.getByLabelText('Telefone do contato 1') as HTMLInputElement;
    fireEvent.change(tel, { target: { value: '1130350800' } });
    expect(tel.value).toBe('(11) 3035-0800');

    fireEvent.change(screen.getByRole('combobox', { name: /^Situação/ }), { target: { value: 'impedido' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe o motivo do impedimento.', {}, T)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Motivo do impedimento/), { target: { value: 'Sanção' } });
    fireEvent.change(screen.getByLabelText(/Impedido de/), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText(/Impedido até/), { target: { value: '2027-02-28' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(posted).toBeDefined(), T);
    // shown masked, sent unmasked (the schema would accept either)
    expect(posted).toMatchObject({
      documento: '12ABC34501DE35',
      razaoSocial: 'Nova Era Tecnologia Ltda',
      cep: '01009000',
      uf: 'SP',
      ramoIds: [R2],
      contatos: [{ nome: 'Larissa Okada', email: '', telefone: '1130350800' }],
      situacao: 'impedido',
      impedimentoMotivo: 'Sanção',
      impedimentoDe: '2026-03-01',
      impedimentoAte: '2027-02-28',
    });
    // stays on the record it created, and says which one was saved
    await waitFor(() => expect(window.location.pathname).toBe('/fornecedor/edit/novo'), T);
    expect(await screen.findByText('Fornecedor Nova Era Tecnologia Ltda salvo.', {}, T)).toBeTruthy();
  });

  it('edit: loads masked values, sends the version, and shows the server field errors (duplicate document)', async () => {
    let put: Record<string, unknown> | undefined;
    mockApi({
      'GET /api/registros/ramos-atividade': () => Response.json(ramos),
      [`GET /api/fornecedores/fornecedores/${fornecedor.id}`]: () => Response.json(fornecedor),
      [`PUT /api/fornecedores/fornecedores/${fornecedor.id}`]: async (call) => {
        put = (await call.request.json()) as Record<string, unknown>;
        const message = 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.';
        return Response.json({ error: { code: 'duplicate', message, fields: { documento: message } } }, { status: 409 });
      },
    });
    start(`/fornecedor/edit/${fornecedor.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar fornecedor' }, T)).toBeTruthy();
    expect((screen.getByLabelText(/CPF ou CNPJ/) as HTMLInputElement).value).toBe('12.ABC.345/01DE-35');
    expect((screen.getByLabelText(/CEP/) as HTMLInputElement).value).toBe('01009-000');
    expect((screen.getByLabelText('Telefone do contato 1') as HTMLInputElement).value).toBe('(11) 3035-0800');
    expect((screen.getByLabelText(/Impedido até/) as HTMLInputElement).value).toBe('2027-02-28');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const field = await screen.findByText('Já existe um fornecedor com este CPF/CNPJ nesta entidade.', { selector: '.field__error, .field__error *' }, T);
    expect(field).toBeTruthy();
    expect(put?.version).toBe(3);
    const alert = screen.getAllByRole('alert').find((a) => within(a).queryByText('Já existe um fornecedor com este CPF/CNPJ nesta entidade.'));
    expect(alert).toBeTruthy();
  });

  it('impedido shows motivo and period; another situação hides them and leaves them out of the body', async () => {
    let put: Record<string, unknown> | undefined;
    mockApi({
      'GET /api/registros/ramos-atividade': () => Response.json(ramos),
      [`GET /api/fornecedores/fornecedores/${fornecedor.id}`]: () => Response.json(fornecedor),
      [`PUT /api/fornecedores/fornecedores/${fornecedor.id}`]: async (call) => {
        put = (await call.request.json()) as Record<string, unknown>;
        return Response.json({ ...fornecedor, ...put, version: 4 });
      },
    });
    start(`/fornecedor/edit/${fornecedor.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar fornecedor' }, T)).toBeTruthy();
    expect(screen.getByText('12.ABC.345/01DE-35 · Nova Era Tecnologia Ltda · Impedido')).toBeTruthy();
    const situacao = within(screen.getByRole('region', { name: 'Situação' }));
    expect((situacao.getByLabelText(/Motivo do impedimento/) as HTMLTextAreaElement).value).toBe('Sanção');
    expect((situacao.getByLabelText(/Impedido de/) as HTMLInputElement).type).toBe('date');
    expect((situacao.getByLabelText(/Impedido de/) as HTMLInputElement).value).toBe('2026-03-01');

    fireEvent.change(screen.getByRole('combobox', { name: /^Situação/ }), { target: { value: 'inativo' } });
    expect(screen.queryByLabelText(/Motivo do impedimento/)).toBeNull();
    expect(screen.queryByLabelText(/Impedido de/)).toBeNull();
    expect(screen.queryByLabelText(/Impedido até/)).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: /^Situação/ }), { target: { value: 'impedido' } });
    expect((screen.getByLabelText(/Motivo do impedimento/) as HTMLTextAreaElement).value).toBe('Sanção');
    fireEvent.change(screen.getByRole('combobox', { name: /^Situação/ }), { target: { value: 'ativo' } });

    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toBeDefined(), T);
    expect(put).toMatchObject({ situacao: 'ativo', version: 3 });
    expect(put).not.toHaveProperty('impedimentoMotivo');
    expect(put).not.toHaveProperty('impedimentoDe');
    expect(put).not.toHaveProperty('impedimentoAte');
    await waitFor(() => expect(window.location.pathname).toBe('/fornecedor'), T);
  });

  it('contacts: added and removed; a contact error shows on that contact', async () => {
    let put: Record<string, unknown> | undefined;
    mockApi({
      'GET /api/registros/ramos-atividade': () => Response.json(ramos),
      [`GET /api/fornecedores/fornecedores/${fornecedor.id}`]: () => Response.json(fornecedor),
      [`PUT /api/fornecedores/fornecedores/${fornecedor.id}`]: async (call) => {
        put = (await call.request.json()) as Record<string, unknown>;
        return Response.json({ ...fornecedor, version: 4 });
      },
    });
    start(`/fornecedor/edit/${fornecedor.id}`);
    const contatos = within(await screen.findByRole('region', { name: 'Contatos' }, T));
    expect((contatos.getByLabelText('Nome do contato 1') as HTMLInputElement).value).toBe('Larissa Okada');
    fireEvent.click(contatos.getByRole('button', { name: 'Adicionar contato' }));
    fireEvent.click(contatos.getByRole('button', { name: 'Adicionar contato' }));
    expect(contatos.getByRole('group', { name: 'Contato 3' })).toBeTruthy();
    fireEvent.change(contatos.getByLabelText('Nome do contato 2'), { target: { value: 'Rafael Lima' } });
    fireEvent.change(contatos.getByLabelText('E-mail do contato 2'), { target: { value: 'rafael@' } });

    // contato 3 has no name; contato 2 a bad e-mail: the schema's messages on their own inputs
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('E-mail inválido.', {}, T)).toBeTruthy();
    expect(contatos.getByLabelText('E-mail do contato 2').getAttribute('aria-invalid')).toBe('true');
    expect(contatos.getByLabelText('Nome do contato 3').getAttribute('aria-invalid')).toBe('true');
    expect(contatos.getByLabelText('E-mail do contato 1').getAttribute('aria-invalid')).toBeNull();
    expect(put).toBeUndefined();

    fireEvent.click(contatos.getByRole('button', { name: 'Remover contato 3' }));
    fireEvent.click(contatos.getByRole('button', { name: 'Remover contato 1' }));
    expect(contatos.queryByLabelText('Nome do contato 2')).toBeNull();
    expect((contatos.getByLabelText('Nome do contato 1') as HTMLInputElement).value).toBe('Rafael Lima');
    fireEvent.change(contatos.getByLabelText('E-mail do contato 1'), { target: { value: 'Rafael@NovaEra.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toBeDefined(), T);
    expect(put?.contatos).toEqual([{ nome: 'Rafael Lima', email: 'Rafael@NovaEra.example.com', telefone: '' }]);
  });

  it('leaving a form with unsaved changes asks first; staying keeps what was typed', async () => {
    mockApi({
      'GET /api/registros/ramos-atividade': () => Response.json(ramos),
      'GET /api/fornecedores/fornecedores': () => Response.json(pageOf([fornecedor])),
      [`GET /api/fornecedores/fornecedores/${fornecedor.id}`]: () => Response.json(fornecedor),
    });
    start(`/fornecedor/edit/${fornecedor.id}`);
    const nome = (await screen.findByLabelText(/Razão social/, {}, T)) as HTMLInputElement;
    await waitFor(() => expect(nome.value).toBe('Nova Era Tecnologia Ltda'), T);
    const native = vi.spyOn(window, 'confirm');

    // nothing changed: leaves without asking
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);

    fireEvent.change(nome, { target: { value: 'Nova Era Tecnologia S.A.' } });
    const dirty = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
    fireEvent.click(screen.getByRole('link', { name: /Voltar para Fornecedores/ }));
    // the app's dialog, not the browser's
    let dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' }, T);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), T);
    expect(window.location.pathname).toBe(`/fornecedor/edit/${fornecedor.id}`);
    expect((screen.getByLabelText(/Razão social/) as HTMLInputElement).value).toBe('Nova Era Tecnologia S.A.');

    fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' }, T);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sair sem salvar' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Fornecedores' }, T)).toBeTruthy();
    expect(native).not.toHaveBeenCalled();
  });

  it('editing a record someone else changed: says so and offers to reload', async () => {
    let version = 3;
    mockApi({
      'GET /api/registros/ramos-atividade': () => Response.json(ramos),
      [`GET /api/fornecedores/fornecedores/${fornecedor.id}`]: () =>
        Response.json({ ...fornecedor, version, razaoSocial: version === 3 ? fornecedor.razaoSocial : 'Nova Era Tecnologia S.A.' }),
      [`PUT /api/fornecedores/fornecedores/${fornecedor.id}`]: () => {
        version = 4;
        const message = 'Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.';
        return Response.json({ error: { code: 'stale', message } }, { status: 409 });
      },
    });
    start(`/fornecedor/edit/${fornecedor.id}`);
    const nome = (await screen.findByLabelText(/Razão social/, {}, T)) as HTMLInputElement;
    await waitFor(() => expect(nome.value).toBe('Nova Era Tecnologia Ltda'), T);
    fireEvent.change(nome, { target: { value: 'Outro nome' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const alert = await screen.findByText(/Este registro foi alterado por outra pessoa/, {}, T);
    fireEvent.click(within(alert.closest('.alert') as HTMLElement).getByRole('button', { name: 'Recarregar' }));
    await waitFor(() => expect((screen.getByLabelText(/Razão social/) as HTMLInputElement).value).toBe('Nova Era Tecnologia S.A.'), T);
    expect(screen.queryByText(/Este registro foi alterado por outra pessoa/)).toBeNull();
  });
});
