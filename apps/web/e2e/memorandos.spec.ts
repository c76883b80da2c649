import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { signIn, signInFromHome, tabTo } from './helpers';

test.describe.configure({ mode: 'serial' });

/** One line of the items grid with the keyboard: add, search the picker, choose, quantity, unit value. */
async function addItem(page: Page, n: number, busca: string, quantidade: string, valor: string) {
  await tabTo(page, 'Adicionar item', 40);
  await page.keyboard.press('Enter');
  const picker = page.getByRole('combobox', { name: `Produto ou serviço do item ${n}` });
  await expect(picker).toBeFocused();
  await page.keyboard.type(busca);
  await expect(
    page
      .getByRole('listbox', { name: `Produto ou serviço do item ${n}` })
      .getByRole('option')
      .first(),
  ).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(picker).toHaveValue(new RegExp(busca.split(' ')[0]!, 'i'));
  await tabTo(page, `Quantidade do item ${n}`);
  await page.keyboard.type(quantidade);
  await tabTo(page, `Valor unitário estimado do item ${n}`);
  await page.keyboard.type(valor);
}

/** Signs in through the form with a password of our own and waits for the home page. */
async function signInAs(page: Page, login: string, senha: string) {
  await page.goto('/signin');
  await signIn(page, login, senha);
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
}

let memorandoUrl = '';
let numero = '';

/**
 * A requisitante of our own, created by the administrator through the API: perfil Requisitante, in
 * the Secretaria Municipal de Educação (the demo 'requisitante' gets a new password in identity.spec).
 */
const RITA = { login: 'rita.e2e', nome: 'Rita Requisitante E2E', senha: 'uma senha longa de teste e2e' };

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInFromHome(page, 'admin');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path: string) => (await (await page.request.get(`/api${path}`, { headers })).json()) as { items: Record<string, string>[] };
  const { entidade } = (await (await page.request.get('/api/session', { headers })).json()) as { entidade: { id: string } };
  const perfil = (await get('/usuarios/perfis?q=Requisitante')).items.find((p) => p.nome === 'Requisitante');
  const educacao = (await get('/memorandos/centros-custo?q=Secretaria%20Municipal%20de%20Educacao')).items[0];
  const res = await page.request.post('/api/usuarios/usuarios', {
    headers,
    data: {
      nome: RITA.nome,
      login: RITA.login,
      email: 'rita.e2e@exemplo.gov.br',
      senha: RITA.senha,
      entidades: [{ entidadeId: entidade.id, perfilId: perfil?.id, centrosCusto: [educacao?.id] }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await page.close();
});

test('the requisitante writes a memorando with three items using the keyboard, and sends it', async ({ page }) => {
  await signInAs(page, RITA.login, RITA.senha);
  await page.goto('/memorando/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Novo memorando' })).toBeVisible();
  await page.getByLabel('Origem (centro de custo)').selectOption({ label: '02 – Secretaria Municipal de Educação' });
  await page.getByLabel('Destino').selectOption({ label: '01.01 – Departamento de Compras e Licitações' });
  await page.getByLabel('Prioridade').selectOption({ label: 'Alta' });
  await page.getByLabel('Assunto').focus();
  await page.keyboard.type('Material de expediente para a escola E2E');
  await page.getByLabel('Justificativa da necessidade').focus();
  await page.keyboard.type('Reposição do material de expediente da secretaria escolar para o semestre letivo.');

  await addItem(page, 1, 'papel sulfite', '10', '27,90');
  await addItem(page, 2, 'caneta esferografica azul', '50', '1,15');
  await addItem(page, 3, 'grampeador', '5', '32,50');
  // 279,00 + 57,50 + 162,50, live
  await expect(page.getByText('R$ 499,00').first()).toBeVisible();

  await tabTo(page, 'Salvar', 40);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/memorando\/edit\/[0-9a-f-]{36}$/);
  memorandoUrl = new URL(page.url()).pathname;
  const heading = page.getByRole('heading', { level: 1 });
  await expect(page.getByText(/^Memorando \d+\/\d{4}/).first()).toBeVisible();
  numero =
    (/(\d+\/\d{4})/.exec(
      (await page
        .getByText(/^Memorando \d+\/\d{4}/)
        .first()
        .textContent()) ?? '',
    ) ?? [])[1] ?? '';
  expect(numero).toMatch(/^\d+\/\d{4}$/);
  await expect(heading).toBeVisible();

  await page.getByRole('button', { name: 'Enviar', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Enviar memorando ${numero}?`);
  await dialog.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText(`Memorando ${numero} enviado.`)).toBeVisible();
  await expect(page.getByText('Este memorando está enviado: somente leitura.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enviar', exact: true })).toHaveCount(0);
});

test('the destination (Compras e Licitações) accepts it, prints it as a PDF and duplicates it', async ({ page }) => {
  expect(memorandoUrl).not.toBe('');
  await signInFromHome(page, 'comprador');
  await page.goto(memorandoUrl);
  await page.getByRole('button', { name: 'Aceitar' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: 'Aceitar' }).click();
  await expect(page.getByText(`Memorando ${numero} aceito.`)).toBeVisible();
  // the timeline tells who sent and who accepted
  await expect(page.getByText(RITA.nome).first()).toBeVisible();
  await expect(page.getByText('Carla Compradora').first()).toBeVisible();

  const pdf = page.waitForResponse((r) => /\/api\/memorandos\/memorandos\/[0-9a-f-]+\.pdf$/.test(r.url()));
  const popup = page.waitForEvent('popup').catch(() => null);
  await page.getByRole('button', { name: 'Imprimir (PDF)' }).click();
  const response = await pdf;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await (await popup)?.close();

  await page.getByRole('button', { name: 'Duplicar' }).click();
  await expect(page.getByText(new RegExp(`^Memorando \\d+/\\d{4} criado a partir de ${numero}\\.$`))).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`${memorandoUrl}$`));
  await expect(page.getByLabel('Assunto')).toHaveValue('Material de expediente para a escola E2E');
  await expect(page.getByRole('button', { name: 'Enviar', exact: true })).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the list and a memorando are axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInAs(page, RITA.login, RITA.senha);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.goto('/memorando');
    await expect(page.getByRole('cell', { name: 'Material de expediente para a escola E2E' }).first()).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.goto(memorandoUrl || '/memorando/new');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Histórico' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
