// The kit's document fields: the items grid (live exact totals, stable rows, errors on a cell), the
// reference picker (searches the server, keyboard), read-only forms, plugin field types, and what a
// save does offline.
import { QueryClient, QueryClientProvider, onlineManager } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { OFFLINE_MESSAGE } from '../src/resource/form/controller';
import { registerFieldType } from '../src/resource/form/registry';
import FormPage, { bodyOf, formValuesOf } from '../src/resource/FormPage';
import type { FieldDescriptor, ResourceConfig, SchemaIssue, SchemaLike } from '../src/resource/types';
import { QUERY_DEFAULTS } from '../src/queryDefaults';
import { getCoreStore } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, mockApi } from './helpers';

type Row = Record<string, unknown>;

function schemaOf(check: (body: Row) => SchemaIssue[] = () => []): SchemaLike & { seen: Row[] } {
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

const produtos = [
  { id: 'p1', codigo: '0001', descricao: 'Papel A4 75 g', unidadeSigla: 'RESMA' },
  { id: 'p2', codigo: '0002', descricao: 'Papel A3 90 g', unidadeSigla: 'PCT' },
  { id: 'p3', codigo: '0003', descricao: 'Caneta azul', unidadeSigla: 'CX' },
];

const itens: FieldDescriptor = {
  name: 'itens',
  type: 'items',
  label: 'Itens',
  product: {
    endpoint: '/produtos/produtos',
    label: (p) => `${String(p.codigo)} – ${String(p.descricao)}`,
    description: (p) => String(p.unidadeSigla),
    fill: (p) => ({ unidade: p.unidadeSigla }),
  },
};

const configOf = (fields: FieldDescriptor[], schema: SchemaLike = schemaOf(), extra: Partial<ResourceConfig> = {}): ResourceConfig => ({
  endpoint: '/teste/memorandos',
  title: 'Memorandos',
  newTitle: 'Novo memorando',
  editTitle: 'Editar memorando',
  columns: [{ key: 'assunto', header: 'Assunto' }],
  schema,
  fields,
  ativo: false,
  ...extra,
});

function renderForm(config: ResourceConfig, path: string, client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } })) {
  window.history.replaceState(null, '', path);
  return render(
    <QueryClientProvider client={client}>
      <Router base="/memorando">
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

const input = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
  });
};
const addItem = () => fireEvent.click(screen.getByRole('button', { name: 'Adicionar item' }));
const cell = (row: number, column: string) => {
  const table = screen.getByRole('table', { name: 'Itens' });
  const rows = within(table).getAllByRole('row').slice(1, -1); // header and total rows left out
  const headers = within(table)
    .getAllByRole('columnheader')
    .map((th) => th.textContent);
  return rows[row - 1]!.children[headers.indexOf(column)] as HTMLElement;
};
const total = () =>
  within(screen.getByRole('table', { name: 'Itens' }))
    .getAllByRole('row')
    .at(-1)!.textContent;

