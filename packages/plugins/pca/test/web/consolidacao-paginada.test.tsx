// @vitest-environment jsdom
// The consolidation card with a year of many DFDs (a bench year has 10 000): the DFDs a page at a time,
// searched (número, área requisitante, assunto; accents aside) and filtered by the Classe/Grupo of their
// lines as GET /demandas classifies them, the DFDs found marked or unmarked at once on every page, what
// is marked kept across pages, searches and filters, and the one PUT naming them.
// Fixture: 120 DFDs, n = 1…120: Secretaria de Saúde when n is odd, de Educação when even; lines in
// Grupo 0750 when n % 3 = 0, Classe 7510 when n % 3 = 1, Classe 7530 when n % 3 = 2; DFD 5 in 7530 and
// 7510; DFD 7 already in another plan (2/2026); DFD 1 in this plan.
import { renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEMANDAS_POR_PAGINA } from '../../src/web/pages/PlanoPanel';
import plugin from '../../src/web/index';
import { CENTRO, ID, T, apiDoPlano, planoDoSetor, sessaoDoSetor } from './fixtures';

const OUTRO = '00000000-0000-4000-8000-000000000002';
const N = 120;
const dfdId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const CLASSE = ['grupo:0750', 'cnbs:7510', 'cnbs:7530'] as const;

const demanda = (n: number) => ({
  id: dfdId(n),
  numero: n,
  ano: 2026,
  assunto: `Demanda ${n} do exercício`,
  origemNome: n % 2 ? 'Secretaria de Saúde' : 'Secretaria de Educação',
  valorTotal: '10.00',
  plano: n === 7 ? { id: OUTRO, numero: 2, ano: 2026 } : n === 1 ? { id: ID, numero: 1, ano: 2026 } : null,
  classes: n === 5 ? ['cnbs:7510', 'cnbs:7530'] : [CLASSE[n % 3]!],
});
const demandas = {
  items: Array.from({ length: N }, (_, i) => demanda(i + 1)),
  classes: [
    { chave: 'grupo:0750', tipo: 'grupo', codigo: '0750', nome: 'Expediente', dfds: 40 },
    { chave: 'cnbs:7510', tipo: 'classe', codigo: '7510', nome: 'Artigos de escritório', dfds: 41 },
    { chave: 'cnbs:7530', tipo: 'classe', codigo: '7530', nome: 'Artigos de papelaria', dfds: 40 },
  ],
  truncated: false,
};

const plano = planoDoSetor({
  memorandos: [{ id: dfdId(1), numero: 1, ano: 2026, assunto: 'Demanda 1 do exercício', valorTotal: '10.00', origemNome: 'Secretaria de Saúde' }],
});

