// @vitest-environment jsdom
// The collection page (/cotacao/add/:id) rendered by core's App against a mocked GET …/mapa answer
// built to the MapaCotacao type (test/web/cotacao-fixture.ts).
import { type ApiCall, makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MapaCotacao } from '../../src/shared/index';
import plugin from '../../src/web/index';
import { BASE, C1, C3, COT, MAPA_URL, P1, P2, P3, PR, mapaDeExemplo, stubDownloads } from './cotacao-fixture';

const T = { timeout: 8000 };
const session = makeTestSession({ tags: [73] });
type Rotas = Record<string, (call: ApiCall) => Response | Promise<Response>>;
const abrir = (mapa: MapaCotacao, extra: Rotas = {}, query = '') =>
  renderPlugin(plugin, { path: `/cotacao/add/${COT}${query}`, session, api: { [`GET ${MAPA_URL}`]: () => Response.json(mapa), ...extra } });
const pronto = () => screen.findByRole('heading', { level: 1, name: 'Coleta de preços · cotação 12/2026' }, T);
const porItem = async () => {
  fireEvent.click(await screen.findByRole('tab', { name: 'Por item' }, T));
  return screen.getByRole('tabpanel');
};

describe('coleta de preços: header and tabs', () => {
  it('shows number, object, status, reference date, deadline and method; two tabs; a link to the mapa', async () => {
    abrir(mapaDeExemplo());
    await pronto();
    const dados = screen.getByRole('region', { name: 'Cotação' });
    for (const texto of [
      'Material de expediente para as escolas municipais',
      'Em coleta',
      '01/03/2026',
      '10/03/2026 17:00',
      'Média saneada (regra aplicada uma vez)',
    ]) {
      expect(within(dados).getByText(texto)).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: 'Mapa comparativo' }).getAttribute('href')).toBe(`/cotacao/mapa/${COT}`);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['Por fornecedor', 'true'],
      ['Por item', 'false'],
    ]);
    // arrow keys move between the tabs
    fireEvent.keyDown(tabs[0]!, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Por item' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Por item' }));
    expect(within(screen.getByRole('tabpanel')).getByRole('heading', { name: 'Item 1: Papel sulfite A4' })).toBeTruthy();
  });
});

