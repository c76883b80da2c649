// The resource kit's richer fields: visibleWhen, repeating groups, the CPF/CNPJ document field, the
// 'cep'/'telefone' mask presets, dates and sections.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import FormPage, { UNSAVED_MESSAGE, bodyOf, formValuesOf, fromFormValue, toFormValue } from '../src/resource/FormPage';
import type { FieldDescriptor, ResourceConfig, SchemaIssue, SchemaLike } from '../src/resource/types';
import { json, mockApi } from './helpers';

type Row = Record<string, unknown>;

/** A stand-in for a zod schema: `check` lists the issues; every body it saw is kept. */
function schemaOf(check: (body: Row) => SchemaIssue[]): SchemaLike & { seen: Row[] } {
  const seen: Row[] = [];
  return {
    seen,
    safeParse(value) {
      seen.push(value as Row);
      const issues = check(value as Row);
      return issues.length ? { success: false, error: { issues } } : { success: true, data: value };
    },
  };
}

const configOf = (fields: FieldDescriptor[], schema: SchemaLike, extra: Partial<ResourceConfig> = {}): ResourceConfig => ({
  endpoint: '/teste/fornecedores',
  title: 'Fornecedores',
  newTitle: 'Novo fornecedor',
  editTitle: 'Editar fornecedor',
  columns: [{ key: 'nome', header: 'Nome' }],
  schema,
  fields,
  ...extra,
});

function renderForm(config: ResourceConfig, path: string) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <Router base="/fornecedor">
        <Switch>
          <Route path="/new">
            <FormPage config={config} mode="new" />
          </Route>
          <Route path="/edit/:id">
            <FormPage config={config} mode="edit" />
          </Route>
          <Route>
            <h1>Lista</h1>
          </Route>
        </Switch>
      </Router>
    </QueryClientProvider>,
  );
}

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
  });
};

const input = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;

// ----------------------------------------------------------------------------- visibleWhen

describe('visibleWhen', () => {
  const situacao: FieldDescriptor = {
    name: 'situacao',
    type: 'select',
    label: 'Situação',
    options: [
      { value: 'ativo', label: 'Ativo' },
      { value: 'impedido', label: 'Impedido' },
    ],
  };
  const impedido = (v: Row) => v.situacao === 'impedido';
  const fields: FieldDescriptor[] = [
    { name: 'nome', type: 'text', label: 'Nome' },
    situacao,
    { name: 'motivo', type: 'textarea', label: 'Motivo do impedimento', required: true, visibleWhen: impedido },
    { name: 'ate', type: 'date', label: 'Impedido até', visibleWhen: impedido },
  ];

  it('a hidden field is not rendered, and is left out of the body validated and sent', async () => {
    const schema = schemaOf((b) => (b.situacao === 'impedido' && !b.motivo ? [{ path: ['motivo'], message: 'Informe o motivo do impedimento.' }] : []));
    let sent: Row | undefined;
    mockApi({
      'POST /api/teste/fornecedores': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'f1', ...sent }, 201);
      },
    });
    renderForm(configOf(fields, schema, { defaults: { situacao: 'ativo' } }), '/fornecedor/new');
    fireEvent.change(await screen.findByLabelText('Nome'), { target: { value: 'Papelaria' } });
    expect(screen.queryByLabelText(/Motivo do impedimento/)).toBeNull();
    expect(screen.queryByLabelText(/Impedido até/)).toBeNull();

    // shown when the condition holds; the schema's message lands on it
    fireEvent.change(screen.getByRole('combobox', { name: 'Situação' }), { target: { value: 'impedido' } });
    expect(input(/Motivo do impedimento/)).toBeTruthy();
    expect(input(/Impedido até/).type).toBe('date');
    await save();
    expect(screen.getByText('Informe o motivo do impedimento.')).toBeTruthy();
    expect(input(/Motivo do impedimento/).getAttribute('aria-invalid')).toBe('true');
    expect(schema.seen.at(-1)).toEqual({ nome: 'Papelaria', situacao: 'impedido', motivo: '', ate: null });

    // typed, then hidden again: neither the schema nor the API gets it
    fireEvent.change(input(/Motivo do impedimento/), { target: { value: 'Sanção' } });
    fireEvent.change(input(/Impedido até/), { target: { value: '2027-02-28' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Situação' }), { target: { value: 'ativo' } });
    expect(screen.queryByLabelText(/Motivo do impedimento/)).toBeNull();
    await save();
    await waitFor(() => expect(window.location.pathname).toBe('/fornecedor/edit/f1'));
    expect(schema.seen.at(-1)).toEqual({ nome: 'Papelaria', situacao: 'ativo' });
    expect(sent).toEqual({ nome: 'Papelaria', situacao: 'ativo' });
  });

  it('bodyOf keeps the hidden field out and what was typed stays for when it shows again', () => {
    const config = configOf(
      fields,
      schemaOf(() => []),
    );
    const values = { ...formValuesOf(config, undefined), nome: 'X', situacao: 'ativo', motivo: 'Sanção', ate: '2027-02-28' };
    expect(bodyOf(config, values)).toEqual({ nome: 'X', situacao: 'ativo' });
    expect(bodyOf(config, { ...values, situacao: 'impedido' })).toEqual({ nome: 'X', situacao: 'impedido', motivo: 'Sanção', ate: '2027-02-28' });
  });

  it('a label may depend on the values', async () => {
    mockApi({});
    const dynamic: FieldDescriptor[] = [
      { name: 'documento', type: 'document', label: 'CPF ou CNPJ' },
      { name: 'nome', type: 'text', label: (v) => (String(v.documento).length === 14 ? 'Nome' : 'Razão social') },
    ];
    renderForm(
      configOf(
        dynamic,
        schemaOf(() => []),
      ),
      '/fornecedor/new',
    );
    expect(await screen.findByLabelText('Razão social')).toBeTruthy();
    fireEvent.change(input('CPF ou CNPJ'), { target: { value: '12345678909' } });
    expect(input('Nome')).toBeTruthy();
    expect(screen.queryByLabelText('Razão social')).toBeNull();
  });
});

