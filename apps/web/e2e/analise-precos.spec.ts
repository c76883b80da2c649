// Análise de Consumo e Preços (issue 22), the prices: the history of a product of the demo's cotações and
// requisições as an ECharts line (SVG, loaded only on this page) with the median and the atypical prices,
// the same prices as a table with links to the documents, the summary and the suppliers compared; the
// product picked in the catalogue picker and kept in the URL; axe-clean in light and dark; 360 px.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { entrarApi, signInFromHome } from './helpers';

type Produto = { id: string; codigo: string; descricao: string };
type Precos = { fornecedores: unknown[]; resumo: { quantidade: number } };

/** The demo's papel sulfite with the most prices (the seeds of cotações and requisições price it), found through the API. */
async function produtoComPrecos(request: APIRequestContext): Promise<Produto & { precos: Precos }> {
  // the admin works in several entidades: in the Prefeitura's, the comprador's (as the browser's sign-in picks it)
  const { headers } = await entrarApi(request, 'admin', (await entrarApi(request, 'comprador')).entidadeId);
  const res = await request.get('/api/analise/produtos', { headers, params: { q: 'papel sulfite', pageSize: '50', ativo: 'todos' } });
  expect(res.status()).toBe(200);
  let melhor: (Produto & { precos: Precos }) | null = null;
  for (const p of ((await res.json()) as { items: Produto[] }).items) {
    const r = await request.get('/api/analise/precos', { headers, params: { produtoId: p.id } });
    expect(r.status()).toBe(200);
    const precos = (await r.json()) as Precos;
    if (!melhor || precos.resumo.quantidade > melhor.precos.resumo.quantidade) melhor = { ...p, precos };
  }
  expect(melhor?.precos.resumo.quantidade ?? 0).toBeGreaterThan(1);
  return melhor!;
}

async function abrir(page: Page, produtoId: string) {
  await page.goto(`/analise-consumo-precos/precos?produtoId=${produtoId}`);
  const card = page.getByRole('region', { name: 'Preço unitário ao longo do tempo' });
  await expect(
    card
      .getByRole('img', { name: /^Gráfico de linhas: preço unitário de / })
      .locator('svg')
      .first(),
  ).toBeVisible();
  return card;
}

test('the product is picked in the catalogue; the price line is drawn as SVG and its table has the same prices', async ({ page, request }) => {
  const produto = await produtoComPrecos(request);
  await signInFromHome(page, 'admin');
  await page.goto('/analise-consumo-precos');
  await page.getByRole('navigation', { name: 'Páginas da análise' }).getByRole('link', { name: 'Preços' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Histórico de preços' })).toBeVisible();
  const combo = page.getByRole('combobox', { name: 'Produto ou serviço' });
  await combo.fill(produto.codigo);
  await page.getByRole('option', { name: new RegExp(`^${produto.codigo} – `) }).click();
  await expect(page).toHaveURL(new RegExp(`/analise-consumo-precos/precos\\?produtoId=${produto.id}$`));

  const card = page.getByRole('region', { name: 'Preço unitário ao longo do tempo' });
  const grafico = card.getByRole('img', { name: /^Gráfico de linhas: preço unitário de / });
  await expect(grafico).toHaveAttribute('tabindex', '0');
  await expect(grafico.locator('svg').first()).toBeVisible();
  // the summary under the chart, and the keyboard: → announces the first price
  await expect(card.getByText(new RegExp(`^Preço unitário de .+ em todo o histórico: ${produto.precos.resumo.quantidade} preços, mediana R\\$`))).toBeVisible();
  await grafico.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText(/^\d{2}\/\d{2}\/\d{4}: R\$\s[\d.]+,\d{2,4}, .+\.$/)).toBeAttached();

  await card.getByRole('button', { name: 'Ver como tabela' }).click();
  const tabela = card.getByRole('table', { name: /^Preços unitários de / });
  await expect(tabela.getByRole('row')).toHaveCount(produto.precos.resumo.quantidade + 1);
  const link = tabela.getByRole('link', { name: /^(Cotação|Requisição) \d+\/\d{4}$/ }).first();
  await expect(link).toHaveAttribute('href', /^\/(cotacao|requisicao)\/edit\/[0-9a-f-]{36}$/);
  await expect(tabela.getByRole('cell', { name: /^R\$\s[\d.]+,\d{2,4}$/ }).first()).toBeVisible();

  const resumo = page.getByRole('region', { name: 'Resumo' });
  await expect(resumo.getByRole('term')).toHaveText(['Preços', 'Mediana', 'Último preço', 'Variação no período', 'Menor e maior', 'Preços atípicos']);
  await expect(resumo.getByRole('definition').first()).toHaveText(String(produto.precos.resumo.quantidade));
  await expect(resumo.getByRole('definition').nth(1)).toHaveText(/^R\$\s[\d.]+,\d{2,4}$/);
  if (produto.precos.fornecedores.length) {
    const fornecedores = page.getByRole('table', { name: /^Preços de cada fornecedor para / });
    await expect(fornecedores.getByRole('row')).toHaveCount(produto.precos.fornecedores.length + 1);
  }
  // nothing of the database's ids on the page
  expect(await page.locator('main').textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the price page is axe-clean in ${theme}`, async ({ page, request }) => {
    const produto = await produtoComPrecos(request);
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInFromHome(page, 'admin');
    const card = await abrir(page, produto.id);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await card.getByRole('button', { name: 'Ver como tabela' }).click();
    await expect(card.getByRole('table')).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}

test('at 360 px the price page does not scroll sideways', async ({ page, request }) => {
  const produto = await produtoComPrecos(request);
  await signInFromHome(page, 'admin');
  await page.setViewportSize({ width: 360, height: 740 });
  await abrir(page, produto.id);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
