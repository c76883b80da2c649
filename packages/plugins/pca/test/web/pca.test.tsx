// @vitest-environment jsdom
// The web half as the browser runs it: core's App (renderPlugin) with this plugin, the API mocked.
import { buildMenu } from '@app/core';
import { makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import server from '../../src/server/index';
import { PCA_TAG } from '../../src/shared/index';
import plugin from '../../src/web/index';
import { ID, T, apiDoPlano, planoDoSetor, sessaoDoSetor } from './fixtures';

const TITLE = 'Plano de Contratações Anual';
const DFD_A = '00000000-0000-4000-8000-0000000000a1';
const DFD_B = '00000000-0000-4000-8000-0000000000b1';
const plano = (over: Record<string, unknown> = {}) =>
  planoDoSetor({
    valorTotal: '5.0000',
    memorandos: [{ id: DFD_A, numero: 3, ano: 2026, assunto: 'Expediente', valorTotal: '1.00', origemNome: 'Secretaria de Educação' }],
    itens: [
      {
        id: 'i1',
        numeroItem: 1,
        categoriaItemPca: 1,
        classificacaoSuperiorCodigo: '7510',
        classificacaoSuperiorNome: 'Artigos de expediente',
        descricao: 'Papel sulfite A4',
        produtoId: 'p1',
        unidadeFornecimento: 'RESMA',
        quantidade: '30.0000',
        valorUnitario: '0.1667',
        valorTotal: '5.0000',
        dataDesejada: '2027-02-01',
        unidadeRequisitante: 'Secretaria de Educação; Secretaria de Saúde',
        pendencias: ['classe_cnbs'],
        dfds: 2,
        semData: null,
      },
    ],
    totais: {
      porCategoria: [{ rotulo: 'Material', itens: 1, valor: '5.0000' }],
      porUnidade: [
        { rotulo: 'Secretaria de Saúde', itens: 1, valor: '4.0000' },
        { rotulo: 'Secretaria de Educação', itens: 1, valor: '1.0000' },
      ],
    },
    ...over,
  });
const demandas = {
  items: [
    {
      id: DFD_A,
      numero: 3,
      ano: 2026,
      assunto: 'Expediente',
      origemNome: 'Secretaria de Educação',
      valorTotal: '1.00',
      plano: { id: ID, numero: 1, ano: 2026 },
    },
    { id: DFD_B, numero: 4, ano: 2026, assunto: 'Material de escritório', origemNome: 'Secretaria de Saúde', valorTotal: '4.00', plano: null },
  ],
};
const api = (row = plano()) =>
  apiDoPlano(row, {
    [`GET /api/pca/planos/${ID}/demandas`]: () => Response.json(demandas),
    [`GET /api/pca/planos/${ID}/itens/1/dfds`]: () =>
      Response.json({
        items: [
          {
            memorandoId: DFD_A,
            memorandoItemId: 'l1',
            numero: 3,
            ano: 2026,
            origemNome: 'Secretaria de Educação',
            quantidade: '10.0000',
            valorTotal: '1.0000',
          },
          { memorandoId: DFD_B, memorandoItemId: 'l2', numero: 4, ano: 2026, origemNome: 'Secretaria de Saúde', quantidade: '20.0000', valorTotal: '4.0000' },
        ],
      }),
    [`PUT /api/pca/planos/${ID}`]: () => Response.json(row),
  });

describe('@app/pca manifest', () => {
  it("id 'pca' like its server half, '/elabora-pca' with list, new and edit behind tag 101; lazy pages only", () => {
    expect(plugin).toMatchObject({ id: 'pca', basePath: '/elabora-pca', tag: PCA_TAG, title: TITLE, packageName: '@app/pca' });
    expect(plugin.id).toBe(server.id);
    expect(plugin.routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/', '/new', '/edit/:id']));
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
    expect(buildMenu([plugin], [PCA_TAG]).map((m) => [m.href, m.label])).toEqual([['/elabora-pca', TITLE]]);
    expect(buildMenu([plugin], [])).toEqual([]);
  });
});

describe('pages', () => {
  it('a user holding tag 101 sees the list with number, year, unit and exact value', async () => {
    renderPlugin(plugin, { path: '/elabora-pca', session: makeTestSession({ tags: [101] }), api: api() });
    expect(await screen.findByRole('heading', { level: 1, name: TITLE }, T)).toBeTruthy();
    const row = (await screen.findByText('926001', {}, T)).closest('tr') as HTMLElement;
    const cells = [...row.querySelectorAll('th,td')].map((td) => td.textContent?.trim());
    expect(cells).toEqual(expect.arrayContaining(['1/2026', '2027', 'Compras e Licitações', 'Em elaboração']));
  });

  it('the plan shows its items; an item opens the DFD lines it came from (keyboard button, aria-expanded)', async () => {
    renderPlugin(plugin, { path: `/elabora-pca/edit/${ID}`, session: sessaoDoSetor(), api: api() });
    const itens = await screen.findByRole('region', { name: /Itens do plano \(1\)/ }, T);
    expect(within(itens).getByText('Papel sulfite A4')).toBeTruthy();
    expect(within(itens).getByText('Secretaria de Educação; Secretaria de Saúde')).toBeTruthy();
    expect(
      within(itens)
        .getByRole('link', { name: /sem a classe ou o grupo do CNBS/ })
        .getAttribute('href'),
    ).toBe('/produtos/edit/p1');
    // the checks before approval, above the items: each pendência with a link to where it is fixed
    const pendencias = screen.getByRole('list', { name: 'Pendências para o PNCP' });
    expect(within(pendencias).getByRole('listitem').textContent).toBe(
      'Item 1 (Papel sulfite A4): Produto com código CATMAT/CATSER sem a classe ou o grupo do CNBS',
    );
    expect(within(pendencias).getByRole('link').getAttribute('href')).toBe('/produtos/edit/p1');
    const abrir = within(itens).getByRole('button', { name: '2 DFD do item 1' });
    expect(abrir.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(abrir);
    const lista = await within(itens).findByRole('list', { name: 'DFDs do item 1' });
    expect(within(lista).getByRole('link', { name: 'Memorando 4/2026' }).getAttribute('href')).toBe(`/memorandos/edit/${DFD_B}`);
    // the totals, by category and by requesting unit, in tables of their own
    const porUnidade = screen.getByRole('table', { name: 'Por unidade requisitante (linhas dos DFDs)' });
    expect(
      within(porUnidade)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['Secretaria de Saúde1R$ 4,00', 'Secretaria de Educação1R$ 1,00']);
    expect(within(screen.getByRole('table', { name: 'Por categoria' })).getByRole('rowheader', { name: 'Material' })).toBeTruthy();
  });

  it('a grupo over the year dispensa limit: "Exige licitação" on its items and a card with the total against the limit', async () => {
    const grupo = (over: Record<string, unknown>) => ({
      grupoId: 'g1',
      grupoCodigo: '0750',
      grupoNome: 'Expediente',
      categoria: 'compras',
      categoriaRotulo: 'Compras e outros serviços (art. 75, II, da Lei 14.133/2021)',
      itens: 1,
      total: '70000.0100',
      limite: '65492.11',
      anoLimite: 2026,
      exigeLicitacao: true,
      // item 1 shows its CNBS classe (7510), not the catalogue's grupo: it is flagged by its number
      numerosItem: [1],
      ...over,
    });
    const row = plano({
      fracionamento: [
        grupo({}),
        grupo({ grupoId: 'g2', grupoCodigo: 'S01', grupoNome: 'Serviços de limpeza', total: '10.0000', exigeLicitacao: false, numerosItem: [2] }),
      ],
    });
    renderPlugin(plugin, { path: `/elabora-pca/edit/${ID}`, session: sessaoDoSetor(), api: api(row) });
    const itens = await screen.findByRole('region', { name: /Itens do plano \(1\)/ }, T);
    expect(within(itens).getByText('Exige licitação')).toBeTruthy();
    const card = screen.getByRole('region', { name: 'Fracionamento: grupos que exigem licitação' });
    const linhas = within(within(card).getByRole('table', { name: 'Grupos acima do limite de dispensa' }))
      .getAllByRole('row')
      .slice(1);
    // only the grupo over the limit, with the exact total and the limit of its year
    expect(linhas.map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent))).toEqual([
      ['0750 – Expediente', 'Compras e outros serviços (art. 75, II, da Lei 14.133/2021)', '1', 'R$ 70.000,01', 'R$ 65.492,11 (2026)'],
    ]);
  });

  it('published: the PNCP situation with its link and "Excluir do PNCP" (asked with the reason); the items that left the plan, with what was sent', async () => {
    const row = plano({
      status: 'em_revisao',
      publicacoes: [
        {
          texto: 'Publicado no PNCP: 46358021000184-0-000001/2027',
          tom: 'success',
          link: { href: 'https://treina.pncp.gov.br/app/pca/46358021000184-0-000001/2027', texto: 'Ver no portal do PNCP' },
          acao: {
            rotulo: 'Excluir do PNCP',
            titulo: 'Excluir do PNCP o plano 46358021000184-0-000001/2027?',
            descricao: 'O plano e todos os seus itens saem do PNCP.',
            campo: 'Motivo da exclusão',
            caminho: `pncp/planos/${ID}/excluir`,
          },
        },
      ],
      itensForaDoPlano: [
        {
          numeroItem: 2,
          descricao: 'Caneta azul',
          quantidade: '3.5000',
          valorTotal: '36.1666',
          texto: 'Excluído do PNCP em 05/03/2027 (item 2)',
          tom: 'neutral',
        },
        { numeroItem: 3, descricao: 'Grampeador', quantidade: '1.0000', valorTotal: '50.0000', texto: 'A excluir no PNCP (item 3)', tom: 'warning' },
      ],
    });
    const { calls } = renderPlugin(plugin, {
      path: `/elabora-pca/edit/${ID}`,
      session: sessaoDoSetor(),
      api: { ...api(row), [`POST /api/pncp/planos/${ID}/excluir`]: () => Response.json({ id: 'p1', estado: 'aguardando' }) },
    });
    const itens = await screen.findByRole('region', { name: /Itens do plano \(1\)/ }, T);
    const fora = within(itens).getByRole('table', { name: 'Itens que saíram do plano (no PNCP: quantidade e valor como foram enviados)' });
    expect(
      within(fora)
        .getAllByRole('row')
        .map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent)),
    ).toEqual([
      ['Item', 'Descrição', 'Quantidade', 'Valor total', 'PNCP'],
      ['2', 'Caneta azul', '3,5', 'R$ 36,1666', 'Excluído do PNCP em 05/03/2027 (item 2)'],
      ['3', 'Grampeador', '1', 'R$ 50,00', 'A excluir no PNCP (item 3)'],
    ]);
    expect(screen.getByRole('link', { name: 'Ver no portal do PNCP' }).getAttribute('href')).toBe(
      'https://treina.pncp.gov.br/app/pca/46358021000184-0-000001/2027',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Excluir do PNCP' }));
    const dialogo = await screen.findByRole('alertdialog', { name: 'Excluir do PNCP o plano 46358021000184-0-000001/2027?' }, T);
    fireEvent.change(within(dialogo).getByLabelText(/Motivo da exclusão/), { target: { value: '  Plano publicado por engano.  ' } });
    fireEvent.click(within(dialogo).getByRole('button', { name: 'Excluir do PNCP' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), T);
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: `/api/pncp/planos/${ID}/excluir`,
      body: { justificativa: 'Plano publicado por engano.' },
    });
  });

  it('no grupo over the limit: no card, no flag', async () => {
    renderPlugin(plugin, { path: `/elabora-pca/edit/${ID}`, session: sessaoDoSetor(), api: api() });
    const itens = await screen.findByRole('region', { name: /Itens do plano \(1\)/ }, T);
    expect(within(itens).queryByText('Exige licitação')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Fracionamento: grupos que exigem licitação' })).toBeNull();
  });

  it('consolidates the checked DFDs of the year with one PUT naming them', async () => {
    const { calls } = renderPlugin(plugin, {
      path: `/elabora-pca/edit/${ID}`,
      session: sessaoDoSetor(),
      api: api(),
    });
    const area = await screen.findByRole('region', { name: 'Consolidação das demandas (DFD de 2027)' }, T);
    const a = await within(area).findByRole('checkbox', { name: /Memorando 3\/2026 – Secretaria de Educação/ }, T);
    expect((a as HTMLInputElement).checked).toBe(true);
    const b = within(area).getByRole('checkbox', { name: /Memorando 4\/2026 – Secretaria de Saúde/ });
    fireEvent.click(b);
    fireEvent.click(within(area).getByRole('button', { name: 'Consolidar 2 memorandos' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), T);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ version: 2, anoPca: 2027, codigoUnidade: '926001', memorandoIds: [DFD_A, DFD_B] });
  });

  it('contratações planejadas: the table, the calendar by month, and a new one posted with the items checked', async () => {
    const contratacao = {
      id: 'c1',
      numero: 1,
      titulo: 'Material de expediente',
      categoriaItemPca: 1,
      prioridade: 'alta',
      inicio: '2026-11-01',
      fim: '2027-01-15',
      version: 1,
      numerosItem: [1],
      valorTotal: '5.0000',
      atrasada: null,
    };
    const comUma = plano({ contratacoes: [contratacao], itens: [{ ...plano().itens[0], contratacaoId: 'c1' }] });
    const { calls } = renderPlugin(plugin, {
      path: `/elabora-pca/edit/${ID}`,
      session: sessaoDoSetor(),
      api: { ...api(comUma), [`POST /api/pca/planos/${ID}/contratacoes`]: () => Response.json(contratacao, { status: 201 }) },
    });
    const card = await screen.findByRole('region', { name: 'Contratações planejadas (1)' }, T);
    const linha = within(within(card).getByRole('table', { name: 'Contratações planejadas' })).getAllByRole('row')[1]!;
    expect([...linha.querySelectorAll('th,td')].slice(0, 8).map((c) => c.textContent)).toEqual([
      '1',
      'Material de expediente',
      'Material',
      'Alta',
      '01/11/2026',
      '15/01/2027',
      '1',
      'R$ 5,00',
    ]);
    // the calendar: every month from the first start to the last conclusion
    const meses = within(within(card).getByRole('table', { name: 'Calendário por mês' }))
      .getAllByRole('row')
      .slice(1);
    expect(meses.map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent))).toEqual([
      ['novembro de 2026', '1 – Material de expediente', '—', '—'],
      ['dezembro de 2026', '1 – Material de expediente', '—', '—'],
      ['janeiro de 2027', '1 – Material de expediente', '1', 'R$ 5,00'],
    ]);
    // the items table says which contratação each item is in
    const itens = screen.getByRole('region', { name: /Itens do plano \(1\)/ });
    expect(
      within(itens)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toContain('Contratação');
    // a new one: the item already in contratação 1 cannot be checked
    fireEvent.click(within(card).getByRole('button', { name: 'Nova contratação' }));
    const form = within(card).getByRole('form', { name: 'Nova contratação' });
    expect((within(form).getByRole('checkbox', { name: /Item 1 – Papel sulfite A4/ }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText(/^Título/), { target: { value: 'Outra' } });
    fireEvent.change(within(form).getByLabelText(/^Início do processo/), { target: { value: '2027-01-01' } });
    fireEvent.change(within(form).getByLabelText(/^Conclusão do processo/), { target: { value: '2027-02-01' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar contratação' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), T);
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      titulo: 'Outra',
      categoriaItemPca: 1,
      prioridade: 'media',
      inicio: '2027-01-01',
      fim: '2027-02-01',
      numerosItem: [],
    });
  });

  it('items added without DFD: listed with their justification; once sent, no form and no delete', async () => {
    const manual = {
      id: 'm1',
      produtoId: 'p9',
      produtoCodigo: '000079',
      produtoDescricao: 'Grampeador de mesa',
      categoriaItemPca: 1,
      quantidade: '4.0000',
      valorUnitario: '32.5000',
      dataDesejada: '2027-02-10',
      justificativa: 'Reposição do almoxarifado central.',
      version: 1,
    };
    const enviado = plano({ manuais: [manual], status: 'em_aprovacao', editavel: false, transicoes: [] });
    renderPlugin(plugin, { path: `/elabora-pca/edit/${ID}`, session: sessaoDoSetor(), api: api(enviado) });
    const card = await screen.findByRole('region', { name: 'Itens incluídos sem DFD (1)' }, T);
    const linha = within(within(card).getByRole('table', { name: 'Itens incluídos pelo setor de contratações, com a justificativa' })).getAllByRole('row')[1]!;
    expect([...linha.querySelectorAll('th,td')].map((c) => c.textContent)).toEqual([
      '000079 – Grampeador de mesa',
      'Material',
      '4',
      'R$ 32,50',
      '10/02/2027',
      'Reposição do almoxarifado central.',
    ]);
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('revisar: the dialog shows the LOA the entidade recorded (or that it is not recorded) and sends the justification only', async () => {
    const row = plano({ status: 'aprovado', editavel: false, transicoes: ['revisar'], loa: { dataPublicacao: '2026-01-10', lei: 'Lei nº 100/2026' } });
    const { calls } = renderPlugin(plugin, {
      path: `/elabora-pca/edit/${ID}`,
      session: sessaoDoSetor(),
      api: { ...api(row), [`POST /api/pca/planos/${ID}/revisar`]: () => Response.json({ ...row, status: 'em_revisao', transicoes: [] }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revisar' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    expect(within(dialog).getByText('LOA de 2027 publicada em 10/01/2026 (Lei nº 100/2026).')).toBeTruthy();
    expect(within(dialog).queryByLabelText(/Data de publicação/)).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/Justificativa da revisão/), { target: { value: 'Inclusão de demanda urgente da Saúde.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revisar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), T);
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: `/api/pca/planos/${ID}/revisar`,
      body: { version: 2, justificativa: 'Inclusão de demanda urgente da Saúde.' },
    });
  });

  it('desistir da revisão: the button of a plan em revisão asks first, saying the changes are discarded, then sends the version read', async () => {
    const row = plano({ status: 'em_revisao', versao: 2, transicoes: ['enviar', 'desistir'] });
    const { calls } = renderPlugin(plugin, {
      path: `/elabora-pca/edit/${ID}`,
      session: sessaoDoSetor(),
      api: { ...api(row), [`POST /api/pca/planos/${ID}/desistir`]: () => Response.json({ ...row, status: 'aprovado', versao: 1, transicoes: ['revisar'] }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Desistir da revisão' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    expect(
      within(dialog).getByText('Desistir da revisão? O plano volta à versão aprovada como estava, e as alterações desta revisão são descartadas.'),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Desistir da revisão' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), T);
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/api/pca/planos/${ID}/desistir`, body: { version: 2 } });
  });

  it('revisar without the LOA of the year recorded: the dialog says so; the administration (tag 3) finds the LOA dates from the list', async () => {
    renderPlugin(plugin, {
      path: `/elabora-pca/edit/${ID}`,
      session: sessaoDoSetor(),
      api: api(plano({ status: 'aprovado', editavel: false, transicoes: ['revisar'], loa: null })),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revisar' }, T));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    expect(within(dialog).getByText(/A publicação da LOA de 2027 ainda não foi registrada/)).toBeTruthy();
  });

  it('the LOA dates: a link on the list for tag 3 only, and their page lists each year with its date', async () => {
    const loas = {
      'GET /api/pca/loas': () => Response.json(pageOf([{ id: 'l1', ano: 2027, dataPublicacao: '2026-01-10', lei: 'Lei nº 100/2026', version: 1 }])),
    };
    const { unmount } = renderPlugin(plugin, { path: '/elabora-pca', session: makeTestSession({ tags: [101] }), api: { ...api(), ...loas } });
    await screen.findByText('926001', {}, T);
    expect(screen.queryByRole('link', { name: 'Publicação da LOA' })).toBeNull();
    unmount();
    renderPlugin(plugin, { path: '/elabora-pca', session: makeTestSession({ tags: [101, 3] }), api: { ...api(), ...loas } });
    fireEvent.click(await screen.findByRole('link', { name: 'Publicação da LOA' }, T));
    const row = (await screen.findByText('10/01/2026', {}, T)).closest('tr') as HTMLElement;
    expect([...row.querySelectorAll('th,td')].map((c) => c.textContent?.trim())).toEqual(expect.arrayContaining(['2027', '10/01/2026', 'Lei nº 100/2026']));
  });

  it('without tag 101: no menu entry, and the page answers Erro 403', async () => {
    renderPlugin(plugin, { path: '/elabora-pca', session: makeTestSession({ tags: [] }), api: api() });
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).queryByRole('link', { name: TITLE })).toBeNull();
  });
});
