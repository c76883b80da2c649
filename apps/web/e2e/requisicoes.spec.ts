import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { signIn, signInFromHome } from './helpers';

// Across people, as spec §2 has it: the requester raises a requisição of R$ 12.000,00 (two alçadas:
// chefia, then the ordenador de despesa) and sends it; the chefia approves level 1; the ordenador
// returns it with a reason; the requester edits and sends it again; both approve.
test.describe.configure({ mode: 'serial' });

/** A requester of our own (the demo 'requisitante' gets a new password in identity.spec): Educação (02). */
const ROSA = { login: 'rosa.e2e', nome: 'Rosa Requisitante E2E', senha: 'uma senha longa de teste e2e' };

let url = '';
let numero = '';
let aprovarUrl = '';

async function signInAs(page: Page, login: string, senha = 'demo1234') {
  await page.goto('/signin');
  await signIn(page, login, senha);
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
}

async function confirm(page: Page, button: string, motivo?: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  if (motivo !== undefined) await dialog.getByLabel('Motivo').fill(motivo);
  // approving a requisição with a dispensa alert: the approver acknowledges it (recorded in the timeline)
  const ciente = dialog.getByLabel(/Vi o alerta de limite de dispensa/);
  if (button === 'Aprovar' && (await ciente.count()) > 0) await ciente.check();
  await dialog.getByRole('button', { name: button, exact: true }).click();
}

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInFromHome(page, 'admin');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path: string) => (await (await page.request.get(`/api${path}`, { headers })).json()) as { items: Record<string, string>[] };
  const { entidade } = (await (await page.request.get('/api/session', { headers })).json()) as { entidade: { id: string } };
  const perfil = (await get('/usuarios/perfis?q=Requisitante')).items.find((p) => p.nome === 'Requisitante');
  const educacao = (await get('/requisicoes/centros-custo?q=Secretaria%20Municipal%20de%20Educacao')).items[0];
  const res = await page.request.post('/api/usuarios/usuarios', {
    headers,
    data: {
      nome: ROSA.nome,
      login: ROSA.login,
      email: 'rosa.e2e@exemplo.gov.br',
      senha: ROSA.senha,
      entidades: [{ entidadeId: entidade.id, perfilId: perfil?.id, centrosCusto: [educacao?.id] }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  // the alçadas seeded: level 1 from R$ 0,00 (chefia), level 2 from R$ 10.000,00 (ordenador)
  const alcadas = (await get('/requisicoes/alcadas?sort=nivel')).items;
  expect(alcadas.map((a) => [a.nivel, a.nome, a.valorMinimo])).toEqual([
    [1, 'Chefia', '0.00'],
    [2, 'Ordenador de despesa', '10000.00'],
  ]);
  await page.close();
});

test('the requester raises a requisição of R$ 12.000,00 and sends it for approval', async ({ page }) => {
  await signInAs(page, ROSA.login, ROSA.senha);
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Requisições', exact: true }).click();
  await page.getByRole('link', { name: 'Nova requisição' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nova requisição' })).toBeVisible();
  await expect(page.getByLabel('Centro de custo')).toHaveValue(/[0-9a-f-]{36}/);
  await page.getByLabel('Tipo de solicitação').selectOption({ index: 1 });
  await page.getByLabel('Categoria do objeto').selectOption({ label: 'Compras e outros serviços' });
  await page.getByLabel('Justificativa').fill('Aquisição de material de expediente para as escolas municipais no semestre.');
  await page.getByRole('button', { name: 'Adicionar item' }).click();
  const picker = page.getByRole('combobox', { name: 'Produto ou serviço do item 1' });
  await picker.fill('papel sulfite');
  await page.getByRole('listbox', { name: 'Produto ou serviço do item 1' }).getByRole('option').first().click();
  await page.getByLabel('Quantidade do item 1').fill('400');
  await page.getByLabel('Valor unitário estimado do item 1').fill('30,00');
  await expect(page.getByText('R$ 12.000,00').first()).toBeVisible();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/requisicao\/edit\/[0-9a-f-]{36}$/);
  url = new URL(page.url()).pathname;
  aprovarUrl = url.replace('/edit/', '/aprovar/');
  numero =
    (/(\d+\/\d{4})/.exec(
      (await page
        .getByText(/^Requisição \d+\/\d{4}/)
        .first()
        .textContent()) ?? '',
    ) ?? [])[1] ?? '';
  expect(numero).toMatch(/^\d+\/\d{4}$/);

  await confirm(page, 'Enviar para aprovação');
  await expect(page.getByText(`Requisição ${numero} enviada para aprovação.`)).toBeVisible();
  await expect(page.getByText('Esta requisição está em aprovação: somente leitura.')).toBeVisible();
  // the requester never approves their own requisição: no button on the approval page
  await page.goto(aprovarUrl);
  await expect(page.getByText('Aguardando o nível 1 de 2.', { exact: false })).toBeVisible();
  await expect(page.getByText(/Você não pode aprovar esta requisição agora/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aprovar' })).toHaveCount(0);
});

test('the chefia finds it awaiting her approval (menu count, filter) and approves level 1', async ({ page }) => {
  await signInAs(page, 'chefia');
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(menu.getByRole('link', { name: /^Requisições \(\d+ aguardando minha aprovação\)$/ })).toBeVisible();
  await page.goto('/requisicao?aguardandoMinha=1');
  await page.getByRole('link', { name: `Aprovar requisição ${numero}` }).click();
  await expect(page).toHaveURL(new RegExp(`${aprovarUrl}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Aprovação da requisição ${numero}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Etapas de aprovação' })).toContainText('Nível 2: Ordenador de despesa');
  await confirm(page, 'Aprovar');
  await expect(page.getByText(`Aprovação registrada. Requisição ${numero} segue para o nível 2.`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Etapas de aprovação' })).toContainText('aprovado por Cláudia Chefia');
  // one person does not approve two levels
  await expect(page.getByRole('button', { name: 'Aprovar' })).toHaveCount(0);
});

test('the ordenador returns it with a reason (at least 10 characters)', async ({ page }) => {
  await signInAs(page, 'ordenador');
  await page.goto(aprovarUrl);
  await page.getByRole('button', { name: 'Devolver', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel('Motivo').fill('Curto');
  await dialog.getByRole('button', { name: 'Devolver' }).click();
  await expect(dialog.getByText('Informe o motivo (ao menos 10 caracteres).')).toBeVisible();
  await dialog.getByLabel('Motivo').fill('Reduza a quantidade: há estoque de 100 resmas no almoxarifado.');
  await dialog.getByRole('button', { name: 'Devolver' }).click();
  await expect(page.getByText(`Requisição ${numero} devolvida.`)).toBeVisible();
  await expect(page.getByText('Reduza a quantidade: há estoque de 100 resmas no almoxarifado.').first()).toBeVisible();
});

test('the requester edits the returned requisição and sends it again', async ({ page }) => {
  await signInAs(page, ROSA.login, ROSA.senha);
  await page.goto(url);
  await expect(page.getByText('Reduza a quantidade: há estoque de 100 resmas no almoxarifado.').first()).toBeVisible();
  await page.getByLabel('Quantidade do item 1').fill('350');
  await expect(page.getByText('R$ 10.500,00').first()).toBeVisible();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(/salva\./).first()).toBeVisible();
  await confirm(page, 'Enviar para aprovação');
  await expect(page.getByText(`Requisição ${numero} enviada para aprovação.`)).toBeVisible();
});

test('the chefia and then the ordenador approve it', async ({ page, browser }) => {
  await signInAs(page, 'chefia');
  await page.goto(aprovarUrl);
  await confirm(page, 'Aprovar');
  await expect(page.getByText(`Aprovação registrada. Requisição ${numero} segue para o nível 2.`)).toBeVisible();

  const context = await browser.newContext();
  const other = await context.newPage();
  await signInAs(other, 'ordenador');
  await other.goto(aprovarUrl);
  await confirm(other, 'Aprovar');
  await expect(other.getByText(`Requisição ${numero} aprovada.`)).toBeVisible();
  await expect(other.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(other.getByText('Aprovada').first()).toBeVisible();
  // every step in the timeline
  for (const who of ['Cláudia Chefia', 'Otávio Ordenador', ROSA.nome]) await expect(other.getByText(who).first()).toBeVisible();
  await context.close();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the list, the approval page and the form are axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInAs(page, 'chefia');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.goto('/requisicao');
    await expect(page.getByRole('heading', { level: 1, name: 'Requisições' })).toBeVisible();
    await expect(page.getByText(numero).first()).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.goto(aprovarUrl);
    await expect(page.getByRole('list', { name: 'Etapas de aprovação' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Histórico' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.goto(url);
    await expect(page.getByRole('button', { name: 'Aprovar', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Aprovação', exact: true })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
