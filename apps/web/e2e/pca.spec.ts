// The Plano de Contratações Anual as the setor de contratações and the autoridade competente use it
// (issue 20): two areas' demands (DFD) accepted for next year; the setor creates a plan and consolidates
// them with the keyboard only; groups the items into a contratação planejada (the calendar follows);
// the checks before approval stop the plan at an item the PNCP would refuse, the product is fixed in
// the catalogue through the plan's link, and the plan goes; the autoridade approves it (the setor, who
// consolidated it, cannot); the PDF is read back; the page is axe-clean in light and dark and fits 360 px.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { entrarApi, signInFromHome, tabTo, textoDoPdf } from './helpers';

test.describe.configure({ mode: 'serial' });

const ANO_PCA = new Date().getFullYear() + 1;
const UNIDADE = '2';
let planoUrl = '';

// ---- no page error and no 5xx on any page of these tests
const problemas: string[] = [];
test.beforeEach(({ page }) => {
  page.on('pageerror', (error) => problemas.push(`erro na página: ${error.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) problemas.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
});
test.afterEach(() => expect(problemas.splice(0)).toEqual([]));

async function agir(page: Page, botao: string) {
  await page.getByRole('button', { name: botao, exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: botao }).click();
  await expect(dialog).toHaveCount(0);
}

/** An accepted DFD for next year's plan: written and sent by the administrator, accepted by the comprador (Compras e Licitações). */
async function dfd(request: APIRequestContext, origem: string, assunto: string, itens: { produtoId: string; quantidade: string; valorUnitario: string }[]) {
  const comprador = await entrarApi(request, 'comprador');
  const admin = await entrarApi(request, 'admin', comprador.entidadeId);
  const ok = async (res: Awaited<ReturnType<APIRequestContext['post']>>, status = 200) => {
    expect(res.status(), await res.text()).toBe(status);
    return (await res.json()) as { id: string; version: number; items: { id: string; codigo: string }[] };
  };
  const centros = await ok(await request.get('/api/memorandos/centros-custo?pageSize=100', { headers: admin.headers }));
  const centro = (codigo: string) => centros.items.find((c) => c.codigo === codigo)!.id;
  let m = await ok(
    await request.post('/api/memorandos/memorandos', {
      headers: admin.headers,
      data: {
        origemId: centro(origem),
        destinoId: centro('01.01'),
        assunto,
        justificativa: 'Demanda do próximo exercício para o Plano de Contratações Anual.',
        prioridade: 'media',
        dataDesejada: `${ANO_PCA}-03-15`,
        anoPca: ANO_PCA,
        itens,
      },
    }),
    201,
  );
  m = await ok(await request.post(`/api/memorandos/memorandos/${m.id}/enviar`, { headers: admin.headers, data: { version: m.version } }));
  await ok(await request.post(`/api/memorandos/memorandos/${m.id}/aceitar`, { headers: comprador.headers, data: { version: m.version } }));
}

test.beforeAll(async ({ request }) => {
  // the administrator works in several entidades: the Prefeitura's, as the comprador's
  const admin = await entrarApi(request, 'admin', (await entrarApi(request, 'comprador')).entidadeId);
  const primeiro = async (path: string) =>
    ((await (await request.get(`/api${path}`, { headers: admin.headers })).json()) as { items: { id: string }[] }).items[0]!.id;
  const caneta = await primeiro('/produtos/produtos?q=caneta%20esferografica');
  const detergente = await primeiro('/produtos/produtos?q=detergente');
  // a product with a CATMAT code and no CNBS classe yet: the PNCP would refuse its plan item
  const res = await request.post('/api/produtos/produtos', {
    headers: admin.headers,
    data: {
      descricao: 'Envelope pardo A4 E2E',
      tipo: 'material',
      grupoId: await primeiro('/registros/grupos?q=Expediente'),
      unidadeId: await primeiro('/registros/unidades?q=UN'),
      codigoCatalogo: '461997',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const envelope = ((await res.json()) as { id: string }).id;
  await dfd(request, '02', 'Material de expediente das escolas E2E', [
    { produtoId: caneta, quantidade: '100', valorUnitario: '1.50' },
    { produtoId: envelope, quantidade: '200', valorUnitario: '0.80' },
  ]);
  await dfd(request, '03', 'Material das unidades de saúde E2E', [
    { produtoId: caneta, quantidade: '50', valorUnitario: '1.50' },
    { produtoId: detergente, quantidade: '30', valorUnitario: '4.20' },
  ]);
});

test('the setor creates the plan and consolidates both areas’ DFDs with the keyboard only', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto('/elabora-pca/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Novo plano' })).toBeVisible();
  await expect(page.getByLabel('Ano do plano')).toHaveValue(String(ANO_PCA));
  await tabTo(page, /^Código da unidade no PNCP/, 60);
  await page.keyboard.type(UNIDADE);
  await tabTo(page, 'Salvar', 20);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/elabora-pca\/edit\/[0-9a-f-]{36}$/);
  planoUrl = new URL(page.url()).pathname;

  const area = page.getByRole('region', { name: `Consolidação das demandas (DFD de ${ANO_PCA})` });
  await expect(area.getByRole('checkbox', { name: /Material de expediente das escolas E2E/ })).toBeVisible();
  await tabTo(page, /^Buscar DFD/, 120);
  await page.keyboard.type('E2E');
  await expect(area.getByRole('checkbox')).toHaveCount(2);
  // past the Classe/Grupo filter and 'Marcar os 2 encontrados' / 'Desmarcar…' to the first DFD, checked one by one
  await tabTo(page, /^Memorando .* – Material de expediente das escolas E2E/, 5);
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await tabTo(page, 'Consolidar 2 memorandos', 5);
  await page.keyboard.press('Enter');

  // caneta of both areas → one item (150), the envelope and the detergent apart
  const itens = page.getByRole('region', { name: /^Itens do plano \(3\)/ });
  await expect(itens).toBeVisible();
  const caneta = itens.getByRole('row').filter({ hasText: 'Caneta esferográfica' });
  await expect(caneta).toContainText('150');
  await expect(caneta).toContainText('R$ 225,00');
  await expect(caneta).toContainText('Secretaria Municipal de Educação; Secretaria Municipal de Saúde');
  // the drill-down: the caneta's two DFD lines
  await caneta.getByRole('button', { name: /^2 DFD/ }).click();
  await expect(itens.getByRole('list', { name: /^DFDs do item/ }).getByRole('listitem')).toHaveCount(2);
});

test('an item no area asked for is added by hand with its justification', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto(planoUrl);
  const card = page.getByRole('region', { name: 'Itens incluídos sem DFD (0)' });
  await card.getByRole('button', { name: 'Incluir item sem DFD' }).click();
  const form = card.getByRole('form', { name: 'Incluir item sem DFD' });
  // without a justification: refused, nothing lost
  await form.getByRole('combobox', { name: 'Produto ou serviço' }).fill('grampeador');
  await page.getByRole('listbox', { name: 'Produto ou serviço' }).getByRole('option').first().click();
  await form.getByLabel('Quantidade').fill('4');
  await form.getByLabel('Valor unitário estimado').fill('32,50');
  await form.getByLabel('Data desejada').fill(`${ANO_PCA}-02-10`);
  await form.getByRole('button', { name: 'Incluir no plano' }).click();
  await expect(form.getByText('Justifique a inclusão sem DFD (ao menos 10 caracteres).')).toBeVisible();
  await form.getByLabel('Justificativa').fill('Reposição do almoxarifado central, que atende todas as secretarias.');
  await form.getByRole('button', { name: 'Incluir no plano' }).click();
  const tabela = page.getByRole('table', { name: 'Itens incluídos pelo setor de contratações, com a justificativa' });
  await expect(tabela.getByRole('row').nth(1)).toContainText('Reposição do almoxarifado central');
  // consolidated into the plan at once, with the setor as its requesting unit
  const itens = page.getByRole('region', { name: /^Itens do plano \(4\)/ });
  const grampeador = itens.getByRole('row').filter({ hasText: /Grampeador/i });
  await expect(grampeador).toContainText('Departamento de Compras e Licitações');
  await expect(grampeador.getByRole('button', { name: /^0 DFD \+ 1 sem DFD/ })).toBeVisible();
});

test('a contratação planejada groups the material items; the calendar shows its months', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto(planoUrl);
  const card = page.getByRole('region', { name: 'Contratações planejadas (0)' });
  await card.getByRole('button', { name: 'Nova contratação' }).click();
  const form = card.getByRole('form', { name: 'Nova contratação' });
  await form.getByLabel('Título').fill('Material de consumo das secretarias');
  await form.getByLabel('Prioridade').selectOption({ label: 'Alta' });
  await form.getByLabel('Início do processo').fill(`${ANO_PCA - 1}-11-03`);
  await form.getByLabel('Conclusão do processo').fill(`${ANO_PCA}-01-29`);
  for (const item of await form.getByRole('checkbox').all()) await item.check();
  await form.getByRole('button', { name: 'Salvar contratação' }).click();

  const tabela = page.getByRole('region', { name: 'Contratações planejadas (1)' }).getByRole('table', { name: 'Contratações planejadas' });
  await expect(tabela.getByRole('row').nth(1)).toContainText('Material de consumo das secretarias');
  await expect(tabela.getByRole('row').nth(1)).toContainText(`29/01/${ANO_PCA}`);
  const calendario = page.getByRole('table', { name: 'Calendário por mês' });
  await expect(calendario.getByRole('rowheader')).toHaveText([`novembro de ${ANO_PCA - 1}`, `dezembro de ${ANO_PCA - 1}`, `janeiro de ${ANO_PCA}`]);
});

test('the checks stop the plan at the envelope without CNBS classe; fixed in the catalogue through the link, it is sent', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto(planoUrl);
  const pendencias = page.getByRole('list', { name: 'Pendências para o PNCP' });
  await expect(pendencias).toContainText('Envelope pardo A4 E2E');
  await page.getByRole('button', { name: 'Enviar para aprovação', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: 'Enviar para aprovação' }).click();
  await expect(
    page.getByText(/O plano não pode ser enviado para aprovação: 1 item sem o que o PNCP exige — item \d+ \(Envelope pardo A4 E2E\)/).first(),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  await pendencias.getByRole('link', { name: 'Produto com código CATMAT/CATSER sem a classe ou o grupo do CNBS' }).click();
  await expect(page).toHaveURL(/\/produtos\/edit\/[0-9a-f-]{36}$/);
  await page.getByLabel('Classe ou grupo do CNBS: código').fill('7530');
  await page.getByLabel('Classe ou grupo do CNBS: nome').fill('Artigos de papelaria');
  await page.getByRole('button', { name: 'Salvar', exact: true }).click();
  await expect(page.getByText(/salvo/i).first()).toBeVisible();

  await page.goto(planoUrl);
  await agir(page, 'Enviar para aprovação');
  await expect(page.getByText(/Plano de Contratações Anual \d+\/\d{4} · Em aprovação/)).toBeVisible();
  // the page read the plan again after the transition: its items are still there
  await expect(page.getByRole('region', { name: /^Itens do plano \(4\)/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pendências para o PNCP' })).toHaveCount(0);
  // who consolidated it is not offered the approval
  await expect(page.getByRole('button', { name: 'Aprovar', exact: true })).toHaveCount(0);
});

test('the autoridade competente refuses one item with its reason and approves; the PDF carries the items, the refusal, the contratação and the calendar', async ({
  page,
  request,
}) => {
  await signInFromHome(page, 'autoridade');
  await page.goto(planoUrl);
  // one item refused with its reason: out of the total, on the record
  const itens = page.getByRole('region', { name: /^Itens do plano \(4\)/ });
  const detergente = itens.getByRole('row').filter({ hasText: 'Detergente' });
  await detergente.getByRole('button', { name: /^Recusar o item/ }).click();
  const dialogo = page.getByRole('dialog').or(page.getByRole('alertdialog'));
  await dialogo.getByLabel('Motivo da recusa').fill('A Saúde recebe detergente pela ata de registro de preços vigente.');
  await dialogo.getByRole('button', { name: 'Recusar item' }).click();
  await expect(detergente).toContainText('Recusado por');
  await expect(page.getByRole('region', { name: /^Itens do plano \(4\) – R\$ 515,00$/ })).toBeVisible();
  await agir(page, 'Aprovar');
  await expect(page.getByText(/Plano de Contratações Anual \d+\/\d{4} · Aprovado/)).toBeVisible();

  const admin = await entrarApi(request, 'admin', (await entrarApi(request, 'autoridade')).entidadeId);
  const pdf = await request.get(`/api/pca/planos/${planoUrl.split('/').at(-1)}.pdf`, { headers: admin.headers });
  expect(pdf.status()).toBe(200);
  const texto = await textoDoPdf(await pdf.body());
  for (const esperado of [
    `Plano de Contratações Anual de ${ANO_PCA}`,
    'Envelope pardo A4 E2E',
    'Artigos de papelaria',
    'Contratações planejadas',
    'Material de consumo das secretarias',
    'Calendário de contratações por mês',
    `janeiro de ${ANO_PCA}`,
    'Secretaria Municipal de Saúde',
    'Itens incluídos sem DFD e suas justificativas',
    'Reposição do almoxarifado central, que atende todas as secretarias.',
    'A Saúde recebe detergente pela ata de registro de preços vigente.',
  ]) {
    expect(texto, esperado).toContain(esperado);
  }
});

test('the approved plan is revised: outside the windows the justification is required; version 2 shows what changed', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto(planoUrl);
  await page.getByRole('button', { name: 'Revisar', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  // today is past 15/11 of the year before the plan's, and the entidade recorded no LOA date for the plan's year: a justification is due
  await expect(dialog.getByText(/A publicação da LOA de \d{4} ainda não foi registrada/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Revisar' }).click();
  await expect(
    dialog.getByText(/Fora dos períodos de revisão \(15\/09 a 15\/11\/\d{4} e 15 dias após a publicação da LOA de \d{4}, ainda não registrada\)/),
  ).toBeVisible();
  await dialog.getByLabel('Justificativa da revisão').fill('Inclusão da demanda de material de limpeza da Saúde, recusada por engano.');
  await dialog.getByRole('button', { name: 'Revisar' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/Plano de Contratações Anual \d+\/\d{4} · Em revisão/)).toBeVisible();
  const revisao = page.getByRole('region', { name: 'Revisão: versão 2 (alterações desde a versão 1)' });
  await expect(revisao).toContainText('Inclusão da demanda de material de limpeza da Saúde');
  await expect(revisao).toContainText('Nenhum item mudou até agora.');
});

for (const theme of ['light', 'dark'] as const) {
  test(`the plan page is axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInFromHome(page, 'admin');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.goto(planoUrl);
    await expect(page.getByRole('table', { name: 'Calendário por mês' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}

test('at 360 px the plan page does not scroll sideways', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(planoUrl);
  await expect(page.getByRole('table', { name: 'Calendário por mês' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