const abrir = async () => {
  const { calls } = renderPlugin(plugin, {
    path: `/elabora-pca/edit/${ID}`,
    session: sessaoDoSetor(),
    api: apiDoPlano(plano, {
      [`GET /api/pca/planos/${ID}/demandas`]: () => Response.json(demandas),
      [`PUT /api/pca/planos/${ID}`]: () => Response.json(plano),
    }),
  });
  const card = await screen.findByRole('region', { name: 'Consolidação das demandas (DFD de 2027)' }, T);
  await within(card).findByRole('group', { name: 'Memorandos (DFD) aceitos para o PCA de 2027' }, T);
  return { card, calls };
};
/** The number of the DFD a checkbox marks (its label: 'Memorando n/2026 – …'). */
const numeroDe = (input: HTMLElement) => Number(/^Memorando (\d+)\//.exec(document.querySelector(`label[for="${input.id}"]`)?.textContent ?? '')?.[1]);
/** The numbers of the DFDs on the page; of those marked. */
const numeros = (card: HTMLElement) => within(card).queryAllByRole('checkbox').map(numeroDe);
const marcados = (card: HTMLElement) =>
  within(card)
    .queryAllByRole('checkbox')
    .filter((c) => (c as HTMLInputElement).checked)
    .map(numeroDe);
const caixa = (card: HTMLElement, n: number) => within(card).getByRole('checkbox', { name: new RegExp(`^Memorando ${n}/2026 – `) }) as HTMLInputElement;
const faixa = (de: number, ate: number, passo = 1) => Array.from({ length: Math.floor((ate - de) / passo) + 1 }, (_, i) => de + i * passo);

describe('the consolidation card with many DFDs', () => {
  it(`${DEMANDAS_POR_PAGINA} DFDs a page: the others are a page away; each says its Classes/Grupos; one in another plan stays disabled`, async () => {
    const { card } = await abrir();
    expect(within(card).getAllByRole('checkbox')).toHaveLength(DEMANDAS_POR_PAGINA);
    expect(numeros(card)).toEqual(faixa(1, DEMANDAS_POR_PAGINA));
    const paginacao = within(card).getByRole('navigation', { name: 'Paginação' });
    expect(within(paginacao).getByText('120 memorandos')).toBeTruthy();
    expect(within(paginacao).getByText('Página 1 de 3')).toBeTruthy();
    expect(within(card).getByRole('status').textContent).toBe('1 memorando marcado');
    expect(caixa(card, 1).checked).toBe(true);
    // the hint (aria-describedby): its lines' Classes/Grupos; DFD 7 in another plan, disabled
    expect(caixa(card, 5).getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(caixa(card, 5).getAttribute('aria-describedby')!)!.textContent).toBe(
      'Classes/Grupos: Classe 7510 – Artigos de escritório; Classe 7530 – Artigos de papelaria.',
    );
    expect(caixa(card, 7).disabled).toBe(true);
    expect(document.getElementById(caixa(card, 7).getAttribute('aria-describedby')!)!.textContent).toBe(
      'Já consolidado no plano 2/2026. Classe/Grupo: Classe 7510 – Artigos de escritório.',
    );
    fireEvent.click(within(paginacao).getByRole('button', { name: /Próxima/ }));
    expect(numeros(card)).toEqual(faixa(DEMANDAS_POR_PAGINA + 1, 2 * DEMANDAS_POR_PAGINA));
    // a DFD marked on page 2 is still marked after going back and forth
    fireEvent.click(caixa(card, 60));
    fireEvent.click(within(paginacao).getByRole('button', { name: /Anterior/ }));
    expect(caixa(card, 1).checked).toBe(true);
    fireEvent.click(within(paginacao).getByRole('button', { name: /Próxima/ }));
    expect(caixa(card, 60).checked).toBe(true);
    expect(within(card).getByRole('status').textContent).toBe('2 memorandos marcados');
    expect(within(card).getByRole('button', { name: 'Consolidar 2 memorandos' })).toBeTruthy();
  });

  it('the search narrows by número, área requisitante or assunto, accents aside, from page 1; nothing found is said', async () => {
    const { card } = await abrir();
    const busca = within(card).getByRole('textbox', { name: /Buscar DFD/ });
    fireEvent.click(within(within(card).getByRole('navigation', { name: 'Paginação' })).getByRole('button', { name: /Próxima/ }));
    // by número, shown although the person was on page 2
    fireEvent.change(busca, { target: { value: '110/2026' } });
    expect(numeros(card)).toEqual([110]);
    // by assunto: 'Demanda 11' is in DFD 11's and DFDs 110…119's
    fireEvent.change(busca, { target: { value: 'demanda 11' } });
    expect(numeros(card)).toEqual([11, ...faixa(110, 119)]);
    expect(within(within(card).getByRole('navigation', { name: 'Paginação' })).getByText('Página 1 de 1')).toBeTruthy();
    // 'saude' finds Saúde: the 60 odd DFDs, 50 on this page
    fireEvent.change(busca, { target: { value: 'SAUDE' } });
    expect(numeros(card)).toEqual(faixa(1, 99, 2));
    expect(within(within(card).getByRole('navigation', { name: 'Paginação' })).getByText('60 memorandos')).toBeTruthy();
    fireEvent.change(busca, { target: { value: 'Secretaria de Obras' } });
    expect(within(card).queryAllByRole('checkbox')).toEqual([]);
    expect(within(card).getByText('Nenhum memorando encontrado.')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /^Marcar / })).toBeNull();
  });

  it('the Classe/Grupo filter lists each with its DFDs and narrows the list; combined with the search', async () => {
    const { card } = await abrir();
    const filtro = within(card).getByRole('combobox', { name: /^Classe\/Grupo/ }) as HTMLSelectElement;
    expect([...filtro.options].map((o) => o.textContent)).toEqual([
      'Todas as Classes/Grupos (120 DFDs)',
      'Grupo 0750 – Expediente (40 DFDs)',
      'Classe 7510 – Artigos de escritório (41 DFDs)',
      'Classe 7530 – Artigos de papelaria (40 DFDs)',
    ]);
    fireEvent.change(filtro, { target: { value: 'cnbs:7510' } });
    // n % 3 = 1, and DFD 5 (lines in 7510 too): 41, one page
    expect(numeros(card)).toEqual([1, 4, 5, ...faixa(7, 118, 3)]);
    expect(within(card).getByRole('button', { name: 'Marcar os 40 encontrados' })).toBeTruthy();
    fireEvent.change(within(card).getByRole('textbox', { name: /Buscar DFD/ }), { target: { value: 'educação' } });
    expect(numeros(card)).toEqual(faixa(4, 118, 6));
  });

  it('"Marcar os N encontrados" marks every DFD found on every page (not one in another plan), "Desmarcar…" unmarks them; the PUT names them', async () => {
    const { card, calls } = await abrir();
    fireEvent.change(within(card).getByRole('textbox', { name: /Buscar DFD/ }), { target: { value: 'saúde' } });
    // 60 found; DFD 7 is in another plan: 59 to mark
    fireEvent.click(within(card).getByRole('button', { name: 'Marcar os 59 encontrados' }));
    expect(within(card).getByRole('status').textContent).toBe('59 memorandos marcados (59 entre os 60 encontrados)');
    expect(marcados(card)).toEqual(faixa(1, 99, 2).filter((n) => n !== 7));
    fireEvent.click(within(within(card).getByRole('navigation', { name: 'Paginação' })).getByRole('button', { name: /Próxima/ }));
    expect(numeros(card)).toEqual(faixa(101, 119, 2));
    expect(marcados(card)).toEqual(faixa(101, 119, 2));
    // the search cleared: the marks stay; then Grupo 0750's 40 DFDs unmarked (the 20 odd ones were marked)
    fireEvent.change(within(card).getByRole('textbox', { name: /Buscar DFD/ }), { target: { value: '' } });
    expect(within(card).getByRole('status').textContent).toBe('59 memorandos marcados');
    fireEvent.change(within(card).getByRole('combobox', { name: /^Classe\/Grupo/ }), { target: { value: 'grupo:0750' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Desmarcar os 40 encontrados' }));
    expect(within(card).getByRole('status').textContent).toBe('39 memorandos marcados (0 entre os 40 encontrados)');
    const esperados = faixa(1, 119, 2).filter((n) => n !== 7 && n % 3 !== 0);
    expect(esperados).toHaveLength(39);
    fireEvent.click(within(card).getByRole('button', { name: 'Consolidar 39 memorandos' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), T);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ version: 2, anoPca: 2027, codigoUnidade: '926001', centroCustoId: CENTRO });
    expect([...(put.body as { memorandoIds: string[] }).memorandoIds].sort()).toEqual(esperados.map(dfdId).sort());
  });
});
