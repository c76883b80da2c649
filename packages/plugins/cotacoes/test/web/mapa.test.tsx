// @vitest-environment jsdom
// The mapa comparativo (/cotacao/mapa/:id) rendered by core's App against a mocked GET …/mapa answer
// built to the MapaCotacao type (test/web/cotacao-fixture.ts).
import { type ApiCall, makeTestSession, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MapaCotacao } from '../../src/shared/index';
import plugin from '../../src/web/index';
import { BASE, COT, F1, F2, F3, F4, MAPA_URL, NOMES, P1, P2, P3, PR, mapaDeExemplo, stubDownloads } from './cotacao-fixture';

const T = { timeout: 8000 };
const session = makeTestSession({ tags: [73] });
const abrir = (mapa: MapaCotacao, extra: Record<string, (call: ApiCall) => Response | Promise<Response>> = {}) =>
  renderPlugin(plugin, { path: `/cotacao/mapa/${COT}`, session, api: { [`GET ${MAPA_URL}`]: () => Response.json(mapa), ...extra } });
const celula = (produtoId: string, fornecedorId: string) => document.querySelector<HTMLElement>(`[data-celula="${produtoId}:${fornecedorId}"]`);
const grade = () => screen.findByRole('table', { name: /Mapa comparativo: 3 itens × 4 fornecedores/ }, T);

