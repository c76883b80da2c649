import { expect, test } from '@playwright/test';
import { signInFromHome } from './helpers';

test.describe.configure({ mode: 'serial' });

test('create a grupo, a sub-grupo, a unit and a product through the UI', async ({ page }) => {
  await signInFromHome(page, 'admin');

  await page.goto('/ggrupo');
  await page.getByRole('link', { name: 'Novo grupo' }).click();
  await page.getByRole('textbox', { name: 'Código', exact: true }).fill('E2E1');
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Grupo de teste E2E');
  await page.getByRole('button', { name: 'Salvar' }).click();
  // the saved toast names the record, and the form stays on it
  await expect(page.getByText(/^Grupo .*E2E.* salvo\.$/)).toBeVisible();
  await expect(page).toHaveURL(/\/ggrupo\/edit\//);

  await page.goto('/subgrupo/new');
  await page.getByRole('combobox', { name: 'Grupo', exact: true }).selectOption({ label: 'E2E1 – Grupo de teste E2E' });
  await page.getByRole('textbox', { name: 'Código', exact: true }).fill('E2E1S');
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Sub-grupo de teste E2E');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(/^Sub-grupo .*E2E.* salvo\.$/)).toBeVisible();

  await page.goto('/unidadeprodutos/new');
  await page.getByRole('textbox', { name: 'Sigla', exact: true }).fill('e2eu');
  await page.getByRole('textbox', { name: 'Descrição', exact: true }).fill('Unidade de teste E2E');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(/^Unidade .*E2E.* salva\.$/)).toBeVisible();

  await page.goto('/produtos/new');
  await page.getByRole('textbox', { name: 'Descrição', exact: true }).fill('Produto de teste E2E, caixa com 10');
  await page.getByRole('combobox', { name: 'Material ou serviço', exact: true }).selectOption({ label: 'Material' });
  await page.getByRole('combobox', { name: 'Grupo', exact: true }).selectOption({ label: 'E2E1 – Grupo de teste E2E' });
  await page.getByRole('combobox', { name: 'Sub-grupo', exact: true }).selectOption({ label: 'E2E1S – Sub-grupo de teste E2E' });
  await page.getByRole('combobox', { name: 'Unidade de fornecimento', exact: true }).selectOption({ label: 'E2EU – Unidade de teste E2E' });
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(/^Produto .*Produto de teste E2E.* salvo\.$/)).toBeVisible();

  // The list finds it without accents or case, and the URL keeps the search.
  await page.goto('/produtos?q=PRODUTO%20DE%20TESTE%20e2e');
  await expect(page.getByRole('cell', { name: 'Produto de teste E2E, caixa com 10' })).toBeVisible();
});

test('register a supplier with an alphanumeric CNPJ and see it masked', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto('/fornecedor/new');
  await page.getByRole('textbox', { name: 'CPF ou CNPJ', exact: true }).fill('e2etst0001ab41');
  await page.getByRole('textbox', { name: 'Razão social', exact: true }).fill('Comércio de Teste E2E Ltda');
  await page.getByRole('textbox', { name: 'CEP', exact: true }).fill('13201000');
  await page.getByRole('textbox', { name: 'Logradouro', exact: true }).fill('Rua do Teste');
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill('100');
  await page.getByRole('textbox', { name: 'Bairro', exact: true }).fill('Centro');
  await page.getByRole('textbox', { name: 'Município', exact: true }).fill('Jundiaí');
  await page.getByRole('combobox', { name: 'UF', exact: true }).selectOption('SP');
  await page
    .getByRole('group', { name: /Ramos de atividade/ })
    .getByRole('checkbox')
    .first()
    .check();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(/salvo/i).first()).toBeVisible();

  await page.goto('/fornecedor?q=teste%20e2e');
  await expect(page.getByRole('cell', { name: 'E2.ETS.T00/01AB-41' })).toBeVisible();
});

test('a CSV with one bad row is reported line by line and nothing is imported', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto('/produtos/importar');
  const csv = ['Descrição;Tipo;Grupo;Unidade', 'Caneta de teste importada E2E;Material;E2E1;E2EU', 'Lápis de teste importado E2E;Material;E2E1;NAOEXISTE'].join(
    '\r\n',
  );
  await page.getByLabel('Arquivo da planilha (.xlsx ou .csv)').setInputFiles({
    name: 'produtos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${csv}\r\n`, 'utf8'),
  });
  await page.getByRole('button', { name: 'Validar arquivo' }).click();
  const errors = page.getByRole('table', { name: 'Erros encontrados na planilha' });
  await expect(errors).toBeVisible();
  const row = errors.getByRole('row').filter({ hasText: 'Unidade' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').first()).toHaveText('3');
  await expect(page.getByRole('button', { name: 'Importar' })).toBeDisabled();

  await page.goto('/produtos?q=importad');
  await expect(page.getByText('Caneta de teste importada E2E')).toHaveCount(0);
});

test("the registries are nine 'Cadastros' menu entries of one plugin, each opening its URL", async ({ page }) => {
  await signInFromHome(page, 'admin');
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  const registries: [string, string][] = [
    ['Grupos de Produto ou Serviço', '/ggrupo'],
    ['Sub-Grupos', '/subgrupo'],
    ['Unidade de Produtos', '/unidadeprodutos'],
    ['Tipo de Material', '/tipomaterial'],
    ['Centro de Custos', '/siscentrocusto'],
    ['Núcleo de Consumo', '/gcentro'],
    ['Ramos de Atividade', '/ramoatividade'],
    ['Tipo de Solicitação', '/protiposolicitacao'],
    ['Cargo', '/liccargo'],
  ];
  for (const [label, href] of registries) await expect(menu.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href);
  await menu.getByRole('link', { name: 'Núcleo de Consumo', exact: true }).click();
  await expect(page).toHaveURL(/\/gcentro$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Núcleo de Consumo' })).toBeVisible();
});

test('a user without tag 24 sees no registry in the menu and gets 403 on /ggrupo', async ({ page }) => {
  await signInFromHome(page, 'consulta');
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(menu.getByRole('link', { name: 'Sobre' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Sub-Grupos' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Cargo', exact: true })).toHaveCount(0);
  await page.goto('/ggrupo');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByRole('heading', { name: 'Erro 403' })).toBeVisible();
});