// ----------------------------------------------------------------------------- repeating group

describe('repeating group', () => {
  const contatos: FieldDescriptor = {
    name: 'contatos',
    type: 'group',
    label: 'Contatos',
    itemLabel: 'Contato',
    rowLabel: (label, n) => `${label} do contato ${n}`,
    emptyText: 'Nenhum contato.',
    max: 3,
    fields: [
      { name: 'nome', type: 'text', label: 'Nome' },
      { name: 'email', type: 'text', inputType: 'email', label: 'E-mail' },
      { name: 'telefone', type: 'masked', mask: 'telefone', label: 'Telefone' },
    ],
  };
  const emailIssues = (b: Row): SchemaIssue[] =>
    ((b.contatos as Row[]) ?? []).flatMap((c, i) =>
      c.email && !String(c.email).includes('@') ? [{ path: ['contatos', i, 'email'], message: 'E-mail inválido.' }] : [],
    );

  it('adds and removes rows; a nested error (contatos.1.email) shows on that row’s input; rows are sent as an array', async () => {
    const schema = schemaOf(emailIssues);
    let sent: Row | undefined;
    mockApi({
      'POST /api/teste/fornecedores': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'f1' }, 201);
      },
    });
    renderForm(configOf([{ name: 'nome', type: 'text', label: 'Razão social' }, contatos], schema), '/fornecedor/new');
    const group = await screen.findByRole('group', { name: 'Contatos' });
    expect(within(group).getByText('Nenhum contato.')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Adicionar contato' });
    fireEvent.click(add);
    fireEvent.click(add);
    fireEvent.click(add);
    expect(screen.queryByText('Nenhum contato.')).toBeNull();
    expect((add as HTMLButtonElement).disabled).toBe(true); // max 3
    expect(screen.getByRole('group', { name: 'Contato 3' })).toBeTruthy();

    fireEvent.change(input('Nome do contato 1'), { target: { value: 'Ana' } });
    fireEvent.change(input('Nome do contato 2'), { target: { value: 'Bruno' } });
    fireEvent.change(input('E-mail do contato 2'), { target: { value: 'bruno-sem-arroba' } });
    fireEvent.change(input('Nome do contato 3'), { target: { value: 'Carla' } });
    fireEvent.change(input('Telefone do contato 3'), { target: { value: '11987654321' } });
    expect(input('Telefone do contato 3').value).toBe('(11) 98765-4321');
    expect(input('E-mail do contato 1').type).toBe('email');

    // every input has its own id, and its label points at it
    const ids = [...document.querySelectorAll('form input')].map((el) => el.id);
    expect(new Set(ids).size).toBe(ids.length);

    await save();
    const wrong = input('E-mail do contato 2');
    expect(wrong.getAttribute('aria-invalid')).toBe('true');
    const errorId = wrong
      .getAttribute('aria-describedby')
      ?.split(' ')
      .find((id) => id.endsWith('-erro'));
    expect(document.getElementById(errorId!)?.textContent).toContain('E-mail inválido.');
    expect(input('E-mail do contato 1').getAttribute('aria-invalid')).toBeNull();
    expect(input('E-mail do contato 3').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getAllByText('E-mail inválido.')).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(wrong));

    // remove contato 1: the others move up (Bruno is now contato 1), the group's errors go
    fireEvent.click(screen.getByRole('button', { name: 'Remover contato 1' }));
    expect(input('Nome do contato 1').value).toBe('Bruno');
    expect(input('Nome do contato 2').value).toBe('Carla');
    expect(screen.queryByLabelText('Nome do contato 3')).toBeNull();
    expect(screen.queryByText('E-mail inválido.')).toBeNull();
    expect((screen.getByRole('button', { name: 'Adicionar contato' }) as HTMLButtonElement).disabled).toBe(false);

    fireEvent.change(input('E-mail do contato 1'), { target: { value: 'bruno@exemplo.com.br' } });
    fireEvent.change(input('Razão social'), { target: { value: 'Papelaria' } });
    await save();
    await waitFor(() => expect(window.location.pathname).toBe('/fornecedor/edit/f1'));
    expect(sent).toEqual({
      nome: 'Papelaria',
      contatos: [
        { nome: 'Bruno', email: 'bruno@exemplo.com.br', telefone: '' },
        { nome: 'Carla', email: '', telefone: '11987654321' },
      ],
    });
  });

  it('edit: loads the rows masked; min rows cannot be removed; adding a row makes the form dirty', async () => {
    mockApi({
      'GET /api/teste/fornecedores/f1': () =>
        json({ id: 'f1', nome: 'Papelaria', contatos: [{ nome: 'Ana', email: null, telefone: '1130350800' }], ativo: true, version: 1 }),
    });
    renderForm(
      configOf(
        [
          { name: 'nome', type: 'text', label: 'Razão social' },
          { ...contatos, min: 1 },
        ],
        schemaOf(() => []),
      ),
      '/fornecedor/edit/f1',
    );
    await waitFor(() => expect(input('Telefone do contato 1').value).toBe('(11) 3035-0800'));
    expect((screen.getByRole('button', { name: 'Remover contato 1' }) as HTMLButtonElement).disabled).toBe(true);

    const before = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(before);
    expect(before.defaultPrevented).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar contato' }));
    expect((screen.getByRole('button', { name: 'Remover contato 2' }) as HTMLButtonElement).disabled).toBe(false);
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Sair sem salvar' }));
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Sair sem salvar?' });
    expect(within(dialog).getByText(UNSAVED_MESSAGE)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(window.location.pathname).toBe('/fornecedor/edit/f1');
  });

  it('a New form starts with `min` empty rows', () => {
    const config = configOf(
      [{ ...contatos, min: 2 }],
      schemaOf(() => []),
    );
    const values = formValuesOf(config, undefined);
    expect(values).toEqual({
      contatos: [
        { _key: expect.any(String), nome: '', email: '', telefone: '' },
        { _key: expect.any(String), nome: '', email: '', telefone: '' },
      ],
    });
    // each row has its own key (React's key: rows keep their identity when another is removed)
    const rows = values.contatos as { _key: string }[];
    expect(rows[0]!._key).not.toBe(rows[1]!._key);
    expect(bodyOf(config, values)).toEqual({
      contatos: [
        { nome: '', email: '', telefone: '' },
        { nome: '', email: '', telefone: '' },
      ],
    });
  });
});