describe('items grid', () => {
  it('line totals and the document total are exact and live (3 × 0,3333 = R$ 1,00)', async () => {
    mockApi({});
    renderForm(configOf([itens]), '/memorando/new');
    expect(await screen.findByText('Nenhum item.')).toBeTruthy();
    addItem();
    type('Quantidade do item 1', '3');
    expect(cell(1, 'Valor total').textContent).toContain('—');
    type('Valor unitário do item 1', '0,3333');
    expect(cell(1, 'Valor total').textContent).toContain('R$ 1,00');
    expect(total()).toContain('R$ 1,00');

    addItem();
    type('Quantidade do item 2', '2,5');
    type('Valor unitário do item 2', '10,015');
    // 25,0375 rounded half away from zero, as the server does
    expect(cell(2, 'Valor total').textContent).toContain('R$ 25,04');
    expect(total()).toContain('R$ 26,04');

    addItem();
    type('Quantidade do item 3', '0,1');
    type('Valor unitário do item 3', '0,2');
    // 0.1 + 0.2 in float is 0.30000000000000004; 1,00 + 25,04 + 0,02 is exactly 26,06
    expect(total()).toContain('R$ 26,06');
    type('Quantidade do item 3', '1.000');
    expect(cell(3, 'Valor total').textContent).toContain('R$ 200,00');
    expect(total()).toContain('R$ 226,04');

    // pt-BR input, reformatted when leaving the cell; sent canonical
    type('Valor unitário do item 1', '1234,5');
    fireEvent.blur(input('Valor unitário do item 1'));
    expect(input('Valor unitário do item 1').value).toBe('1.234,50');
    const config = configOf([itens]);
    const values = formValuesOf(config, {
      itens: [{ id: 'i1', produtoId: 'p1', produtoDescricao: 'Papel', unidade: 'RESMA', quantidade: '12.5', valorUnitario: '3.3' }],
    });
    expect((values.itens as Row[])[0]).toMatchObject({ quantidade: '12,5', valorUnitario: '3,30' });
    expect(bodyOf(config, values)).toEqual({ itens: [{ id: 'i1', produtoId: 'p1', quantidade: '12.5', valorUnitario: '3.3' }] });
  });

  it('removing a row keeps the other rows and their inputs (stable row ids, not positions)', async () => {
    let sent: Row | undefined;
    mockApi({
      'POST /api/teste/memorandos': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'm1', ...sent, version: 1 }, 201);
      },
    });
    renderForm(configOf([itens]), '/memorando/new');
    await screen.findByText('Nenhum item.');
    for (const n of [1, 2, 3]) {
      addItem();
      type(`Quantidade do item ${n}`, String(n * 10));
      type(`Valor unitário do item ${n}`, `${n},00`);
    }
    const third = input('Quantidade do item 3');
    fireEvent.click(screen.getByRole('button', { name: 'Remover item 2' }));
    expect(input('Quantidade do item 1').value).toBe('10');
    expect(input('Quantidade do item 2').value).toBe('30');
    expect(input('Valor unitário do item 2').value).toBe('3,00');
    // the same element: React kept the row (keyed by its id), only its number changed
    expect(input('Quantidade do item 2')).toBe(third);
    expect(screen.queryByLabelText('Quantidade do item 3')).toBeNull();
    expect(total()).toContain('R$ 100,00');

    // rows at the start and in the middle
    addItem();
    type('Quantidade do item 3', '5');
    fireEvent.click(screen.getByRole('button', { name: 'Remover item 1' }));
    expect(input('Quantidade do item 1').value).toBe('30');
    expect(input('Quantidade do item 2').value).toBe('5');
    expect(input('Valor unitário do item 2').value).toBe('');
  });

  it('a schema error on itens.1.quantidade shows on that cell and takes the focus; the cell is labelled', async () => {
    const schema = schemaOf((b) =>
      ((b.itens as Row[]) ?? []).flatMap((item, i) => [
        ...(item.produtoId ? [] : [{ path: ['itens', i, 'produtoId'], message: 'Escolha o produto.' }]),
        ...(item.quantidade === '' ? [{ path: ['itens', i, 'quantidade'], message: 'Informe a quantidade.' }] : []),
      ]),
    );
    mockApi({
      'GET /api/teste/memorandos/m1': () =>
        json({
          id: 'm1',
          version: 3,
          editavel: true,
          itens: [
            { id: 'i1', produtoId: 'p1', produtoDescricao: '0001 – Papel A4 75 g', unidade: 'RESMA', quantidade: '2', valorUnitario: '25.9' },
            { id: 'i2', produtoId: 'p3', produtoDescricao: '0003 – Caneta azul', unidade: 'CX', quantidade: '1', valorUnitario: '10' },
          ],
        }),
    });
    renderForm(configOf([itens], schema), '/memorando/edit/m1');
    await waitFor(() => expect(input('Quantidade do item 2').value).toBe('1'));
    // the product's label comes with the record: no request for it
    expect((screen.getByRole('combobox', { name: 'Produto ou serviço do item 1' }) as HTMLInputElement).value).toBe('0001 – Papel A4 75 g');
    expect(cell(1, 'Unidade').textContent).toContain('RESMA');
    expect(total()).toContain('R$ 61,80');
    type('Quantidade do item 2', '');
    await save();
    const quantidade = input('Quantidade do item 2');
    expect(quantidade.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(quantidade.getAttribute('aria-describedby')!)?.textContent).toBe('Informe a quantidade.');
    expect(input('Quantidade do item 1').getAttribute('aria-invalid')).toBeNull();
    expect(within(cell(2, 'Quantidade')).getByText('Informe a quantidade.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(quantidade));
    // typing in the cell clears its error
    type('Quantidade do item 2', '4');
    expect(screen.queryByText('Informe a quantidade.')).toBeNull();
  });
});

