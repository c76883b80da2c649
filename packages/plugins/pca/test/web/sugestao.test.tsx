// @vitest-environment jsdom
// The suggested quantity in the form that adds a line to the plan: once a product is chosen, "Sugestão para
// <ano>: N <unidade>" with the 3 previous years and the 12-month average, a labelled factor (pt-BR), and
// "Usar sugestão" filling the quantity, which stays editable; a product without history: one sentence only.
import { pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import plugin from '../../src/web/index';
import { ID, T, apiDoPlano, planoDoSetor, sessaoDoSetor } from './fixtures';

const PAPEL = '00000000-0000-4000-8000-0000000000a1';
const CANETA = '00000000-0000-4000-8000-0000000000b2';
const plano = planoDoSetor({ data: '2026-03-15', version: 1, manuais: [] });
/** What the server answers (hand-computed in test/server/sugestao.test.ts): 11,3 in 12 months. */
const sugestao = (fator: string, quantidade: string) => ({
  anoPca: 2027,
  unidade: { sigla: 'RESMA', descricao: 'Resma' },
  periodo: { de: '2025-03', ate: '2026-02' },
  totalDozeMeses: '11.3',
  mediaMensal: '0.9417',
  fator,
  multiplo: '1',
  quantidade,
  anos: [
    { ano: 2026, quantidade: '9.5' },
    { ano: 2025, quantidade: '1108.8' },
    { ano: 2024, quantidade: '14' },
  ],
  semConsumo: false,
});
const semConsumo = {
  ...sugestao('1', '0'),
  unidade: { sigla: 'UN', descricao: 'Unidade' },
  totalDozeMeses: '0',
  mediaMensal: '0',
  anos: [2026, 2025, 2024].map((ano) => ({ ano, quantidade: '0' })),
  semConsumo: true,
};
const QUANTIDADE: Record<string, string> = { '1': '12', '1.1': '13' };

const abrir = () =>
  renderPlugin(plugin, {
    path: `/elabora-pca/edit/${ID}`,
    session: sessaoDoSetor(),
    api: apiDoPlano(plano, {
      'GET /api/pca/produtos': () =>
        Response.json(
          pageOf([
            { id: PAPEL, codigo: '000001', descricao: 'Papel sulfite A4', unidadeSigla: 'RESMA', grupoNome: 'Expediente' },
            { id: CANETA, codigo: '000002', descricao: 'Caneta esferográfica azul', unidadeSigla: 'UN', grupoNome: 'Expediente' },
          ]),
        ),
      [`GET /api/pca/planos/${ID}/sugestao`]: ({ search }) => {
        if (search.get('produtoId') === CANETA) return Response.json(semConsumo);
        const fator = search.get('fator') ?? '1';
        return Response.json(sugestao(fator, QUANTIDADE[fator] ?? '0'));
      },
    }),
  });

/** Opens the form and picks the product whose option matches `nome`, by keyboard. */
const escolher = async (nome: RegExp) => {
  const card = await screen.findByRole('region', { name: 'Itens incluídos sem DFD (0)' }, T);
  if (!within(card).queryByRole('form')) fireEvent.click(within(card).getByRole('button', { name: 'Incluir item sem DFD' }));
  const form = within(card).getByRole('form', { name: 'Incluir item sem DFD' });
  const combo = within(form).getByRole('combobox', { name: /Produto ou serviço/ });
  combo.focus();
  fireEvent.change(combo, { target: { value: 'a' } });
  const opcao = await screen.findByRole('option', { name: nome }, T);
  const alvo = within(opcao.closest('[role="listbox"]') as HTMLElement)
    .getAllByRole('option')
    .indexOf(opcao);
  for (let i = 0; i <= alvo; i += 1) fireEvent.keyDown(combo, { key: 'ArrowDown' });
  fireEvent.keyDown(combo, { key: 'Enter' });
  return form;
};

describe('sugestão de quantidade', () => {
  it('shows the suggestion with the 3 years and the average; the factor asks again; "Usar sugestão" fills the quantity', async () => {
    const { calls } = abrir();
    const form = await escolher(/Papel sulfite A4/);
    const area = await within(form).findByRole('region', { name: 'Sugestão para 2027: 12 RESMA' }, T);
    expect(Object.fromEntries(calls.filter((c) => c.path.endsWith('/sugestao')).at(-1)!.search)).toEqual({ produtoId: PAPEL, fator: '1' });
    expect(within(area).getByText(/Consumo médio mensal de março de 2025 a fevereiro de 2026: 0,9417 RESMA\./)).toBeTruthy();
    const anos = within(within(area).getByRole('table', { name: 'Consumo nos anos anteriores' }))
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent));
    expect(anos).toEqual([
      ['2026', '9,5'],
      ['2025', '1.108,8'],
      ['2024', '14'],
    ]);
    // the factor, typed the pt-BR way, goes to the server canonical
    const fator = within(area).getByLabelText(/^Fator de ajuste/);
    fireEvent.change(fator, { target: { value: '1,10' } });
    expect(await within(form).findByText('Sugestão para 2027: 13 RESMA', {}, T)).toBeTruthy();
    expect(
      calls
        .filter((c) => c.path.endsWith('/sugestao'))
        .at(-1)!
        .search.get('fator'),
    ).toBe('1.1');
    const usar = within(area).getByRole('button', { name: 'Usar sugestão' });
    await waitFor(() => expect((usar as HTMLButtonElement).disabled).toBe(false), T);
    const quantidade = within(form).getByLabelText(/^Quantidade/) as HTMLInputElement;
    expect(quantidade.value).toBe('');
    fireEvent.click(usar);
    expect(quantidade.value).toBe('13');
    // still the person's to change
    fireEvent.change(quantidade, { target: { value: '15' } });
    expect(quantidade.value).toBe('15');
    // no raw id on the page
    expect(document.body.textContent).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('a factor the server would refuse: its message, no request, the button waits', async () => {
    const { calls } = abrir();
    const form = await escolher(/Papel sulfite A4/);
    const area = await within(form).findByRole('region', { name: 'Sugestão para 2027: 12 RESMA' }, T);
    const antes = calls.filter((c) => c.path.endsWith('/sugestao')).length;
    fireEvent.change(within(area).getByLabelText(/^Fator de ajuste/), { target: { value: '1.500' } });
    expect(await within(form).findByText(/Use um fator de no máximo 10\./, {}, T)).toBeTruthy();
    expect((within(area).getByRole('button', { name: 'Usar sugestão' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(area).getByLabelText(/^Fator de ajuste/), { target: { value: 'abc' } });
    expect(await within(form).findByText(/Informe um número, por exemplo 1\.234,56\./, {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/sugestao')).length).toBe(antes);
  });

  it('a product without history: "Sem consumo nos últimos 3 anos" and nothing else', async () => {
    abrir();
    const form = await escolher(/Caneta esferográfica azul/);
    expect(await within(form).findByText('Sem consumo nos últimos 3 anos', {}, T)).toBeTruthy();
    expect(within(form).queryByRole('button', { name: 'Usar sugestão' })).toBeNull();
    expect(within(form).queryByLabelText(/^Fator de ajuste/)).toBeNull();
    expect(within(form).queryByText(/Sugestão para/)).toBeNull();
  });
});
