// Análise de Consumo e Preços (issue 22): the consumption of the demo's approved requisições per centro
// de custo, month by month, as an ECharts chart (SVG, loaded only on this page) and as a table with the
// same numbers; a figure opens the requisições behind it; axe-clean in light and dark; 360 px.
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { signInFromHome } from './helpers';

const hoje = new Date();
const ate = `${hoje.getFullYear()}-${String(hoje.getMonth() + 1).padStart(2, '0')}`;
const de = `${hoje.getFullYear() - 1}-01`;
const URL_CONSUMO = `/analise-consumo-precos?de=${de}&ate=${ate}`;

async function abrir(page: Page) {
  await page.goto(URL_CONSUMO);
  const card = page.getByRole('region', { name: 'Valor por centro de custo, mês a mês' });
  await expect(card).toBeVisible();
  return card;
}

test('the chart is drawn as SVG, its table has the same numbers, and a figure opens its requisições', async ({ page }) => {
  await signInFromHome(page, 'admin');
  const card = await abrir(page);
  const grafico = card.getByRole('img', { name: /^Gráfico de linhas/ });
  await expect(grafico).toHaveAttribute('tabindex', '0');
  await expect(grafico.locator('svg').first()).toBeVisible();
  await card.getByRole('button', { name: 'Ver como tabela' }).click();
  const tabela = card.getByRole('table');
  await expect(tabela).toBeVisible();
  const figura = tabela.getByRole('button', { name: /: ver as requisições de / }).first();
  const rotulo = (await figura.textContent()) ?? '';
  expect(rotulo).toMatch(/^R\$\s[\d.]+,\d{2}$/);
  await figura.click();
  // the requisições behind the figure, adding up to it, each a link to its page
  const lista = page.getByRole('region', { name: /^Requisições: / });
  const link = lista.getByRole('link', { name: /^Requisição \d+\/\d{4}$/ }).first();
  await expect(link).toHaveAttribute('href', /\/requisicao\/edit\/[0-9a-f-]{36}$/);
  await expect(lista.getByRole('row').last()).toContainText(rotulo);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the consumption page is axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInFromHome(page, 'admin');
    const card = await abrir(page);
    await expect(
      card
        .getByRole('img', { name: /^Gráfico de linhas/ })
        .locator('svg')
        .first(),
    ).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await card.getByRole('button', { name: 'Ver como tabela' }).click();
    await expect(card.getByRole('table')).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}

test('at 360 px the consumption page does not scroll sideways', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.setViewportSize({ width: 360, height: 740 });
  const card = await abrir(page);
  await expect(
    card
      .getByRole('img', { name: /^Gráfico de linhas/ })
      .locator('svg')
      .first(),
  ).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
