import { readFile } from 'node:fs/promises';
import { today } from '@app/br';
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { entrarApi, signIn, signInFromHome, textoDoPdf } from './helpers';

// The price research of issue 11, as the comprador does it (spec §2, IN SEGES/ME 65/2021): from an
// approved requisição (raised by the comprador for the Saúde, approved by the chefia: one level, under
// R$ 10.000,00), a cotação with three invited suppliers: one answer typed by hand, one imported from
// the supplier's filled XLSX (downloaded from the page, filled by exceljs), one 'não respondeu'; a
// site price with its evidence file and link; the mapa comparativo (every item × every supplier, the
// lowest valid price highlighted), another winner with a reason of at least 20 characters; an item
// with two valid prices needs a justification the autoridade competente approves; Concluir; the
// memória de cálculo PDF. Axe-clean pages in light and dark; no page error and no 5xx anywhere.
test.describe.configure({ mode: 'serial' });

const JUSTIFICATIVA = 'Cotação E2E: papel e canetas para as unidades básicas de saúde.';
const FORNECEDORES = {
  manual: { busca: 'Papelaria Aliança', nome: 'Papelaria Aliança Comércio de Materiais de Escritório Ltda' },
  planilha: { busca: 'Distribuidora Paulista', nome: 'Distribuidora Paulista de Papéis e Suprimentos Ltda' },
  silencio: { busca: 'Infoprint', nome: 'Infoprint Suprimentos para Impressão Ltda' },
} as const;
const MOTIVO_VENCEDOR = 'Marca já aprovada nos testes de qualidade da secretaria.';
const JUSTIFICATIVA_POUCOS = 'Só dois fornecedores do ramo responderam no prazo para as canetas; não há preço público recente.';
/** A 1×1 PNG: the evidence of the site's price (the server checks its first bytes). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let requisicaoId = '';
let requisicaoNumero = '';
let itens: { papel: string; caneta: string } = { papel: '', caneta: '' };
let cotacaoId = '';
let numero = '';

/** 'aaaa-mm-dd' `dias` from today (São Paulo). */
function dia(dias: number): string {
  const d = new Date(`${today()}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}

// ---- no page error and no 5xx, on every page of every test (the autoridade's too)
const problemas: string[] = [];
function vigiar(page: Page) {
  page.on('pageerror', (error) => problemas.push(`erro na página: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 500) problemas.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
}
test.beforeEach(({ page }) => vigiar(page));
test.afterEach(() => {
  const vistos = problemas.splice(0);
  expect(vistos).toEqual([]);
});

/** A toast: read, then closed as a person does (it would cover the buttons under it). */
async function aviso(page: Page, texto: string | RegExp) {
  const toast = page.getByRole('region', { name: 'Notificações' }).getByRole('listitem').filter({ hasText: texto });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Fechar notificação' }).click();
  await expect(toast).toHaveCount(0);
}