describe('mapa comparativo', () => {
  it('shows every item × every invited supplier at once, with unit and total, the statistics, the method and the totals', async () => {
    abrir(mapaDeExemplo());
    const table = await grade();
    expect(screen.getByRole('heading', { level: 1, name: 'Mapa comparativo · cotação 12/2026' })).toBeTruthy();
    // one column group per invited supplier (the one that did not answer too), one row per item
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent ?? '');
    for (const nome of Object.values(NOMES)) expect(headers.some((h) => h.startsWith(nome))).toBe(true);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(expect.arrayContaining(['1. Papel sulfite A4', '2. Caneta esferográfica azulMenos de 3 preços válidos', '3. Grampeador de mesa']));
    for (const produto of [P1, P2, P3]) for (const fornecedor of [F1, F2, F3, F4]) expect(celula(produto, fornecedor)).not.toBeNull();
    // unit (4 places kept) and total (quantity × unit, cents) side by side
    const alfa = celula(P1, F1)!;
    expect(alfa.textContent).toContain('R$ 25,50');
    expect(alfa.textContent).toContain('Chamex');
    expect(alfa.nextElementSibling?.textContent).toBe('R$ 2.550,00');
    expect(celula(P1, F3)!.textContent).toBe('—');
    // statistics, the method's result with its criterion, the winner
    const linha1 = alfa.closest('tr')!;
    expect(within(linha1).getByText('R$ 29,16')).toBeTruthy();
    expect(within(linha1).getByText('21,2%')).toBeTruthy();
    expect(within(linha1).getByText('R$ 26,45')).toBeTruthy();
    expect(within(linha1).getByText('CV dos restantes 3,9% ≤ 25%: média dos 4 preços mantidos.')).toBeTruthy();
    expect(within(linha1).getByText('R$ 2.645,00')).toBeTruthy();
    // the method in force, printed with its rule
    expect(screen.getByRole('heading', { name: 'Método em vigor: Média saneada' })).toBeTruthy();
    expect(screen.getByText(/descartam-se os preços fora do intervalo média ± 1 desvio-padrão amostral \(aplicado uma vez\)/)).toBeTruthy();
    // totals per supplier and the estimated total
    expect(document.querySelector(`[data-total-cotado="${F1}"]`)?.textContent).toBe('R$ 3.600,00');
    expect(document.querySelector(`[data-total-vencido="${F1}"]`)?.textContent).toBe('R$ 3.150,00');
    expect(document.querySelector(`[data-total-vencido="${F4}"]`)?.textContent).toBe('R$ 480,00');
    expect(screen.getByTestId('valor-estimado-total').textContent).toBe('R$ 3.761,70');
    expect(screen.getByTestId('valor-vencedores-total').textContent).toBe('R$ 3.630,00');
    // the grid scrolls inside its own keyboard-reachable box
    const box = table.closest('section')!;
    expect(box.className).toBe('sticky-grid__scroll');
    expect(box.tabIndex).toBe(0);
  });

  it('highlights the lowest valid price, marks the expired quote (out of the calculation), the outlier, the exclusion and the chosen winner', async () => {
    abrir(mapaDeExemplo());
    await grade();
    const menor = celula(P1, F1)!;
    expect(menor.className).toContain('sticky-grid__cell--best');
    expect(within(menor).getByText('Menor')).toBeTruthy();
    expect(within(menor).getByText('Vencedor')).toBeTruthy();
    expect(celula(P1, F4)!.className).not.toContain('sticky-grid__cell--best');
    // an expired quote: shown, marked, out (not the lowest although cheaper), the reason in its title
    const vencida = celula(P1, F2)!;
    expect(vencida.textContent).toContain('R$ 24,00');
    expect(vencida.className).toContain('sticky-grid__cell--out');
    expect(within(vencida).getByText('Vencida')).toBeTruthy();
    expect(vencida.title).toBe('Proposta vencida em 10/01/2026, antes da data de referência (01/03/2026).');
    expect(within(screen.getByRole('columnheader', { name: /^Beta Comércio de Papéis/ })).getByText('Proposta vencida')).toBeTruthy();
    expect(within(screen.getByRole('columnheader', { name: /^Gama Distribuidora/ })).getByText('Não respondeu')).toBeTruthy();
    // the outlier among the other sources, and a person's exclusion
    const outlier = screen.getByText(/Contratação similar: R\$ 40,00/);
    expect(outlier.className).toContain('sticky-grid__cell--dropped');
    expect(within(outlier).getByText('Fora da curva')).toBeTruthy();
    expect(within(celula(P2, F2)!).getByText('Excluído')).toBeTruthy();
    // a winner chosen by a person: marked with its reason, 'Voltar ao menor' offered
    const linha3 = celula(P3, F4)!.closest('tr')!;
    expect(within(celula(P3, F4)!).getByText('Vencedor')).toBeTruthy();
    expect(within(celula(P3, F1)!).getByText('Menor')).toBeTruthy();
    expect(within(linha3).getByText('Escolhido')).toBeTruthy();
    expect(within(linha3).getByText(/Prazo de entrega menor e garantia estendida\./)).toBeTruthy();
    expect(within(linha3).getByRole('button', { name: 'Voltar ao menor preço no item 3' })).toBeTruthy();
    // the item with fewer than three valid prices is flagged
    expect(within(celula(P2, F1)!.closest('tr')!).getByText('Menos de 3 preços válidos')).toBeTruthy();
  });

  it("'Escolher outro vencedor' refuses a reason under 20 characters and sends the price and a reason of exactly 20", async () => {
    let mapa = mapaDeExemplo();
    const { calls } = abrir(mapa, {
      [`PUT ${BASE}/vencedores/${P1}`]: () => {
        mapa = mapaDeExemplo(); // the server's new answer (the refetch reads it)
        return Response.json({});
      },
    });
    await grade();
    fireEvent.click(screen.getByRole('button', { name: 'Escolher outro vencedor para o item 1' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Escolher outro vencedor: item 1' }, T);
    // only valid supplier prices are choices: the expired quote is not
    const opcoes = within(dialog).getAllByRole('radio');
    expect(opcoes).toHaveLength(2);
    expect(within(dialog).queryByLabelText(/Beta Comércio/)).toBeNull();
    fireEvent.click(within(dialog).getByLabelText(/Delta Suprimentos: R\$ 26,40/));
    const motivo = within(dialog).getByLabelText(/Motivo da escolha/);
    fireEvent.change(motivo, { target: { value: 'Entrega em 48 horas' } }); // 19 characters
    expect(within(dialog).getByText('Ao menos 20 caracteres: faltam 1.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Escolher vencedor' }));
    expect(await within(dialog).findByText('Informe o motivo da escolha (ao menos 20 caracteres).', {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    fireEvent.change(motivo, { target: { value: 'Entrega em 48 horas.' } }); // 20
    fireEvent.click(within(dialog).getByRole('button', { name: 'Escolher vencedor' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1), T);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe(`${BASE}/vencedores/${P1}`);
    expect(put.body).toEqual({ precoId: PR.p1f4, motivo: 'Entrega em 48 horas.' });
    expect(await screen.findByText('Vencedor do item 1 alterado.', {}, T)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), T);
    expect(calls.filter((c) => c.method === 'GET' && c.path === MAPA_URL).length).toBeGreaterThanOrEqual(2);
  });

  it("'Voltar ao menor' asks and sends DELETE for the item", async () => {
    const { calls } = abrir(mapaDeExemplo(), { [`DELETE ${BASE}/vencedores/${P3}`]: () => new Response(null, { status: 204 }) });
    await grade();
    fireEvent.click(screen.getByRole('button', { name: 'Voltar ao menor preço no item 3' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Voltar ao menor preço no item 3?' }, T);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Voltar ao menor' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `${BASE}/vencedores/${P3}`)).toBe(true), T);
    expect(await screen.findByText('Item 3: vencedor de volta ao menor preço.', {}, T)).toBeTruthy();
  });

  it("'Concluir' sends the version and shows the server's 409 message", async () => {
    const mensagem = 'Itens com menos de 3 preços válidos sem justificativa aprovada: 2 – Caneta esferográfica azul.';
    const { calls } = abrir(mapaDeExemplo(), {
      [`POST ${BASE}/concluir`]: () => Response.json({ error: { code: 'conflict', message: mensagem } }, { status: 409 }),
    });
    await grade();
    fireEvent.click(screen.getByRole('button', { name: 'Concluir' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Concluir a cotação 12/2026?' }, T);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Concluir' }));
    const alerta = await screen.findByRole('alert', {}, T);
    expect(within(alerta).getByText('A cotação não foi concluída')).toBeTruthy();
    expect(within(alerta).getByText(mensagem)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === `${BASE}/concluir`)?.body).toEqual({ version: 4 });
  });

  it('the justification of the items with fewer than three prices: saved by the buyer, approved by the autoridade competente', async () => {
    const { calls } = abrir(mapaDeExemplo({ podeAprovarJustificativa: true }), {
      [`PUT ${BASE}/justificativa`]: () => Response.json({}),
    });
    await grade();
    const card = screen.getByRole('region', { name: 'Itens com menos de três preços válidos' });
    expect(within(card).getByText('Item 2: Caneta esferográfica azul (2 preços válidos)')).toBeTruthy();
    const campo = within(card).getByLabelText(/Justificativa/);
    fireEvent.change(campo, { target: { value: 'Curta' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Salvar justificativa' }));
    expect(await within(card).findByText('Informe a justificativa (ao menos 20 caracteres).', {}, T)).toBeTruthy();
    const texto = 'Só dois fornecedores da região trabalham com este item.';
    fireEvent.change(campo, { target: { value: texto } });
    fireEvent.click(within(card).getByRole('button', { name: 'Salvar justificativa' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ texto }), T);
    // nothing to approve before a justification exists
    expect(within(card).queryByRole('button', { name: 'Aprovar justificativa' })).toBeNull();
  });

  it("'Aprovar justificativa' only for who may approve, and only while it is not approved", async () => {
    const registrada = {
      justificativa: 'Só dois fornecedores da região trabalham com este item.',
      justificativaPorNome: 'Maria Souza',
      justificativaEm: '2026-03-02T12:00:00.000Z',
    };
    const { calls } = abrir(mapaDeExemplo({ cotacao: registrada, podeAprovarJustificativa: true }), {
      [`POST ${BASE}/justificativa/aprovar`]: () => Response.json({}),
    });
    await grade();
    expect(screen.getByText(/Registrada por Maria Souza em 02\/03\/2026 09:00\. Aguardando a aprovação da autoridade competente\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Aprovar justificativa' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `${BASE}/justificativa/aprovar`)).toBe(true), T);
    expect(await screen.findByText('Justificativa aprovada.', {}, T)).toBeTruthy();
  });

  it('an approval voided by a change shows as such, and the autoridade may approve again (issue 18)', async () => {
    const anulada = {
      justificativa: 'Só dois fornecedores da região trabalham com este item.',
      justificativaPorNome: 'Maria Souza',
      justificativaEm: '2026-03-02T12:00:00.000Z',
      justificativaAnuladaEm: '2026-03-03T12:00:00.000Z',
      justificativaAnuladaAprovador: 'Augusto Autoridade',
      justificativaAnuladaMotivo: 'Aprovação anulada por alteração depois dela: item 2. Caneta esferográfica azul.',
    };
    abrir(mapaDeExemplo({ cotacao: anulada, podeAprovarJustificativa: true }));
    await grade();
    const alerta = screen.getByText('Aprovação anulada por alteração').closest('[role="alert"], .alert, div')!;
    expect(alerta.textContent).toContain('item 2. Caneta esferográfica azul. A aprovação era de Augusto Autoridade, anulada em 03/03/2026 09:00.');
    expect(screen.getByRole('button', { name: 'Aprovar justificativa' })).toBeTruthy();
  });

  it('the rounds of the média saneada are listed under the method', async () => {
    abrir(mapaDeExemplo());
    await grade();
    const rodadas = screen.getByText(/Rodadas da média saneada \(1 item\)/).closest('details')!;
    expect(rodadas.textContent).toContain(
      '1ª rodada: 5 preços, média R$ 29,16, DP R$ 6,18, CV 21,2%; intervalo R$ 22,98 a R$ 35,34; descartados: R$ 40,00; mantidos: 4.',
    );
    expect(rodadas.textContent).toContain('Depois da 1ª rodada: 4 preços, média R$ 26,45, DP R$ 1,03, CV 3,9%; regra aplicada uma vez (sem iteração).');
  });

  it('without podeEditar: read only (no winner choice, no Concluir, no justification field), the memória still downloadable', async () => {
    const registrada = { justificativa: 'Só dois fornecedores da região trabalham com este item.' };
    const { calls } = abrir(mapaDeExemplo({ podeEditar: false, cotacao: registrada }), {
      [`GET ${BASE}/memoria.xlsx`]: () => new Response('xlsx', { headers: { 'content-disposition': 'attachment; filename="memoria.xlsx"' } }),
    });
    await grade();
    expect(screen.getByText(/Você pode consultar esta cotação, mas não alterá-la/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Escolher outro vencedor/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Voltar ao menor/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Concluir' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Salvar justificativa' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Ações' })).toBeNull();
    expect(screen.getByText('Só dois fornecedores da região trabalham com este item.')).toBeTruthy();
    // downloads go through the API client (bearer token), not a plain link
    const click = stubDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Memória de cálculo (XLSX)' }));
    await waitFor(() => expect(click).toHaveBeenCalled(), T);
    expect(calls.find((c) => c.path === `${BASE}/memoria.xlsx`)?.headers.get('authorization')).toMatch(/^Bearer /);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('memoria.xlsx');
  });

  it('a concluded cotação says so and offers no changes', async () => {
    abrir(mapaDeExemplo({ cotacao: { status: 'concluida', concluidaEm: '2026-03-05T12:00:00.000Z' } }));
    await grade();
    expect(screen.getByText(/Esta cotação foi concluída/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Concluir' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Escolher outro vencedor/ })).toBeNull();
  });

  it('500 items × 10 suppliers: one row per item, one cell per supplier (the first rows painted first)', async () => {
    const base = mapaDeExemplo();
    const fornecedores = Array.from({ length: 10 }, (_, f) => `00000000-0000-4000-9000-${String(f).padStart(12, '0')}`);
    const itens = Array.from({ length: 500 }, (_, i) => ({
      ...base.itens[0]!,
      id: `i${i}`,
      produtoId: `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
      ordem: i + 1,
      descricao: `Produto ${i + 1}`,
    }));
    const precos = itens.flatMap((item, i) =>
      fornecedores.map((fornecedorId, f) => ({
        ...base.precos[0]!,
        id: `p-${i}-${f}`,
        produtoId: item.produtoId,
        fornecedorId,
        valorUnitario: String(10 + f),
      })),
    );
    const mapa: MapaCotacao = {
      ...base,
      itens,
      convites: fornecedores.map((fornecedorId, f) => ({ ...base.convites[0]!, id: `c${f}`, fornecedorId, fornecedorNome: `Fornecedor ${f + 1}` })),
      precos,
      vencedores: [],
      avaliacao: {
        ...base.avaliacao,
        precos: precos.map((p) => ({ precoId: p.id, valido: true, usado: true, exclusao: null, motivo: null, incluidoPorDecisao: false })),
        itens: itens.map((item, i) => ({ ...base.avaliacao.itens[0]!, produtoId: item.produtoId, menores: [`p-${i}-0`] })),
        fornecedores: [],
        itensMenosDeTres: [],
      },
    };
    abrir(mapa);
    const table = await screen.findByRole('table', { name: 'Mapa comparativo: 500 itens × 10 fornecedores' }, { timeout: 20_000 });
    // the first rows are painted first, the rest right after
    await waitFor(() => expect(table.querySelectorAll('tbody tr')).toHaveLength(500), { timeout: 20_000 });
    expect(table.querySelectorAll('tbody [data-celula]')).toHaveLength(5000);
    expect(table.querySelectorAll('tbody .sticky-grid__cell--best')).toHaveLength(1000); // unit and total of each item's lowest
  }, 60_000);
});
