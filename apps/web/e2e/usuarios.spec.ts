import { expect, test } from '@playwright/test';
import { signInFromHome } from './helpers';

// The user and perfil forms are the resource kit's form: a created record stays open and is named in
// the toast; a save over someone else's change answers 409 'stale' and offers 'Recarregar'.
test('perfil and user forms: created records stay open, named; a stale save offers Recarregar', async ({ page }) => {
  await signInFromHome(page, 'admin');

  await page.goto('/usuarios/perfis/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Novo perfil' })).toBeVisible();
  await page.getByLabel(/^Nome do perfil/).fill('Almoxarife E2E');
  const tags = page.getByRole('group', { name: 'Tags concedidas por este perfil' });
  await tags.locator('input[type=checkbox]:not([disabled])').first().check();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/usuarios\/perfis\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Perfil Almoxarife E2E salvo.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar perfil' })).toBeVisible();

  await page.goto('/usuarios/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Novo usuário' })).toBeVisible();
  await page.getByLabel(/^Nome/).fill('Eva Formulário E2E');
  await page.getByLabel(/^Login/).fill('eva.e2e');
  await page.getByLabel(/^E-mail/).fill('eva.e2e@exemplo.gov.br');
  await page.getByLabel(/^Senha inicial/).fill('uma senha longa de teste e2e');
  // the schema's and the form's own messages before any request
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('O usuário precisa ter um perfil nesta entidade.')).toBeVisible();
  await page.getByLabel(/^Perfil em Prefeitura/).selectOption({ label: 'Almoxarife E2E' });
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/usuarios\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Usuário Eva Formulário E2E salvo.')).toBeVisible();
  await expect(page.getByText('Eva Formulário E2E (eva.e2e)')).toBeVisible();
  const id = page.url().split('/').pop()!;

  // someone else changes the user meanwhile
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const current = (await (await page.request.get(`/api/usuarios/usuarios/${id}`, { headers })).json()) as {
    nome: string;
    login: string;
    email: string;
    version: number;
    entidades: { entidadeId: string; perfilId: string; centrosCusto: string[] }[];
  };
  const put = await page.request.put(`/api/usuarios/usuarios/${id}`, {
    headers,
    data: {
      nome: current.nome,
      login: current.login,
      email: current.email,
      cargo: 'Cargo de outra pessoa',
      ativo: true,
      entidades: current.entidades.map(({ entidadeId, perfilId, centrosCusto }) => ({ entidadeId, perfilId, centrosCusto })),
      version: current.version,
    },
  });
  expect(put.status(), await put.text()).toBe(200);

  await page.getByLabel(/^Cargo/).fill('Almoxarife');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Registro alterado por outra pessoa')).toBeVisible();
  await page.getByRole('button', { name: 'Recarregar' }).click();
  await expect(page.getByLabel(/^Cargo/)).toHaveValue('Cargo de outra pessoa');
  await expect(page.getByText('Registro alterado por outra pessoa')).toHaveCount(0);
  // nothing unsaved after the reload: leaving does not ask
  await page.getByRole('link', { name: /Voltar para Usuários/ }).click();
  await expect(page).toHaveURL(/\/usuarios$/);
  await expect(page.getByRole('cell', { name: 'eva.e2e', exact: true })).toBeVisible();
});
