// @vitest-environment jsdom
// A big plan's items (issue 20: a plan of 5 000 items, first rows ≤ 1 s): the items table shows one page
// of rows at a time, with the kit's pagination and a search over número, descrição, código and
// Classe/Grupo; a plan that fits in one page shows neither.
import { renderPlugin } from '@app/core/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ITENS_POR_PAGINA } from '../../src/web/pages/PlanoPanel';
import plugin from '../../src/web/index';
import { ID, T, apiDoPlano, planoDoSetor, sessaoDoSetor } from './fixtures';

/** Item n: Classe/Grupo 'G' + n % 3, description 'Material nº n'; item 7 in a grupo of its own. */
const item = (n: number) => ({
  id: `i${n}`,
  numeroItem: n,
  categoriaItemPca: 1,
  catalogo: 2,
  classificacaoSuperiorCodigo: n === 7 ? 'ESP' : `G${n % 3}`,
  classificacaoSuperiorNome: n === 7 ? 'Equipamentos especiais' : `Grupo ${n % 3}`,
  codigoItem: `P${String(n).padStart(5, '0')}`,
  produtoId: `p${n}`,
  descricao: `Material nº ${n}`,
  unidadeFornecimento: 'UN',
  quantidade: '2.0000',
  valorUnitario: '1.5000',
  valorTotal: '3.0000',
  dataDesejada: '2027-03-01',
  unidadeRequisitante: 'Secretaria de Educação',
  pendencias: [],
  contratacaoId: null,
  dfds: 1,
  manuais: 0,
  semData: null,
  publicacao: null,
});

const plano = (quantos: number) =>
  planoDoSetor({
    valorTotal: (3 * quantos).toFixed(4),
    itens: Array.from({ length: quantos }, (_, i) => item(i + 1)),
    totais: { porCategoria: [{ rotulo: 'Material', itens: quantos, valor: (3 * quantos).toFixed(4) }], porUnidade: [] },
  });

const api = (row: ReturnType<typeof plano>) =>
  apiDoPlano(row, {
    [`GET /api/pca/planos/${ID}/itens/*`]: () =>
      Response.json({
        items: [
          { memorandoId: 'd1', memorandoItemId: 'l1', numero: 3, ano: 2026, origemNome: 'Secretaria de Educação', quantidade: '2.0000', valorTotal: '3.0000' },
        ],
      }),
  });

const abrir = async (quantos: number) => {
  renderPlugin(plugin, { path: `/elabora-pca/edit/${ID}`, session: sessaoDoSetor(), api: api(plano(quantos)) });
  return screen.findByRole('region', { name: new RegExp(`^Itens do plano \\(${quantos}\\)`) }, T);
};
/** The numbers of the item rows shown (their row headers). */
const numeros = (card: HTMLElement) =>
  within(within(card).getByRole('table', { name: 'Itens consolidados' }))
    .getAllByRole('rowheader')
    .map((th) => Number(th.textContent));
const faixa = (de: number, ate: number) => Array.from({ length: ate - de + 1 }, (_, i) => de + i);

describe('the items of a big plan', () => {
  it(`${ITENS_POR_PAGINA} items per page: 'Próxima' and 'Anterior' walk them, the count and the page said; an item opens on any page`, async () => {
    const total = 2 * ITENS_POR_PAGINA + 17;
    const card = await abrir(total);
    expect(numeros(card)).toEqual(faixa(1, ITENS_POR_PAGINA));
    const paginacao = within(card).getByRole('navigation', { name: 'Paginação' });
    expect(within(paginacao).getByText(`${total} itens`)).toBeTruthy();
    expect(within(paginacao).getByText('Página 1 de 3')).toBeTruthy();
    fireEvent.click(within(paginacao).getByRole('button', { name: /Próxima/ }));
    expect(numeros(card)).toEqual(faixa(ITENS_POR_PAGINA + 1, 2 * ITENS_POR_PAGINA));
    fireEvent.click(within(paginacao).getByRole('button', { name: /Próxima/ }));
    expect(within(paginacao).getByText('Página 3 de 3')).toBeTruthy();
    expect(numeros(card)).toEqual(faixa(2 * ITENS_POR_PAGINA + 1, total));
    // the last page: 'Próxima' does nothing
    fireEvent.click(within(paginacao).getByRole('button', { name: /Próxima/ }));
    expect(numeros(card)).toEqual(faixa(2 * ITENS_POR_PAGINA + 1, total));
    // an item of this page opens its DFD lines as on the first
    const botao = within(card).getByRole('button', { name: `1 DFD do item ${total}` });
    fireEvent.click(botao);
    expect(botao.getAttribute('aria-expanded')).toBe('true');
    const linhas = await within(card).findByRole('list', { name: `DFDs do item ${total}` }, T);
    expect(within(linhas).getByRole('link', { name: 'Memorando 3/2026' })).toBeTruthy();
    fireEvent.click(within(paginacao).getByRole('button', { name: /Anterior/ }));
    expect(numeros(card)).toEqual(faixa(ITENS_POR_PAGINA + 1, 2 * ITENS_POR_PAGINA));
    // the whole plan still counts in the title and the totals
    expect(screen.getByRole('region', { name: `Itens do plano (${total}) – R$ ${(3 * total).toLocaleString('pt-BR')},00` })).toBeTruthy();
  });

  it('the search picks items by número, descrição, código or Classe/Grupo, from its first page; nothing found is said', async () => {
    const total = ITENS_POR_PAGINA + 50;
    const card = await abrir(total);
    const paginacao = within(card).getByRole('navigation', { name: 'Paginação' });
    fireEvent.click(within(paginacao).getByRole('button', { name: /Próxima/ }));
    const busca = within(card).getByRole('textbox', { name: /Buscar item/ });
    // by Classe/Grupo name: item 7 only, shown although the person was on page 2
    fireEvent.change(busca, { target: { value: 'equipamentos ESPECIAIS' } });
    expect(numeros(card)).toEqual([7]);
    expect(within(paginacao).getByText('1 item')).toBeTruthy();
    expect(within(paginacao).getByText('Página 1 de 1')).toBeTruthy();
    // by código
    fireEvent.change(busca, { target: { value: 'p00123' } });
    expect(numeros(card)).toEqual([123]);
    // by número or descrição: 'nº 14' is in 'Material nº 14' and 'Material nº 140'…'149'
    fireEvent.change(busca, { target: { value: 'nº 14' } });
    expect(numeros(card)).toEqual([14, ...faixa(140, 149)]);
    fireEvent.change(busca, { target: { value: 'caneta' } });
    expect(within(within(card).getByRole('table', { name: 'Itens consolidados' })).getByText('Nenhum item encontrado.')).toBeTruthy();
    expect(within(card).queryAllByRole('rowheader')).toEqual([]);
    // cleared: every item again, from page 1
    fireEvent.change(busca, { target: { value: '  ' } });
    expect(numeros(card)).toEqual(faixa(1, ITENS_POR_PAGINA));
    expect(within(paginacao).getByText(`${total} itens`)).toBeTruthy();
  });

  it(`a plan of ${ITENS_POR_PAGINA} items fits in one page: every row, no pagination and no search`, async () => {
    const card = await abrir(ITENS_POR_PAGINA);
    expect(numeros(card)).toEqual(faixa(1, ITENS_POR_PAGINA));
    expect(within(card).queryByRole('navigation', { name: 'Paginação' })).toBeNull();
    expect(within(card).queryByRole('textbox', { name: /Buscar item/ })).toBeNull();
  });
});