describe('coleta de preços: por fornecedor', () => {
  it('lists the invited suppliers with their situation', async () => {
    abrir(mapaDeExemplo());
    await pronto();
    const tabela = screen.getByRole('table', { name: 'Fornecedores convidados' });
    const gama = within(tabela)
      .getByRole('rowheader', { name: /Gama Distribuidora/ })
      .closest('tr')!;
    expect(within(gama).getByText('Não respondeu')).toBeTruthy();
    expect(within(gama).getByText('Sem retorno após dois contatos.')).toBeTruthy();
    const alfa = within(tabela)
      .getByRole('rowheader', { name: /Alfa Papelaria/ })
      .closest('tr')!;
    expect(within(alfa).getByText('Respondeu')).toBeTruthy();
    expect(within(alfa).getByText('3 de 3')).toBeTruthy();
    expect(within(alfa).getByText('Validade 30/06/2026')).toBeTruthy();
    // who has prices cannot be marked 'não respondeu' nor removed
    expect(within(alfa).queryByRole('button', { name: /não respondeu$/ })).toBeNull();
    expect(within(alfa).queryByRole('button', { name: /Remover o convite/ })).toBeNull();
    expect(within(gama).getByRole('button', { name: 'Remover o convite de Gama Distribuidora' })).toBeTruthy();
  });

  it("'Convidar fornecedor': the picker of suppliers, the reason of the choice, POST …/fornecedores and the mapa read again", async () => {
    const EPS = '00000000-0000-4000-8000-0000000000f5';
    const { calls } = abrir(mapaDeExemplo(), {
      'GET /api/cotacoes/fornecedores': () =>
        Response.json(pageOf([{ id: EPS, nome: 'Epsilon Papéis', documento: '11444777000161', email: 'epsilon@example.com' }])),
      [`POST ${BASE}/fornecedores`]: () => Response.json({}, { status: 201 }),
    });
    await pronto();
    fireEvent.click(screen.getByRole('button', { name: 'Convidar fornecedor' }));
    const form = screen.getByRole('form', { name: 'Convidar fornecedor' });
    // nothing chosen: refused before any request
    fireEvent.click(within(form).getByRole('button', { name: 'Convidar' }));
    expect(await within(form).findByText('Escolha o fornecedor.', {}, T)).toBeTruthy();
    const combo = within(form).getByRole('combobox', { name: 'Fornecedor' });
    fireEvent.change(combo, { target: { value: 'Epsi' } });
    expect(await screen.findByRole('option', { name: /Epsilon Papéis/ }, T)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/cotacoes/fornecedores')?.search.get('q')).toBe('Epsi');
    fireEvent.keyDown(combo, { key: 'ArrowDown' });
    fireEvent.keyDown(combo, { key: 'Enter' });
    fireEvent.change(within(form).getByLabelText(/Motivo da escolha/), { target: { value: 'Fornecedor habitual do município.' } });
    const antes = calls.filter((c) => c.path === MAPA_URL).length;
    fireEvent.click(within(form).getByRole('button', { name: 'Convidar' }));
    expect(await screen.findByText('Epsilon Papéis convidado.', {}, T)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ fornecedorId: EPS, motivoEscolha: 'Fornecedor habitual do município.' });
    await waitFor(() => expect(calls.filter((c) => c.path === MAPA_URL).length).toBeGreaterThan(antes), T);
    expect(screen.queryByRole('form', { name: 'Convidar fornecedor' })).toBeNull();
  });

  it("'Registrar resposta': a grid of every item, prefilled; pt-BR prices sent as canonical decimals, the date as an instant", async () => {
    const { calls } = abrir(mapaDeExemplo(), { [`PUT ${BASE}/fornecedores/${C1}/resposta`]: () => Response.json({}) });
    await pronto();
    fireEvent.click(screen.getByRole('button', { name: 'Registrar resposta de Alfa Papelaria Ltda' }));
    const form = screen.getByRole('form', { name: 'Resposta de Alfa Papelaria Ltda' });
    const preco = (n: number) => within(form).getByLabelText(`Preço unitário do item ${n}`) as HTMLInputElement;
    const marca = (n: number) => within(form).getByLabelText(`Marca do item ${n}`) as HTMLInputElement;
    // the supplier's current answer
    expect([preco(1).value, preco(2).value, preco(3).value, marca(1).value]).toEqual(['25,5', '1,2', '45', 'Chamex']);
    // a typing mistake is shown on its row and nothing is sent
    fireEvent.change(preco(1), { target: { value: 'doze' } });
    fireEvent.change(preco(3), { target: { value: '' } });
    fireEvent.change(marca(3), { target: { value: 'Acme' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar resposta' }));
    expect(await within(form).findByText('Informe um número, por exemplo 1.234,56.', {}, T)).toBeTruthy();
    expect(within(form).getByText('Informe o preço desta marca, ou apague a marca.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    fireEvent.change(preco(1), { target: { value: '1.234,5' } });
    fireEvent.change(preco(2), { target: { value: '0,0125' } });
    fireEvent.change(marca(3), { target: { value: '' } });
    fireEvent.change(within(form).getByLabelText(/Data e hora da proposta/), { target: { value: '2026-03-05T14:30' } });
    fireEvent.change(within(form).getByLabelText('Validade da proposta'), { target: { value: '2026-04-30' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar resposta' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1), T);
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      dataProposta: '2026-03-05T17:30:00.000Z', // 14:30 in Brasília
      validade: '2026-04-30',
      itens: [
        { produtoId: P1, valorUnitario: '1234.5', marca: 'Chamex' },
        { produtoId: P2, valorUnitario: '0.0125', marca: null },
        { produtoId: P3, valorUnitario: null, marca: null },
      ],
    });
    expect(await screen.findByText('Resposta de Alfa Papelaria Ltda registrada: 2 preços.', {}, T)).toBeTruthy();
  });

  it("'Importar planilha': the server's row errors listed, nothing saved", async () => {
    const { calls } = abrir(mapaDeExemplo(), {
      [`POST ${BASE}/fornecedores/${C1}/importar`]: () =>
        Response.json(
          {
            error: {
              code: 'validation_error',
              message: 'A planilha tem 2 linhas com erro; nada foi importado.',
              fields: { 'linha 4.preço unitário': 'Informe um número, por exemplo 1.234,56.', 'linha 7.validade': 'Data inválida: use dd/mm/aaaa.' },
            },
          },
          { status: 400 },
        ),
    });
    await pronto();
    fireEvent.click(screen.getByRole('button', { name: 'Importar planilha de Alfa Papelaria Ltda' }));
    const form = screen.getByRole('form', { name: 'Importar a planilha de Alfa Papelaria Ltda' });
    fireEvent.click(within(form).getByRole('button', { name: 'Importar' }));
    expect(await within(form).findByText('Escolha a planilha .xlsx preenchida pelo fornecedor.', {}, T)).toBeTruthy();
    const arquivo = new File(['PK'], 'alfa.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    fireEvent.change(within(form).getByLabelText(/Planilha preenchida/), { target: { files: [arquivo] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Importar' }));
    expect(await screen.findByText('Nada foi importado: 2 problemas na planilha', {}, T)).toBeTruthy();
    const erros = screen.getByRole('table', { name: 'Erros encontrados na planilha' });
    const linhas = within(erros)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(linhas).toEqual([
      ['4', 'preço unitário', 'Informe um número, por exemplo 1.234,56.'],
      ['7', 'validade', 'Data inválida: use dd/mm/aaaa.'],
    ]);
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers.get('content-type')).toMatch(/^multipart\/form-data/);
    expect(String(post.body)).toMatch(
      /name="arquivo"; filename="[^"]+"\r\nContent-Type: application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet\r\n\r\nPK\r\n/,
    );
  });

  it("'Importar planilha' also lists the spreadsheet kit's { errors: [{ linha, coluna, motivo }] }; a clean file records the answer", async () => {
    let ok = false;
    abrir(mapaDeExemplo(), {
      [`POST ${BASE}/fornecedores/${C1}/importar`]: () =>
        ok
          ? Response.json({ ...mapaDeExemplo().convites[0], precos: 3 })
          : Response.json(
              {
                ok: false,
                dryRun: false,
                total: 3,
                imported: 0,
                errorCount: 1,
                errors: [{ linha: 5, coluna: 'Marca', motivo: 'Use no máximo 200 caracteres.' }],
              },
              { status: 400 },
            ),
    });
    await pronto();
    fireEvent.click(screen.getByRole('button', { name: 'Importar planilha de Alfa Papelaria Ltda' }));
    const form = screen.getByRole('form', { name: 'Importar a planilha de Alfa Papelaria Ltda' });
    fireEvent.change(within(form).getByLabelText(/Planilha preenchida/), { target: { files: [new File(['PK'], 'alfa.xlsx')] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Importar' }));
    const erros = await screen.findByRole('table', { name: 'Erros encontrados na planilha' }, T);
    expect(
      within(erros)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['5', 'Marca', 'Use no máximo 200 caracteres.']);
    ok = true;
    fireEvent.click(within(form).getByRole('button', { name: 'Importar' }));
    expect(await screen.findByText('Resposta de Alfa Papelaria Ltda importada: 3 preços.', {}, T)).toBeTruthy();
  });

  it("'Não respondeu' (with an optional note) for a supplier without prices; removing an invitation asks first", async () => {
    const mapa = mapaDeExemplo();
    mapa.convites[2] = { ...mapa.convites[2]!, situacao: 'convidado', motivoNaoResposta: null };
    const { calls } = abrir(mapa, {
      [`POST ${BASE}/fornecedores/${C3}/nao-respondeu`]: () => Response.json({}),
      [`DELETE ${BASE}/fornecedores/${C3}`]: () => new Response(null, { status: 204 }),
    });
    await pronto();
    fireEvent.click(screen.getByRole('button', { name: 'Gama Distribuidora não respondeu' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Gama Distribuidora não respondeu?' }, T);
    fireEvent.change(within(dialog).getByLabelText('Observação'), { target: { value: 'Telefone sem resposta.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Registrar “não respondeu”' }));
    await waitFor(
      () => expect(calls.find((c) => c.path === `${BASE}/fornecedores/${C3}/nao-respondeu`)?.body).toEqual({ motivo: 'Telefone sem resposta.' }),
      T,
    );
    expect(await screen.findByText('Gama Distribuidora: registrado que não respondeu.', {}, T)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remover o convite de Gama Distribuidora' }));
    const confirmar = await screen.findByRole('alertdialog', { name: 'Remover o convite de Gama Distribuidora?' }, T);
    fireEvent.click(within(confirmar).getByRole('button', { name: 'Remover convite' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `${BASE}/fornecedores/${C3}`)).toBe(true), T);
  });

  it('in a rascunho: invitations and blank forms yes, answers not yet (and why)', async () => {
    const { calls } = abrir(mapaDeExemplo({ cotacao: { status: 'rascunho' } }), {
      [`GET ${BASE}/fornecedores/${C1}/formulario.xlsx`]: () => new Response('xlsx'),
    });
    await pronto();
    expect(screen.getByText('Coleta ainda não iniciada')).toBeTruthy();
    expect(screen.getByText(/só podem ser registradas depois de “Iniciar coleta”/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Convidar fornecedor' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Registrar resposta/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Importar planilha/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Formulário PDF de Alfa Papelaria Ltda' })).toBeTruthy();
    // the blank form comes through the API client (bearer token) and is saved under a readable name
    const click = stubDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Formulário XLSX de Alfa Papelaria Ltda' }));
    await waitFor(() => expect(click).toHaveBeenCalled(), T);
    expect(calls.find((c) => c.path === `${BASE}/fornecedores/${C1}/formulario.xlsx`)?.headers.get('authorization')).toMatch(/^Bearer /);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('formulario-cotacao-12-2026-alfa-papelaria-ltda.xlsx');
  });

  it('without podeEditar: read only, with the reason', async () => {
    abrir(mapaDeExemplo({ podeEditar: false }));
    await pronto();
    expect(screen.getByText(/Você pode consultar esta cotação, mas não alterá-la/)).toBeTruthy();
    for (const name of ['Convidar fornecedor', /Registrar resposta/, /Importar planilha/, /Remover o convite/, /não respondeu$/]) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    const painel = await porItem();
    expect(within(painel).getByRole('table', { name: 'Preços do item 1' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Adicionar preço de outra fonte' })).toBeNull();
    expect(within(painel).queryByRole('button', { name: /Excluir do cálculo|Incluir mesmo assim|Restaurar/ })).toBeNull();
  });
});

describe('coleta de preços: por item', () => {
  it('every price of the item with its source, date, value, evidence and situation (used, dropped, out with the reason)', async () => {
    abrir(mapaDeExemplo());
    await pronto();
    const painel = await porItem();
    const tabela = within(painel).getByRole('table', { name: 'Preços do item 1' });
    const linha = (nome: RegExp) => within(tabela).getByRole('rowheader', { name: nome }).closest('tr')!;
    expect(within(tabela).getAllByRole('rowheader')).toHaveLength(6);
    expect(within(linha(/^Alfa Papelaria/)).getByText('Usado no cálculo')).toBeTruthy();
    expect(within(linha(/^Alfa Papelaria/)).getByText('R$ 25,50')).toBeTruthy();
    expect(within(linha(/^Beta Comércio/)).getByText(/Fora do cálculo: Proposta vencida em 10\/01\/2026/)).toBeTruthy();
    expect(within(linha(/^Contrato 15\/2025/)).getByText('Válido, descartado pelo método: Acima de média + 1 DP (R$ 35,34).')).toBeTruthy();
    const loja = linha(/^Loja Exemplo/);
    expect(within(loja).getByText('Mídia/sítio')).toBeTruthy();
    expect(within(loja).getByText('25/02/2026 10:00')).toBeTruthy();
    expect(
      within(loja)
        .getByRole('link', { name: /Abrir endereço/ })
        .getAttribute('href'),
    ).toBe('https://loja.example.com/papel');
    expect(within(loja).getByRole('button', { name: 'Baixar a evidência loja-papel.pdf' })).toBeTruthy();
    // 'Por item' picks an item; the picker says how many valid prices each has
    const item = within(painel).getByLabelText('Item') as HTMLSelectElement;
    expect([...item.options].map((o) => o.textContent)).toEqual([
      '1. Papel sulfite A4 (5 preços válidos)',
      '2. Caneta esferográfica azul (2 preços válidos)',
      '3. Grampeador de mesa (3 preços válidos)',
    ]);
    fireEvent.click(within(painel).getByRole('button', { name: 'Próximo item' }));
    const t2 = within(painel).getByRole('table', { name: 'Preços do item 2' });
    expect(within(t2).getByText('Excluído: Marca não atende à especificação.')).toBeTruthy();
    expect(within(painel).getByText(/Menos de 3 preços válidos/)).toBeTruthy();
  });

  it("'Incluir mesmo assim' an expired quote (reason ≥ 10), 'Excluir' a valid one, 'Restaurar' a decision", async () => {
    const { calls } = abrir(
      mapaDeExemplo(),
      {
        [`POST ${BASE}/precos/${PR.p1f2}/incluir`]: () => Response.json({}),
        [`POST ${BASE}/precos/${PR.p1painel}/excluir`]: () => Response.json({}),
        [`POST ${BASE}/precos/${PR.p2f2}/restaurar`]: () => Response.json({}),
      },
      `?aba=item&item=${P1}`,
    );
    await pronto();
    const painel = screen.getByRole('tabpanel');
    fireEvent.click(within(painel).getByRole('button', { name: 'Incluir mesmo assim: Fornecedor Beta Comércio de Papéis' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Incluir este preço no cálculo mesmo assim?' }, T);
    fireEvent.change(within(dialog).getByLabelText(/Motivo da inclusão/), { target: { value: 'Curto' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Incluir' }));
    expect(await within(dialog).findByText('Informe o motivo da inclusão (ao menos 10 caracteres).', {}, T)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Motivo da inclusão/), { target: { value: 'Validade prorrogada por e-mail do fornecedor.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Incluir' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/incluir'))?.body).toEqual({ motivo: 'Validade prorrogada por e-mail do fornecedor.' }), T);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), T);

    fireEvent.click(within(painel).getByRole('button', { name: /^Excluir do cálculo: Painel de preços/ }));
    dialog = await screen.findByRole('alertdialog', { name: 'Excluir este preço do cálculo?' }, T);
    fireEvent.change(within(dialog).getByLabelText(/Motivo da exclusão/), { target: { value: 'Compra com quantidade muito diferente.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/excluir'))?.body).toEqual({ motivo: 'Compra com quantidade muito diferente.' }), T);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), T);

    fireEvent.change(within(painel).getByLabelText('Item'), { target: { value: P2 } });
    fireEvent.click(within(painel).getByRole('button', { name: 'Restaurar: Fornecedor Beta Comércio de Papéis' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `${BASE}/precos/${PR.p2f2}/restaurar`)).toBe(true), T);
  });

  it("'Adicionar preço de outra fonte' with evidence: the file is uploaded first, then the price names it", async () => {
    const EV = '00000000-0000-4000-8000-0000000000e9';
    const { calls } = abrir(
      mapaDeExemplo(),
      {
        [`POST ${BASE}/evidencias`]: () =>
          Response.json({ id: EV, nome: 'pagina.html', tipo: 'text/html', tamanho: 20, sha256: 'cd'.repeat(32) }, { status: 201 }),
        [`POST ${BASE}/precos`]: () => Response.json({}, { status: 201 }),
      },
      `?aba=item&item=${P3}`,
    );
    await pronto();
    const form = screen.getByRole('form', { name: 'Adicionar preço de outra fonte' });
    expect(within(form).queryByRole('option', { name: /Cotação direta com fornecedor/ })).toBeNull();
    // the shared schema first: a site price needs its address
    fireEvent.change(within(form).getByLabelText(/^Fonte/), { target: { value: 'midia' } });
    fireEvent.change(within(form).getByLabelText(/Descrição da fonte/), { target: { value: 'Loja Exemplo' } });
    fireEvent.change(within(form).getByLabelText(/Valor unitário/), { target: { value: '1.049,9' } });
    fireEvent.change(within(form).getByLabelText(/Data e hora da coleta/), { target: { value: '2026-03-02T09:15' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar preço' }));
    expect(await within(form).findByText('Informe o endereço do sítio consultado.', {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.change(within(form).getByLabelText(/Endereço \(link\)/), { target: { value: 'https://loja.example.com/grampeador' } });
    const html = new File(['<html>R$ 1.049,90</html>'], 'pagina.html', { type: 'text/html' });
    fireEvent.change(within(form).getByLabelText(/Evidência/), { target: { files: [html] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar preço' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2), T);
    const [upload, precoCall] = calls.filter((c) => c.method === 'POST');
    expect(upload!.path).toBe(`${BASE}/evidencias`);
    expect(String(upload!.body)).toMatch(/name="arquivo"; filename="[^"]+"\r\nContent-Type: text\/html\r\n\r\n<html>R\$ 1\.049,90<\/html>/);
    expect(precoCall!.path).toBe(`${BASE}/precos`);
    expect(precoCall!.body).toEqual({
      produtoId: P3,
      fonte: 'midia',
      fonteDescricao: 'Loja Exemplo',
      valorUnitario: '1049.9',
      marca: null,
      dataColeta: '2026-03-02T12:15:00.000Z',
      link: 'https://loja.example.com/grampeador',
      evidenciaId: EV,
    });
    expect(await screen.findByText('Preço de mídia/sítio registrado.', {}, T)).toBeTruthy();
  });

  it('refuses an evidence file of another type or over 5 MB before any request', async () => {
    const { calls } = abrir(mapaDeExemplo(), {}, `?aba=item&item=${P3}`);
    await pronto();
    const form = screen.getByRole('form', { name: 'Adicionar preço de outra fonte' });
    fireEvent.change(within(form).getByLabelText(/^Fonte/), { target: { value: 'painel' } });
    fireEvent.change(within(form).getByLabelText(/Descrição da fonte/), { target: { value: 'Painel de Preços, compra 77/2025' } });
    fireEvent.change(within(form).getByLabelText(/Valor unitário/), { target: { value: '47' } });
    fireEvent.change(within(form).getByLabelText(/Evidência/), { target: { files: [new File(['x'], 'planilha.xlsx', { type: 'application/vnd.ms-excel' })] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar preço' }));
    expect(await within(form).findByText('Envie um arquivo PDF, PNG, JPEG, WebP ou HTML.', {}, T)).toBeTruthy();
    const grande = new File(['x'], 'grande.pdf', { type: 'application/pdf' });
    Object.defineProperty(grande, 'size', { value: 5 * 1024 * 1024 + 1 });
    fireEvent.change(within(form).getByLabelText(/Evidência/), { target: { files: [grande] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar preço' }));
    expect(await within(form).findByText('O arquivo passa de 5 MB.', {}, T)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});