// ----------------------------------------------------------------------------- document, masks, dates

describe('document field (CPF or CNPJ, alphanumeric included)', () => {
  const documento: FieldDescriptor = { name: 'documento', type: 'document', label: 'CPF ou CNPJ', required: true };

  it.each([
    ['CPF', '12345678909', '123.456.789-09', '12345678909', 'Pessoa física.'],
    ['numeric CNPJ', '11222333000181', '11.222.333/0001-81', '11222333000181', 'Pessoa jurídica.'],
    ['alphanumeric CNPJ', '12abc34501de35', '12.ABC.345/01DE-35', '12ABC34501DE35', 'Pessoa jurídica.'],
    ['masked CNPJ pasted', '12.abc.345/01de-35', '12.ABC.345/01DE-35', '12ABC34501DE35', 'Pessoa jurídica.'],
  ])('%s: shown masked as typed, sent unmasked', async (_kind, typed, shown, stored, hint) => {
    let sent: Row | undefined;
    mockApi({
      'POST /api/teste/fornecedores': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'f1' }, 201);
      },
    });
    renderForm(
      configOf(
        [documento],
        schemaOf(() => []),
      ),
      '/fornecedor/new',
    );
    const doc = (await screen.findByLabelText(/CPF ou CNPJ/)) as HTMLInputElement;
    expect(screen.getByText(/O CNPJ pode ter letras/i)).toBeTruthy();
    fireEvent.change(doc, { target: { value: typed } });
    expect(doc.value).toBe(shown);
    expect(screen.getByText(hint)).toBeTruthy();
    await save();
    await waitFor(() => expect(window.location.pathname).toBe('/fornecedor/edit/f1'));
    expect(sent).toEqual({ documento: stored });
  });

  it('masks while typing, partial values included', () => {
    expect(toFormValue(documento, '1234')).toBe('123.4');
    expect(toFormValue(documento, '12ABC')).toBe('12.ABC');
    expect(toFormValue(documento, '12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(toFormValue(documento, null)).toBe('');
    expect(fromFormValue(documento, '123.456.789-09')).toBe('12345678909');
    expect(fromFormValue(documento, '12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });
});

describe('mask presets and dates', () => {
  const cep: FieldDescriptor = { name: 'cep', type: 'masked', mask: 'cep', label: 'CEP' };
  const telefone: FieldDescriptor = { name: 'telefone', type: 'masked', mask: 'telefone', label: 'Telefone' };
  const pattern: FieldDescriptor = { name: 'cnae', type: 'masked', mask: '9999-9/99', label: 'CNAE' };
  const date: FieldDescriptor = { name: 'de', type: 'date', label: 'De' };

  it('cep and telefone are shown masked and sent as digits; a pattern mask is sent as shown', () => {
    expect(toFormValue(cep, '01009000')).toBe('01009-000');
    expect(fromFormValue(cep, '01009-000')).toBe('01009000');
    expect(toFormValue(telefone, '1130350800')).toBe('(11) 3035-0800');
    expect(toFormValue(telefone, '11987654321')).toBe('(11) 98765-4321');
    expect(fromFormValue(telefone, '(11) 98765-4321')).toBe('11987654321');
    expect(fromFormValue(pattern, '4761-0/03')).toBe('4761-0/03');
  });

  it('dates: aaaa-mm-dd for the native input; empty is null', () => {
    expect(toFormValue(date, '2026-03-01')).toBe('2026-03-01');
    expect(toFormValue(date, '2026-03-01T00:00:00.000Z')).toBe('2026-03-01');
    expect(toFormValue(date, null)).toBe('');
    expect(fromFormValue(date, '')).toBeNull();
    expect(fromFormValue(date, '2026-03-01')).toBe('2026-03-01');
  });

  it('the CEP input masks as typed; fields with a section are in a card named by it', async () => {
    mockApi({});
    renderForm(
      configOf(
        [
          { ...cep, section: 'Endereço' },
          { name: 'municipio', type: 'text', label: 'Município', section: 'Endereço' },
          { ...telefone, section: 'Contato' },
        ],
        schemaOf(() => []),
      ),
      '/fornecedor/new',
    );
    const endereco = await screen.findByRole('region', { name: 'Endereço' });
    const field = within(endereco).getByLabelText('CEP') as HTMLInputElement;
    fireEvent.change(field, { target: { value: '01009000' } });
    expect(field.value).toBe('01009-000');
    expect(within(endereco).getByLabelText('Município')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Contato' })).getByLabelText('Telefone')).toBeTruthy();
  });
});
