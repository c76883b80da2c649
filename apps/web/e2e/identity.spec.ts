import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn, signInFromHome } from './helpers';

test('password recovery through the outbox, single use', async ({ browser, page, request }) => {
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/recoveryPass$/);
  await page.getByLabel('Login ou e-mail').fill('requisitante');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByTestId('recovery-message')).toBeVisible();

  // The administrator, in a browser of their own, reads the e-mail on the 'Caixa de saída' screen.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInFromHome(admin, 'admin');
  await admin.goto('/usuarios');
  await admin.getByRole('link', { name: 'Caixa de saída' }).click();
  await expect(admin).toHaveURL(/\/usuarios\/caixa-de-saida$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Caixa de saída' })).toBeVisible();
  await expect(admin.getByText(/SMTP_URL/)).toBeVisible();
  const newest = admin
    .getByRole('table', { name: /caixa de saída/ })
    .getByRole('row')
    .nth(1);
  await expect(newest.getByRole('cell').nth(1)).toHaveText('requisitante@exemplo.gov.br');
  const open = newest.getByRole('button', { name: /criar nova senha/ });
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  await open.focus();
  await admin.keyboard.press('Enter');
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  const body = admin.locator(`[id="${await open.getAttribute('aria-controls')}"]`);
  await expect(body).toContainText('em até 30 minutos');
  const href = await body.getByRole('link', { name: /recoveryPass\?token=/ }).getAttribute('href');
  expect(href, 'the recovery link on the page').toMatch(/^https?:\/\/\S+\/recoveryPass\?token=[\w-]+$/);
  const link = new URL(href!);
  // the screen, with a message open, is axe-clean in both themes
  expect((await new AxeBuilder({ page: admin }).analyze()).violations).toEqual([]);
  await admin.getByRole('radio', { name: 'Escuro' }).check();
  await expect(admin.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect((await new AxeBuilder({ page: admin }).analyze()).violations).toEqual([]);
  await adminContext.close();

  await page.goto(link.pathname + link.search);
  await page.getByLabel('Nova senha', { exact: true }).fill('uma frase bem longa de senha');
  await page.getByLabel('Confirmar nova senha').fill('uma frase bem longa de senha');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, 'requisitante', 'uma frase bem longa de senha');
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();

  // The link was single-use.
  const reuse = await request.post('/api/auth/reset', {
    data: { token: link.searchParams.get('token'), senha: 'outra frase bem longa' },
  });
  expect(reuse.status()).toBe(400);
});

test('a user without tag 3 sees neither the Usuários menu entry nor the page', async ({ page }) => {
  await signInFromHome(page, 'consulta');
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(menu.getByRole('link', { name: 'Sobre' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Usuários' })).toHaveCount(0);
  await page.goto('/usuarios');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByRole('heading', { name: 'Erro 403' })).toBeVisible();
});

test('switching entidade changes what lists show', async ({ page }) => {
  await signInFromHome(page, 'admin');
  const switcher = page.getByRole('combobox', { name: 'Entidade' });
  const prefeitura = (await switcher.locator('option', { hasText: 'Prefeitura' }).getAttribute('value'))!;
  const camara = (await switcher.locator('option', { hasText: 'Câmara' }).getAttribute('value'))!;

  if ((await switcher.inputValue()) !== prefeitura) {
    await switcher.selectOption(prefeitura);
    await expect(page.getByText('Entidade alterada')).toBeVisible();
  }
  await expect(page.getByTestId('entidade-switcher')).toHaveValue(prefeitura);
  await page.goto('/usuarios');
  await expect(page.getByRole('heading', { level: 1, name: 'Usuários' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'requisitante', exact: true })).toBeVisible();

  await page.getByRole('combobox', { name: 'Entidade' }).selectOption(camara);
  await expect(page.getByTestId('entidade-switcher')).toHaveValue(camara);
  await page.goto('/usuarios');
  await expect(page.getByRole('heading', { level: 1, name: 'Usuários' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'admin', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'requisitante', exact: true })).toHaveCount(0);
});
