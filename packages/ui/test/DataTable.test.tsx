import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from '../src/DataTable';
import { formatMoney } from '../src/format';
import { Pagination } from '../src/Pagination';

type Fornecedor = { id: number; nome: string; valor: string; ativo: boolean };

const rows: Fornecedor[] = [
  { id: 1, nome: 'Alfa Ltda', valor: '1500.5', ativo: true },
  { id: 2, nome: 'Beta S.A.', valor: '20', ativo: false },
];

const columns: DataTableColumn<Fornecedor>[] = [
  { key: 'nome', header: 'Nome', sortable: true, rowHeader: true },
  { key: 'valor', header: 'Valor', sortable: true, align: 'end', render: (r) => formatMoney(r.valor) },
  { key: 'ativo', header: 'Ativo' },
];

describe('DataTable', () => {
  it('renders caption, headers and cells (render function and default values)', () => {
    render(<DataTable caption="Fornecedores" columns={columns} rows={rows} />);
    const table = screen.getByRole('table', { name: 'Fornecedores' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Nome', 'Valor', 'Ativo']);
    expect(within(table).getByRole('rowheader', { name: 'Alfa Ltda' })).toBeTruthy();
    const firstRow = within(table).getAllByRole('row')[1]!;
    expect(
      within(firstRow)
        .getAllByRole('cell')
        .map((td) => td.textContent?.replace(/\u00a0/g, ' ')),
    ).toEqual(['R$ 1.500,50', 'Sim']);
  });

  it('sortable headers are buttons with aria-sort and report the next sort', async () => {
    const onSortChange = vi.fn();
    const { rerender } = render(
      <DataTable caption="Fornecedores" columns={columns} rows={rows} sort={{ key: 'nome', dir: 'asc' }} onSortChange={onSortChange} />,
    );
    const [nome, valor, ativo] = screen.getAllByRole('columnheader');
    expect(nome?.getAttribute('aria-sort')).toBe('ascending');
    expect(valor?.getAttribute('aria-sort')).toBe('none');
    expect(ativo?.hasAttribute('aria-sort')).toBe(false);
    expect(within(ativo!).queryByRole('button')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Nome' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'nome', dir: 'desc' });
    await userEvent.click(screen.getByRole('button', { name: 'Valor' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'valor', dir: 'asc' });

    rerender(<DataTable caption="Fornecedores" columns={columns} rows={rows} sort={{ key: 'nome', dir: 'desc' }} onSortChange={onSortChange} />);
    expect(screen.getAllByRole('columnheader')[0]?.getAttribute('aria-sort')).toBe('descending');
  });

  it('rowDetail: a full-width row right under the rows that have one', () => {
    render(<DataTable caption="Fornecedores" columns={columns} rows={rows} rowDetail={(r) => (r.id === 2 ? <p>Detalhe de {r.nome}</p> : null)} />);
    const all = screen.getAllByRole('row');
    expect(all.map((tr) => tr.textContent)).toEqual(['NomeValorAtivo', 'Alfa LtdaR$\u00a01.500,50Sim', 'Beta S.A.R$\u00a020,00Não', 'Detalhe de Beta S.A.']);
    const detail = within(all[3]!).getByRole('cell');
    expect(detail.getAttribute('colspan')).toBe('3');
    expect(all[2]!.hasAttribute('data-detail-open')).toBe(true);
    expect(all[1]!.hasAttribute('data-detail-open')).toBe(false);
  });

  it('dense lists: long text is clamped with a title, short text stays on one line, clamp: false opts out', () => {
    type Produto = { id: number; descricao: string; grupo: string; nota: string };
    const longo = 'Ácido acetilsalicílico 100 mg, comprimido revestido, blister com 10';
    render(
      <DataTable<Produto>
        caption="Produtos"
        columns={[
          { key: 'descricao', header: 'Descrição', rowHeader: true },
          { key: 'grupo', header: 'Grupo' },
          { key: 'nota', header: 'Nota', clamp: false },
        ]}
        rows={[{ id: 1, descricao: longo, grupo: 'Medicamentos', nota: longo }]}
      />,
    );
    const header = screen.getByRole('rowheader');
    const clamp = header.querySelector('.data-table__clamp');
    expect(clamp?.textContent).toBe(longo);
    expect(clamp?.getAttribute('title')).toBe(longo);
    const [grupo, nota] = screen.getAllByRole('cell');
    expect(grupo!.querySelector('.data-table__nowrap')?.textContent).toBe('Medicamentos');
    expect(grupo!.querySelector('[title]')).toBeNull();
    expect(nota!.textContent).toBe(longo);
    expect(nota!.querySelector('.data-table__clamp, .data-table__nowrap')).toBeNull();
  });

  it('short text with words may be cut when the table is short of room; dates, amounts, codes never', () => {
    type Pessoa = { id: number; nome: string; data: string; valor: string };
    render(
      <DataTable<Pessoa>
        caption="Pessoas"
        columns={[
          { key: 'nome', header: 'Nome' },
          { key: 'data', header: 'Data' },
          { key: 'valor', header: 'Valor' },
        ]}
        rows={[{ id: 1, nome: 'Rita Requisitante', data: '22/11/2026', valor: 'R$\u00a0345,00' }]}
      />,
    );
    const [nome, data, valor] = screen.getAllByRole('cell').map((td) => td.querySelector('.data-table__nowrap')!);
    expect(nome!.hasAttribute('data-squeezable')).toBe(true);
    expect(data!.hasAttribute('data-squeezable')).toBe(false);
    expect(valor!.hasAttribute('data-squeezable')).toBe(false);
  });

  it('a column empty in every row of the page loses its width and its header may wrap after "/"', () => {
    type Produto = { id: number; descricao: string; catalogo: string | null };
    const cols: DataTableColumn<Produto>[] = [
      { key: 'descricao', header: 'Descrição' },
      { key: 'catalogo', header: 'CATMAT/CATSER', width: '9rem', sortable: true },
    ];
    const { rerender } = render(
      <DataTable<Produto>
        caption="Produtos"
        columns={cols}
        rows={[
          { id: 1, descricao: 'Caneta', catalogo: null },
          { id: 2, descricao: 'Lápis', catalogo: '' },
        ]}
        onSortChange={() => {}}
      />,
    );
    let th = screen.getAllByRole('columnheader')[1]!;
    expect(th.className).toContain('data-table__cell--empty-column');
    expect(th.getAttribute('style')).toBeNull();
    expect(th.querySelector('wbr')).not.toBeNull();
    expect(within(th).getByRole('button').textContent).toBe('CATMAT/CATSER');
    for (const row of screen.getAllByRole('row').slice(1)) {
      expect(row.lastElementChild!.className).toContain('data-table__cell--empty-column');
    }
    expect(screen.getAllByRole('columnheader')[0]!.className).not.toContain('empty-column');

    rerender(
      <DataTable<Produto>
        caption="Produtos"
        columns={cols}
        rows={[
          { id: 1, descricao: 'Caneta', catalogo: null },
          { id: 2, descricao: 'Lápis', catalogo: '150177' },
        ]}
        onSortChange={() => {}}
      />,
    );
    th = screen.getAllByRole('columnheader')[1]!;
    expect(th.className ?? '').not.toContain('empty-column');
    expect(th.getAttribute('style')).toBe('width: 9rem;');
    expect(th.querySelector('wbr')).toBeNull();
  });

  it('shows the empty state and the loading state', () => {
    const { rerender } = render(<DataTable caption="Fornecedores" columns={columns} rows={[]} />);
    expect(screen.getByText('Nenhum registro encontrado.')).toBeTruthy();

    rerender(<DataTable caption="Fornecedores" columns={columns} rows={[]} loading />);
    expect(screen.queryByText('Nenhum registro encontrado.')).toBeNull();
    expect(screen.getByText('Carregando…')).toBeTruthy();
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');

    rerender(<DataTable caption="Fornecedores" columns={columns} rows={[]} empty="Nenhum fornecedor cadastrado." />);
    expect(screen.getByText('Nenhum fornecedor cadastrado.')).toBeTruthy();
  });
});

describe('Pagination', () => {
  it('shows page, total and moves between pages', async () => {
    const onPageChange = vi.fn();
    render(<Pagination page={2} pageSize={20} total={95} onPageChange={onPageChange} />);
    const nav = screen.getByRole('navigation', { name: 'Paginação' });
    expect(within(nav).getByText('Página 2 de 5')).toBeTruthy();
    expect(within(nav).getByText('95 registros')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
    await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(onPageChange).toHaveBeenLastCalledWith(1);
  });

  it('disables the ends without losing focus, and handles zero and one records', async () => {
    const onPageChange = vi.fn();
    const { rerender } = render(<Pagination page={1} pageSize={20} total={0} onPageChange={onPageChange} />);
    expect(screen.getByText('Página 1 de 1')).toBeTruthy();
    expect(screen.getByText('0 registros')).toBeTruthy();
    const prev = screen.getByRole('button', { name: 'Anterior' });
    expect(prev.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(prev);
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(onPageChange).not.toHaveBeenCalled();

    rerender(<Pagination page={1} pageSize={20} total={1} onPageChange={onPageChange} />);
    expect(screen.getByText('1 registro')).toBeTruthy();
    rerender(<Pagination page={1} pageSize={20} total={12345} onPageChange={onPageChange} />);
    expect(screen.getByText('12.345 registros')).toBeTruthy();
    expect(screen.getByText('Página 1 de 618')).toBeTruthy();
    rerender(<Pagination page={1} pageSize={20} total={1} noun={{ one: 'mensagem', other: 'mensagens' }} onPageChange={onPageChange} />);
    expect(screen.getByText('1 mensagem')).toBeTruthy();
    rerender(<Pagination page={1} pageSize={20} total={1500} noun={{ one: 'mensagem', other: 'mensagens' }} onPageChange={onPageChange} />);
    expect(screen.getByText('1.500 mensagens')).toBeTruthy();
  });
});
