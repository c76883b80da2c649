import { type APIRequestContext, expect, test } from '@playwright/test';
import { signIn, signInFromHome } from './helpers';

/** Signs in through the API as admin in the Prefeitura and returns the bearer header. */
async function adminApi(request: APIRequestContext) {
  const first = await (await request.post('/api/auth/signin', { data: { login: 'admin', senha: 'demo1234' } })).json();
  const prefeitura = first.entidades.find((e: { nome: string }) => e.nome.startsWith('Prefeitura'));
  const res = await request.post('/api/auth/signin', {
    data: { login: 'admin', senha: 'demo1234', entidadeId: prefeitura.id },
  });
  expect(res.status()).toBe(200);
  return { Authorization: `Bearer ${(await res.json()).token}` };
}

test('password recovery through the outbox, single use', async ({ page, request }) => {
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/recoveryPass$/);
  await page.getByLabel('Login ou e-mail').fill('requisitante');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByTestId('recovery-message')).toBeVisible();

  const headers = await adminApi(request);
  const outbox = await (await request.get('/api/auth/outbox', { headers })).json();
  const mail = outbox.items.find((m: { body: string }) => m.body.includes('recoveryPass?token='));
  expect(mail, 'a recovery e-mail in the outbox').toBeTruthy();
  const link = new URL(mail.body.match(/https?:\/\/\S+recoveryPass\?token=[\w-]+/)[0]);

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