describe('reference picker', () => {
  it('searches the server (q, 20 at a time, active only) and is chosen with the keyboard; the chosen row fills the unit', async () => {
    let sent: Row | undefined;
    const { calls } = mockApi({
      'GET /api/produtos/produtos': (req) => {
        const q = new URL(req.url).searchParams.get('q') ?? '';
        const items = produtos.filter((p) => p.descricao.toLowerCase().includes(q.toLowerCase()));
        return json({ items, total: items.length, page: 1, pageSize: 20 });
      },
      'POST /api/teste/memorandos': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'm1', ...sent, version: 1 }, 201);
      },
    });
    renderForm(configOf([itens]), '/memorando/new');
    await screen.findByText('Nenhum item.');
    addItem();
    const picker = screen.getByRole('combobox', { name: 'Produto ou serviço do item 1' });
    // nothing is loaded until the person searches
    expect(calls.filter((c) => c.url.includes('/produtos/'))).toHaveLength(0);
    picker.focus();
    fireEvent.change(picker, { target: { value: 'papel' } });
    const listbox = screen.getByRole('listbox', { name: 'Produto ou serviço do item 1' });
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(2));
    const search = calls.filter((c) => c.url.includes('/produtos/')).at(-1)!;
    expect(Object.fromEntries(new URL(search.url).searchParams)).toEqual({ q: 'papel', pageSize: '20', ativo: 'true' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['0001 – Papel A4 75 gRESMA', '0002 – Papel A3 90 gPCT']);

    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    expect(picker.getAttribute('aria-activedescendant')).toBe(within(listbox).getAllByRole('option')[1]!.id);
    fireEvent.keyDown(picker, { key: 'Enter' });
    expect((picker as HTMLInputElement).value).toBe('0002 – Papel A3 90 g');
    expect(cell(1, 'Unidade').textContent).toContain('PCT');

    type('Quantidade do item 1', '2');
    type('Valor unitário do item 1', '7,5');
    await save();
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).toEqual({ itens: [{ produtoId: 'p2', quantidade: '2', valorUnitario: '7.5' }] });
  });

  it("a reference field shows the current value's label with one GET by id, never the list", async () => {
    const { calls } = mockApi({
      'GET /api/teste/memorandos/m1': () => json({ id: 'm1', version: 1, centroId: 'c7' }),
      'GET /api/registros/centros-custo/c7': () => json({ id: 'c7', codigo: '07', nome: 'Secretaria de Saúde' }),
    });
    const centro: FieldDescriptor = {
      name: 'centroId',
      type: 'reference',
      label: 'Centro de custo',
      required: true,
      source: { endpoint: '/registros/centros-custo', label: (c) => `${String(c.codigo)} – ${String(c.nome)}` },
    };
    renderForm(configOf([centro]), '/memorando/edit/m1');
    const picker = (await screen.findByRole('combobox', { name: 'Centro de custo' })) as HTMLInputElement;
    await waitFor(() => expect(picker.value).toBe('07 – Secretaria de Saúde'));
    // a visible label (with the required mark) points at the input
    expect(document.querySelector(`label[for="${picker.id}"]`)?.textContent).toBe('Centro de custo *');
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(['GET /api/teste/memorandos/m1', 'GET /api/registros/centros-custo/c7']);
  });
});

describe('read-only', () => {
  it('a record the API says is not editable shows its values, the reason, and no Salvar/Excluir', async () => {
    mockApi({
      'GET /api/teste/memorandos/m1': () =>
        json({
          id: 'm1',
          version: 2,
          editavel: false,
          assunto: 'Material de expediente',
          itens: [{ id: 'i1', produtoId: 'p1', produtoDescricao: '0001 – Papel A4 75 g', unidade: 'RESMA', quantidade: '3', valorUnitario: '0.3333' }],
        }),
    });
    renderForm(
      configOf([{ name: 'assunto', type: 'text', label: 'Assunto' }, itens], schemaOf(), {
        readOnlyWhen: (_v, record) => (record?.editavel === false ? 'Este memorando está enviado: somente leitura.' : false),
      }),
      '/memorando/edit/m1',
    );
    expect(await screen.findByText('Este memorando está enviado: somente leitura.')).toBeTruthy();
    expect(input('Assunto').readOnly).toBe(true);
    expect(input('Quantidade do item 1').readOnly).toBe(true);
    expect(screen.getByText('0001 – Papel A4 75 g')).toBeTruthy();
    expect(total()).toContain('R$ 1,00');
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Adicionar item' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remover item/ })).toBeNull();
  });

  it('a field with readOnlyWhen is read-only while it holds; the default reason names the record', async () => {
    mockApi({ 'GET /api/teste/memorandos/m1': () => json({ id: 'm1', version: 1, assunto: 'X', codigo: 'M-1', editavel: false }) });
    renderForm(
      configOf([
        { name: 'assunto', type: 'text', label: 'Assunto' },
        { name: 'codigo', type: 'text', label: 'Código', readOnlyWhen: (_v, record) => Boolean(record?.codigo) },
      ]),
      '/memorando/edit/m1',
    );
    expect(await screen.findByText('Este memorando não pode ser alterado: somente leitura.')).toBeTruthy();
    expect(input('Código').readOnly).toBe(true);
  });
});