async function axe(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** The supplier's side: fills the blank XLSX form (prices by item description, the proposal's dates). */
async function preencherFormulario(bytes: Buffer, precos: Record<string, number | string>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  let cabecalho = 0;
  ws.eachRow((row, n) => {
    if (!cabecalho && String(row.getCell(1).value ?? '') === 'Nº') cabecalho = n;
  });
  expect(cabecalho, 'a linha de cabeçalho (Nº) do formulário').toBeGreaterThan(0);
  const colunas = new Map<string, number>();
  ws.getRow(cabecalho).eachCell((cell, col) => colunas.set(String(cell.value), col));
  const preco = colunas.get('Preço unitário (R$)')!;
  const marca = colunas.get('Marca')!;
  const descricao = colunas.get('Descrição')!;
  let preenchidos = 0;
  for (let n = cabecalho + 1; n <= ws.rowCount; n++) {
    const row = ws.getRow(n);
    const texto = String(row.getCell(descricao).value ?? '');
    const valor = Object.entries(precos).find(([d]) => texto === d)?.[1];
    if (valor === undefined) continue;
    row.getCell(preco).value = valor;
    row.getCell(marca).value = 'Marca da planilha';
    preenchidos++;
  }
  expect(preenchidos).toBe(Object.keys(precos).length);
  ws.eachRow((row) => {
    const rotulo = String(row.getCell(1).value ?? '');
    // a date typed in a spreadsheet program: the day at midnight
    if (rotulo === 'Validade da proposta') row.getCell(2).value = new Date(`${dia(30)}T00:00:00Z`);
    if (rotulo === 'Data da proposta') row.getCell(2).value = new Date(`${today()}T00:00:00Z`);
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test.beforeAll(async ({ browser }) => {
  // The demo's only approved requisição already has its cotação (one live cotação per requisição):
  // a fresh one, through the API. The comprador raises it for the Saúde (03), under R$ 10.000,00 so
  // that one level (the chefia) approves it.
  const context = await browser.newContext();
  const { request } = context;
  const comprador = await entrarApi(request, 'comprador');
  const get = async (path: string, headers = comprador.headers) => {
    const res = await request.get(`/api${path}`, { headers });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { items: Record<string, string>[] }).items;
  };
  const saude = (await get('/requisicoes/centros-custo?pageSize=50')).find((c) => c.codigo === '03');
  const tipo = (await get('/requisicoes/tipos-solicitacao'))[0];
  const papel = (await get('/requisicoes/produtos?q=papel%20sulfite'))[0];
  const caneta = (await get('/requisicoes/produtos?q=caneta%20esferografica%20azul'))[0];
  expect([saude, tipo, papel, caneta].every(Boolean)).toBe(true);
  itens = { papel: papel!.descricao!, caneta: caneta!.descricao! };
  const criada = await request.post('/api/requisicoes/requisicoes', {
    headers: comprador.headers,
    data: {
      centroCustoId: saude!.id,
      tipoSolicitacaoId: tipo!.id,
      categoria: 'compras',
      justificativa: JUSTIFICATIVA,
      itens: [
        { produtoId: papel!.id, quantidade: '10', valorUnitario: '27.90' },
        { produtoId: caneta!.id, quantidade: '100', valorUnitario: '1.15' },
      ],
    },
  });
  expect(criada.status(), await criada.text()).toBe(201);
  let req = (await criada.json()) as { id: string; numero: number; ano: number; version: number; status: string };
  const agir = async (acao: string, headers: Record<string, string>) => {
    const res = await request.post(`/api/requisicoes/requisicoes/${req.id}/${acao}`, {
      headers,
      // approving with a dispensa alert needs the approver's acknowledgement (ciente)
      data: { version: req.version, ...(acao === 'aprovar' ? { ciente: true } : {}) },
    });
    expect(res.status(), await res.text()).toBe(200);
    req = await res.json();
  };
  await agir('enviar', comprador.headers);
  // the chefia works in both entidades: she signs in to the comprador's (the Prefeitura)
  const chefia = await entrarApi(request, 'chefia', comprador.entidadeId);
  await agir('aprovar', chefia.headers);
  expect(req.status).toBe('aprovada');
  requisicaoId = req.id;
  requisicaoNumero = `${req.numero}/${req.ano}`;
  await context.close();
});

test('the comprador creates the cotação from the approved requisição, invites three suppliers and starts the collection', async ({ page }) => {
  await signInFromHome(page, 'comprador');
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Cotações', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cotações' })).toBeVisible();
  await page.getByRole('link', { name: 'Nova a partir de requisição' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nova cotação a partir de requisição' })).toBeVisible();

  // nothing chosen: the field says so
  await page.getByRole('button', { name: 'Criar cotação' }).click();
  await expect(page.getByText('Escolha a requisição aprovada.')).toBeVisible();
  const requisicao = page.getByRole('combobox', { name: 'Requisição aprovada' });
  await requisicao.fill(requisicaoNumero);
  const opcao = page.getByRole('listbox', { name: 'Requisição aprovada' }).getByRole('option', { name: new RegExp(`^${requisicaoNumero} – Cotação E2E`) });
  await opcao.click();
  await expect(page.getByText(JUSTIFICATIVA).last()).toBeVisible();
  await expect(page.getByText('R$ 394,00', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Criar cotação' }).click();
  await aviso(page, new RegExp(`^Cotação \\d+/\\d{4} criada a partir da requisição ${requisicaoNumero}\\.$`));
  await expect(page).toHaveURL(/\/cotacao\/add\/[0-9a-f-]{36}$/);
  cotacaoId = page.url().split('/').pop()!;
  const titulo = page.getByRole('heading', { level: 1, name: /^Coleta de preços · cotação \d+\/\d{4}$/ });
  numero = (/(\d+\/\d{4})$/.exec((await titulo.textContent()) ?? '') ?? [])[1] ?? '';
  expect(numero).toMatch(/^\d+\/\d{4}$/);
  await expect(page.getByText('Coleta ainda não iniciada')).toBeVisible();

  for (const f of Object.values(FORNECEDORES)) {
    await page.getByRole('button', { name: 'Convidar fornecedor' }).click();
    const form = page.getByRole('form', { name: 'Convidar fornecedor' });
    await form.getByRole('combobox', { name: 'Fornecedor' }).fill(f.busca);
    await page
      .getByRole('listbox', { name: 'Fornecedor' })
      .getByRole('option', { name: new RegExp(`^${f.nome}`) })
      .click();
    await form.getByLabel('Motivo da escolha').fill('Fornecedor do ramo de material de expediente na região.');
    await form.getByRole('button', { name: 'Convidar', exact: true }).click();
    await aviso(page, `${f.nome} convidado.`);
    await expect(form).toHaveCount(0);
  }
  const convidados = page.getByRole('table', { name: 'Fornecedores convidados' });
  for (const f of Object.values(FORNECEDORES)) {
    await expect(convidados.getByRole('row').filter({ hasText: f.nome })).toContainText('Aguardando resposta');
  }
  // before the collection starts there is no answer to record
  await expect(page.getByRole('button', { name: /^Registrar resposta de / })).toHaveCount(0);
  await axe(page);

  // the deadline (date and time) and 'Iniciar coleta', on the cotação's page
  await page.getByRole('link', { name: 'Abrir cotação' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar cotação' })).toBeVisible();
  await expect(page.getByRole('link', { name: `Requisição ${requisicaoNumero}` })).toBeVisible();
  await page.getByLabel('Prazo de resposta').fill(`${dia(7)}T17:00`);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await aviso(page, `Cotação ${numero} salva.`);
  await page.getByRole('button', { name: 'Iniciar coleta', exact: true }).click();
  const dialogo = page.getByRole('alertdialog');
  await dialogo.getByRole('button', { name: 'Iniciar coleta' }).click();
  await aviso(page, `Cotação ${numero} em coleta.`);
});

test('answers: one typed by hand, one imported from the XLSX form, one “não respondeu”; a site price with evidence', async ({ page }) => {
  expect(cotacaoId).not.toBe('');
  await signInFromHome(page, 'comprador');
  await page.goto(`/cotacao/add/${cotacaoId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Coleta de preços · cotação ${numero}` })).toBeVisible();
  await expect(page.getByText('Em coleta').first()).toBeVisible();
  const [dd, mm, aaaa] = [dia(7).slice(8, 10), dia(7).slice(5, 7), dia(7).slice(0, 4)];
  await expect(page.getByText(`${dd}/${mm}/${aaaa} 17:00`)).toBeVisible();
  const convidados = page.getByRole('table', { name: 'Fornecedores convidados' });
  const linha = (nome: string) => convidados.getByRole('row').filter({ hasText: nome });

  // 1. by hand
  await page.getByRole('button', { name: `Registrar resposta de ${FORNECEDORES.manual.nome}` }).click();
  const resposta = page.getByRole('form', { name: `Resposta de ${FORNECEDORES.manual.nome}` });
  await resposta.getByLabel('Preço unitário do item 1').fill('25,00');
  await resposta.getByLabel('Marca do item 1').fill('Chamex');
  await resposta.getByLabel('Preço unitário do item 2').fill('1,10');
  await resposta.getByLabel('Validade da proposta').fill(dia(30));
  await resposta.getByRole('button', { name: 'Salvar resposta' }).click();
  await aviso(page, `Resposta de ${FORNECEDORES.manual.nome} registrada: 2 preços.`);
  await expect(linha(FORNECEDORES.manual.nome)).toContainText('Respondeu');
  await expect(linha(FORNECEDORES.manual.nome)).toContainText('2 de 2');

  // 2. the blank XLSX of the second supplier, filled and imported (a bad row first: nothing saved)
  const baixado = page.waitForEvent('download');
  await page.getByRole('button', { name: `Formulário XLSX de ${FORNECEDORES.planilha.nome}` }).click();
  const download = await baixado;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const formulario = await readFile((await download.path())!);
  const errada = await preencherFormulario(formulario, { [itens.papel]: 26, [itens.caneta]: 'abc' });
  const certa = await preencherFormulario(formulario, { [itens.papel]: 26, [itens.caneta]: 1.05 });
  await page.getByRole('button', { name: `Importar planilha de ${FORNECEDORES.planilha.nome}` }).click();
  const importar = page.getByRole('form', { name: `Importar a planilha de ${FORNECEDORES.planilha.nome}` });
  const arquivo = importar.getByLabel('Planilha preenchida (.xlsx)');
  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  await arquivo.setInputFiles({ name: 'proposta.xlsx', mimeType: XLSX, buffer: errada });
  await importar.getByRole('button', { name: 'Importar', exact: true }).click();
  const erros = page.getByRole('table', { name: 'Erros encontrados na planilha' });
  await expect(erros).toBeVisible();
  await expect(page.getByText(/^Nada foi importado: 1 problema na planilha$/)).toBeVisible();
  await expect(linha(FORNECEDORES.planilha.nome)).toContainText('0 de 2');
  await arquivo.setInputFiles({ name: 'proposta.xlsx', mimeType: XLSX, buffer: certa });
  await importar.getByRole('button', { name: 'Importar', exact: true }).click();
  await aviso(page, `Resposta de ${FORNECEDORES.planilha.nome} importada: 2 preços.`);
  await expect(linha(FORNECEDORES.planilha.nome)).toContainText('Respondeu');
  await expect(linha(FORNECEDORES.planilha.nome)).toContainText('2 de 2');

  // 3. the third did not answer: kept in the record
  await page.getByRole('button', { name: `${FORNECEDORES.silencio.nome} não respondeu` }).click();
  const naoRespondeu = page.getByRole('alertdialog');
  await expect(naoRespondeu).toContainText(`${FORNECEDORES.silencio.nome} não respondeu?`);
  await naoRespondeu.getByLabel('Observação').fill('Sem resposta ao e-mail nem ao telefone até o prazo.');
  await naoRespondeu.getByRole('button', { name: 'Registrar “não respondeu”' }).click();
  await aviso(page, `${FORNECEDORES.silencio.nome}: registrado que não respondeu.`);
  await expect(linha(FORNECEDORES.silencio.nome)).toContainText('Não respondeu');
  await expect(linha(FORNECEDORES.silencio.nome)).toContainText('Sem resposta ao e-mail nem ao telefone até o prazo.');

  // 4. a price of a site (art. 5º, III) for the paper, with the link and the page saved as evidence
  await page.getByRole('tab', { name: 'Por item' }).click();
  await expect(page.getByRole('tab', { name: 'Por item' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Item', { exact: true })).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: `Item 1: ${itens.papel}` })).toBeVisible();
  const novo = page.getByRole('form', { name: 'Adicionar preço de outra fonte' });
  await novo.getByRole('combobox', { name: 'Fonte' }).selectOption({ label: 'Mídia especializada ou sítio eletrônico (art. 5º, III)' });
  await novo.getByLabel('Descrição da fonte').fill('Loja Exemplo de Papelaria');
  await novo.getByLabel('Valor unitário (R$)').fill('27,00');
  await novo.getByLabel('Endereço (link)').fill('https://www.exemplo.com.br/papel-sulfite-a4');
  await novo.getByLabel('Evidência (arquivo)').setInputFiles({ name: 'pagina-da-loja.png', mimeType: 'image/png', buffer: PNG });
  await novo.getByRole('button', { name: 'Adicionar preço' }).click();
  await aviso(page, 'Preço de mídia/sítio registrado.');
  const precos = page.getByRole('table', { name: 'Preços do item 1' });
  const site = precos.getByRole('row').filter({ hasText: 'Loja Exemplo de Papelaria' });
  await expect(site).toContainText('R$ 27,00');
  await expect(site).toContainText('Usado no cálculo');
  await expect(site.getByRole('button', { name: 'Baixar a evidência pagina-da-loja.png' })).toBeVisible();
  await expect(site.getByRole('link', { name: /^Abrir endereço/ })).toHaveAttribute('href', 'https://www.exemplo.com.br/papel-sulfite-a4');
  await expect(precos.getByRole('row')).toHaveCount(4); // the header and three prices
  await axe(page);
});

test('the mapa comparativo: every item × every supplier, the lowest highlighted; another winner needs a 20-character reason', async ({ page }) => {
  expect(cotacaoId).not.toBe('');
  await signInFromHome(page, 'comprador');
  await page.goto(`/cotacao/add/${cotacaoId}`);
  await page.getByRole('link', { name: 'Mapa comparativo', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/cotacao/mapa/${cotacaoId}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Mapa comparativo · cotação ${numero}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Método em vigor: Média saneada' })).toBeVisible();

  const grade = page.getByRole('table', { name: 'Mapa comparativo: 2 itens × 3 fornecedores' });
  await expect(grade).toBeVisible();
  for (const f of Object.values(FORNECEDORES)) await expect(grade.getByRole('columnheader', { name: new RegExp(`^${f.nome}`) })).toBeVisible();
  const linha = (ordem: number) => grade.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${ordem}\\. `) }) });
  // each item has a cell for each supplier: a price (unit and total) or '—' (did not answer)
  await expect(linha(1).getByRole('cell')).toContainText(['R$ 25,00', 'R$ 250,00', 'R$ 26,00', 'R$ 260,00', '—', 'Mídia/sítio: R$ 27,00']);
  await expect(linha(2).getByRole('cell')).toContainText(['R$ 1,10', 'R$ 110,00', 'R$ 1,05', 'R$ 105,00', '—']);
  // the lowest valid supplier price of each item is highlighted (and named 'Menor'), and wins by default
  const menor1 = linha(1).getByRole('cell').filter({ hasText: 'Menor' });
  await expect(menor1).toHaveCount(1);
  await expect(menor1.first()).toContainText('R$ 25,00');
  await expect(menor1.first()).toHaveClass(/sticky-grid__cell--best/);
  const menor2 = linha(2).getByRole('cell').filter({ hasText: 'Menor' });
  await expect(menor2.first()).toContainText('R$ 1,05');
  await expect(menor2.first()).toHaveClass(/sticky-grid__cell--best/);
  await expect(linha(1)).toContainText(`${FORNECEDORES.manual.nome}R$ 25,00 · R$ 250,00`);
  // three valid prices for the paper; two for the pens, flagged
  await expect(linha(2).getByRole('rowheader')).toContainText('Menos de 3 preços válidos');
  await expect(linha(1).getByRole('rowheader')).not.toContainText('Menos de 3 preços válidos');
  const vencedores = grade.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Total dos vencedores' }) });
  await expect(vencedores).toContainText('R$ 355,00'); // 250,00 + 105,00
  await axe(page);

  // another winner for item 1: a reason shorter than 20 characters is refused in the dialog
  await linha(1).getByRole('button', { name: 'Escolher outro vencedor para o item 1' }).click();
  const dialogo = page.getByRole('alertdialog');
  await expect(dialogo).toContainText('Escolher outro vencedor: item 1');
  await dialogo.getByRole('radio', { name: new RegExp(`^${FORNECEDORES.planilha.nome}: R\\$ 26,00`) }).check();
  await dialogo.getByLabel('Motivo da escolha').fill('Marca melhor.');
  await dialogo.getByRole('button', { name: 'Escolher vencedor' }).click();
  await expect(dialogo.getByText('Informe o motivo da escolha (ao menos 20 caracteres).')).toBeVisible();
  await expect(dialogo).toBeVisible();
  await dialogo.getByLabel('Motivo da escolha').fill(MOTIVO_VENCEDOR);
  await dialogo.getByRole('button', { name: 'Escolher vencedor' }).click();
  await aviso(page, 'Vencedor do item 1 alterado.');
  await expect(dialogo).toHaveCount(0);
  await expect(linha(1)).toContainText(`${FORNECEDORES.planilha.nome}R$ 26,00 · R$ 260,00`);
  await expect(linha(1)).toContainText(`Escolhido ${MOTIVO_VENCEDOR}`);
  await expect(vencedores).toContainText('R$ 365,00'); // 260,00 + 105,00
  await expect(linha(1).getByRole('button', { name: 'Voltar ao menor preço no item 1' })).toBeVisible();
});

test('at 1366×768 the mapa keeps the item column and the result columns in view while the suppliers scroll inside the grid', async ({ page }) => {
  expect(cotacaoId).not.toBe('');
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInFromHome(page, 'comprador');
  await page.goto(`/cotacao/mapa/${cotacaoId}`);
  const grade = page.getByRole('table', { name: 'Mapa comparativo: 2 itens × 3 fornecedores' });
  await expect(grade).toBeVisible();
  const caixa = page.getByRole('region', { name: /^Mapa comparativo: role a grade/ });
  // the grid's box at the top of the screen (under the app header)
  await caixa.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 80));
  const item = grade.getByRole('columnheader', { name: 'Item', exact: true });
  const resultado = [
    grade.getByRole('columnheader', { name: 'Estimado (unitário)', exact: true }),
    grade.getByRole('columnheader', { name: 'Total estimado', exact: true }),
    grade.getByRole('columnheader', { name: 'Vencedor', exact: true }),
    grade.getByRole('columnheader', { name: 'Ações', exact: true }),
  ];
  const celulaItem = grade.getByRole('rowheader', { name: /^1\. / });
  /** The box's visible area (its scrollbars left out), the page's width and the grid's scroll offset. */
  const medidas = () =>
    caixa.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const left = r.left + el.clientLeft;
      const top = r.top + el.clientTop;
      return {
        left,
        top,
        right: left + el.clientWidth,
        bottom: top + el.clientHeight,
        scrollLeft: el.scrollLeft,
        overflow: el.scrollWidth - el.clientWidth,
        pagina: document.documentElement.scrollWidth,
        largura: window.innerWidth,
        altura: window.innerHeight,
      };
    });
  const visiveis = async (nome: string) => {
    const m = await medidas();
    for (const cabecalho of [item, ...resultado]) {
      const b = (await cabecalho.boundingBox())!;
      const rotulo = `${nome}: ${await cabecalho.textContent()} em ${JSON.stringify(b)}, caixa ${JSON.stringify(m)}`;
      expect(b.x, rotulo).toBeGreaterThanOrEqual(Math.max(0, m.left) - 0.5);
      expect(b.x + b.width, rotulo).toBeLessThanOrEqual(Math.min(m.largura, m.right) + 0.5);
      expect(b.y, rotulo).toBeGreaterThanOrEqual(Math.max(0, m.top) - 0.5);
      expect(b.y + b.height, rotulo).toBeLessThanOrEqual(Math.min(m.altura, m.bottom) + 0.5);
    }
    // the page itself never scrolls sideways
    expect(m.pagina, nome).toBeLessThanOrEqual(m.largura);
    return m;
  };
  const antes = await visiveis('no início');
  // the suppliers (and the statistics) do not fit: the grid scrolls inside its own box
  expect(antes.overflow).toBeGreaterThan(0);
  const x = (await celulaItem.boundingBox())!.x;
  await caixa.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  const depois = await visiveis('rolada até o fim');
  expect(depois.scrollLeft).toBeGreaterThan(0);
  expect((await celulaItem.boundingBox())!.x).toBeCloseTo(x, 0);

  // on a phone only the item column stays: the result columns scroll with the rest, the page does not
  await page.setViewportSize({ width: 360, height: 740 });
  await caixa.evaluate((el) => {
    el.scrollLeft = 0;
  });
  const celular = await medidas();
  expect(celular.pagina).toBeLessThanOrEqual(celular.largura);
  expect((await resultado[0]!.boundingBox())!.x).toBeGreaterThanOrEqual(celular.right);
  const xCelular = (await celulaItem.boundingBox())!.x;
  await caixa.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  expect((await celulaItem.boundingBox())!.x).toBeCloseTo(xCelular, 0);
  await expect(caixa).toHaveAttribute('tabindex', '0');
});

test('fewer than three prices: Concluir is refused until the autoridade competente approves the justification; then the memória de cálculo', async ({
  page,
  browser,
}) => {
  expect(cotacaoId).not.toBe('');
  await signInFromHome(page, 'comprador');
  await page.goto(`/cotacao/mapa/${cotacaoId}`);
  const poucos = page.getByRole('region', { name: 'Itens com menos de três preços válidos' });
  await expect(page.getByText('1 item tem menos de 3 preços válidos')).toBeVisible();
  await expect(poucos).toContainText(`Item 2: ${itens.caneta} (2 preços válidos)`);

  // without a justification, Concluir is refused with the server's reason
  const concluir = async () => {
    await page.getByRole('button', { name: 'Concluir', exact: true }).click();
    const dialogo = page.getByRole('alertdialog');
    await expect(dialogo).toContainText(`Concluir a cotação ${numero}?`);
    await dialogo.getByRole('button', { name: 'Concluir', exact: true }).click();
  };
  await concluir();
  await expect(page.getByText('A cotação não foi concluída')).toBeVisible();
  const recusa = page.getByRole('alert').filter({ hasText: 'A cotação não foi concluída' });
  await expect(recusa).toContainText(`Este item tem menos de três preços válidos: 2. ${itens.caneta}.`);
  await expect(recusa).toContainText('Registre a justificativa e peça a aprovação da autoridade competente antes de concluir.');

  await page.getByRole('textbox', { name: 'Justificativa', exact: true }).fill(JUSTIFICATIVA_POUCOS);
  await page.getByRole('button', { name: 'Salvar justificativa' }).click();
  await aviso(page, 'Justificativa registrada.');
  await expect(page.getByText(/Registrada por Carla Compradora em .*Aguardando a aprovação da autoridade competente\./)).toBeVisible();
  // the comprador does not approve it
  await expect(page.getByRole('button', { name: 'Aprovar justificativa' })).toHaveCount(0);
  await concluir();
  await expect(recusa).toContainText('A justificativa precisa ser aprovada pela autoridade competente antes de concluir.');

  // the autoridade competente (tags 73 and 100) approves it
  const context = await browser.newContext();
  const autoridade = await context.newPage();
  vigiar(autoridade);
  await autoridade.goto('/signin');
  await signIn(autoridade, 'autoridade');
  await expect(autoridade.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
  await autoridade.goto(`/cotacao/mapa/${cotacaoId}`);
  await expect(autoridade.getByText(JUSTIFICATIVA_POUCOS)).toBeVisible();
  await autoridade.getByRole('button', { name: 'Aprovar justificativa' }).click();
  await aviso(autoridade, 'Justificativa aprovada.');
  await expect(autoridade.getByText(/Aprovada por Augusto Autoridade em \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await context.close();

  await page.reload();
  await expect(page.getByText(/Aprovada por Augusto Autoridade em/)).toBeVisible();
  await concluir();
  await aviso(page, `Cotação ${numero} concluída: os preços estimados foram registrados.`);
  await expect(page.getByText('Esta cotação foi concluída: os preços estimados estão congelados e a página é somente de consulta.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Concluir', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Escolher outro vencedor/ })).toHaveCount(0);
  // média saneada of 25, 26 and 27 (none outside mean ± 1 SD): 26,00; of 1,10 and 1,05: 1,075 → 1,08;
  // the estimated unit values went back to the requisição's items
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const requisicao = (await (
    await page.request.get(`/api/requisicoes/requisicoes/${requisicaoId}`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    itens: { valorUnitario: string }[];
  };
  expect(requisicao.itens.map((i) => Number(i.valorUnitario))).toEqual([26, 1.08]);

  // the memória de cálculo, as PDF: the method, the supplier who did not answer, the justification
  const pdf = page.waitForResponse((r) => r.url().endsWith(`/api/cotacoes/cotacoes/${cotacaoId}/memoria.pdf`));
  const popup = page.waitForEvent('popup').catch(() => null);
  await page.getByRole('button', { name: 'Memória de cálculo (PDF)' }).click();
  const response = await pdf;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const bytes = await response.body();
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await (await popup)?.close();
  const texto = (await textoDoPdf(bytes)).replace(/\s+/g, '');
  for (const esperado of [
    'Média saneada',
    FORNECEDORES.silencio.nome,
    'Loja Exemplo de Papelaria',
    MOTIVO_VENCEDOR,
    JUSTIFICATIVA_POUCOS,
    'Augusto Autoridade',
  ]) {
    expect(texto, esperado).toContain(esperado.replace(/\s+/g, ''));
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`the list, the collection and the mapa are axe-clean in ${theme}`, async ({ page }) => {
    expect(cotacaoId).not.toBe('');
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInFromHome(page, 'comprador');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.goto('/cotacao');
    await expect(page.getByRole('heading', { level: 1, name: 'Cotações' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Mapa comparativo da cotação ${numero}` })).toBeVisible();
    await axe(page);
    await page.getByRole('link', { name: `Coleta de preços da cotação ${numero}` }).click();
    await expect(page.getByRole('table', { name: 'Fornecedores convidados' })).toBeVisible();
    await axe(page);
    await page.getByRole('tab', { name: 'Por item' }).click();
    await expect(page.getByRole('table', { name: 'Preços do item 1' })).toBeVisible();
    await axe(page);
    await page.goto(`/cotacao/mapa/${cotacaoId}`);
    await expect(page.getByRole('table', { name: 'Mapa comparativo: 2 itens × 3 fornecedores' })).toBeVisible();
    await axe(page);
  });
}