describe('plugin field types', () => {
  it('registerFieldType: rendered by the form, its value converted both ways', async () => {
    registerFieldType<{ name: string; label: string }>('cor-teste', {
      render: ({ id, label, value, onChange }) => (
        <label>
          {label}
          <input id={id} value={String(value)} onChange={(e) => onChange(e.target.value.toUpperCase())} />
        </label>
      ),
      toForm: (_field, value) => String(value ?? '').replace('#', ''),
      fromForm: (_field, value) => `#${String(value)}`,
    });
    let sent: Row | undefined;
    mockApi({
      'POST /api/teste/memorandos': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'm1', ...sent, version: 1 }, 201);
      },
    });
    const field = { name: 'cor', type: 'cor-teste', label: 'Cor' } as unknown as FieldDescriptor;
    renderForm(configOf([field], schemaOf(), { defaults: { cor: '#00ff00' } }), '/memorando/new');
    const cor = (await screen.findByLabelText('Cor')) as HTMLInputElement;
    expect(cor.value).toBe('00ff00');
    fireEvent.change(cor, { target: { value: 'ff0000' } });
    await save();
    await waitFor(() => expect(sent).toEqual({ cor: '#FF0000' }));
    expect(() => registerFieldType('items', { render: () => null })).toThrow(/built-in/);
  });
});

describe('offline', () => {
  const setOnLine = (value: boolean) => Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => value });
  afterEach(() => {
    setOnLine(true);
    onlineManager.setOnline(true);
  });

  it('the browser offline: the save says so, sends nothing, and nothing is sent when the connection returns', async () => {
    const { calls } = mockApi({ 'POST /api/teste/memorandos': () => json({ id: 'm1', version: 1 }, 201) });
    renderForm(configOf([{ name: 'assunto', type: 'text', label: 'Assunto' }]), '/memorando/new', new QueryClient({ defaultOptions: QUERY_DEFAULTS }));
    fireEvent.change(await screen.findByLabelText('Assunto'), { target: { value: 'Papel' } });
    setOnLine(false);
    await act(async () => {
      window.dispatchEvent(new Event('offline'));
    });
    await save();
    expect(screen.getByText(OFFLINE_MESSAGE)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Salvar' }) as HTMLButtonElement).getAttribute('aria-busy')).toBeNull();
    setOnLine(true);
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(calls).toHaveLength(0);
    expect(window.location.pathname).toBe('/memorando/new');
  });

  it('a network error: the same message, and the save is not replayed when the connection returns', async () => {
    let posts = 0;
    mockApi({
      'POST /api/teste/memorandos': () => {
        posts++;
        throw new TypeError('Failed to fetch');
      },
    });
    renderForm(configOf([{ name: 'assunto', type: 'text', label: 'Assunto' }]), '/memorando/new', new QueryClient({ defaultOptions: QUERY_DEFAULTS }));
    fireEvent.change(await screen.findByLabelText('Assunto'), { target: { value: 'Papel' } });
    // TanStack Query believes it is offline (an 'offline' event) while navigator.onLine still says online
    onlineManager.setOnline(false);
    await save();
    expect(await screen.findByText(OFFLINE_MESSAGE)).toBeTruthy();
    expect(posts).toBe(1);
    expect(
      getCoreStore()
        .get(toastsAtom)
        .map((t) => t.message),
    ).toContain(OFFLINE_MESSAGE);
    await act(async () => {
      onlineManager.setOnline(true);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(posts).toBe(1);
    expect((screen.getByLabelText('Assunto') as HTMLInputElement).value).toBe('Papel');
  });
});
