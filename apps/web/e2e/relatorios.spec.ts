// Relatórios at /reports (issue 22): the catalogue of the reports the person may run (contributed by
// the plugins), a report's filters kept in the URL, the preview sorted by a column, the PDF read back
// and the XLSX opened; a large report run as a background job (its state, then the file); axe-clean in
// light and dark; 360 px without sideways scroll; a person without the report's tag does not see it.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { signInFromHome, textoDoPdf } from './helpers';

const TITULO = 'Requisições por secretaria, solicitante e período';

test('the catalogue lists the reports by group; a report is filtered, sorted, printed and exported', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Relatórios' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Relatórios' })).toBeVisible();
  for (const grupo of ['Requisições', 'Plano de Contratações Anual', 'Auditoria']) await expect(page.getByRole('region', { name: grupo })).toBeVisible();
  await page.getByRole('link', { name: TITULO }).click();
  await expect(page.getByRole('heading', { level: 1, name: TITULO })).toBeVisible();
  const tabela = page.getByRole('table', { name: TITULO });
  await expect(tabela.getByRole('row').nth(1)).toBeVisible();

  // filters go to the URL; every row then obeys them
  await page.getByLabel('Situação').selectOption({ label: 'Aprovada' });
  await page.getByRole('button', { name: 'Gerar' }).click();
  await expect(page).toHaveURL(/\/reports\/requisicoes\.por-periodo\?situacao=aprovada$/);
  // the preview is fetched again after the URL changes: poll until the rows shown are the new ones
  const situacoes = () => tabela.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.children[6]?.textContent));
  await expect.poll(async () => [...new Set(await situacoes())]).toEqual(['Aprovada']);

  // sorted by value, highest first (two clicks), through the URL
  await tabela.getByRole('button', { name: /Valor/ }).click();
  await expect(page).toHaveURL(/ordem=valor&direcao=asc/);
  await tabela.getByRole('button', { name: /Valor/ }).click();
  await expect(page).toHaveURL(/ordem=valor&direcao=desc/);
  // aria-sort comes from the server's answer: once it says descending, the rows are the sorted ones
  await expect(tabela.getByRole('columnheader', { name: /Valor/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(tabela.locator('tbody tr').first()).toBeVisible();
  const valores = await tabela.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.children[7]?.textContent ?? ''));
  expect(valores.length).toBeGreaterThan(0);
  const numeros = valores.map((v) => Number(v.replace(/[^\d,]/g, '').replace(',', '.')));
  expect(numeros).toEqual([...numeros].sort((a, b) => b - a));
  const totais = await page.getByLabel('Totais').textContent();

  const pdfBaixado = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Baixar PDF' }).click();
  const pdf = await pdfBaixado;
  expect(pdf.suggestedFilename()).toBe('requisicoes-por-secretaria-solicitante-e-periodo.pdf');
  const texto = await textoDoPdf(await readFile((await pdf.path())!));
  expect(texto).toContain(TITULO);
  expect(texto).toContain('Situação Aprovada');
  expect(texto).toContain('Gerado por Administrador do Sistema');
  // the totals row: the items and the value the page showed
  const [, itens, valor] = /Itens (\d+) · Valor (R\$ [\d.,]+)/.exec(totais ?? '') ?? [];
  expect(texto).toContain(`Total ${itens} ${valor}`);
  expect(texto).toMatch(/Página 1 de \d/);

  const xlsxBaixado = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Baixar XLSX' }).click();
  const xlsx = await xlsxBaixado;
  const livro = new ExcelJS.Workbook();
  await livro.xlsx.readFile((await xlsx.path())!);
  const folha = livro.worksheets[0]!;
  expect(folha.getCell('A1').value).toBe(TITULO);
  const cabecalho = folha.getRows(1, folha.rowCount)!.findIndex((r) => r.getCell(1).value === 'Número') + 1;
  expect(cabecalho).toBeGreaterThan(1);
  expect(folha.rowCount - cabecalho).toBe(valores.length + 1); // the rows and the totals row
  expect(folha.getRow(folha.rowCount).getCell(1).value).toBe('Total');
});

test('a large report runs as a background job: queued or in the making, then ready, and its XLSX downloaded', async ({ page }) => {
  // the e2e server makes a report over 30 rows in the background (RELATORIOS_MAX_LINHAS, e2e/serve.mjs): the
  // consumption per centro de custo over 36 months has 36 rows (months without consumption as zero) per centro
  const mes = (d: Date) => `${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
  const hoje = new Date();
  const de = mes(new Date(hoje.getFullYear(), hoje.getMonth() - 35, 1));
  await signInFromHome(page, 'admin');
  await page.goto(`/reports/analise.consumo?de=${encodeURIComponent(de)}&ate=${encodeURIComponent(mes(hoje))}&por=centro`);
  const aviso = page.getByRole('status').filter({ hasText: 'O relatório passa de 30 linhas' });
  await expect(aviso).toBeVisible();
  // the states the page reads (the request's answer, then the list refreshed every 2 s while one runs): queued
  // first, then only forward (a 36-row job may be done before the list is read again; the page's rendering of
  // 'Na fila', 'Gerando 45 %' and its progress bar is relatorios' web test)
  const lidos: Promise<string | undefined>[] = [];
  page.on('response', (res) => {
    if (!/\/api\/relatorios\/analise\.consumo\/arquivos(\?|$)/.test(res.url()) || !res.ok()) return;
    // in the order the answers came (their bodies are read later)
    lidos.push(
      res.json().then(
        (corpo: { estado?: string; items?: { estado: string }[] }) => corpo.estado ?? corpo.items?.[0]?.estado,
        () => undefined,
      ),
    );
  });
  const pedido = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/relatorios/analise.consumo/arquivos'));
  await aviso.getByRole('button', { name: 'Gerar XLSX em segundo plano' }).click();
  expect((await pedido).status()).toBe(202);

  const arquivos = page.getByRole('table', { name: 'Arquivos gerados' });
  const estado = arquivos.locator('tbody tr').first().locator('[data-estado]');
  await expect(estado).toHaveAttribute('data-estado', 'pronto', { timeout: 15_000 });
  await expect(estado).toHaveText(/^Pronto — baixar até \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  const estados = (await Promise.all(lidos)).filter((e, i, todos): e is string => Boolean(e) && e !== todos[i - 1]);
  expect(estados[0]).toBe('na_fila');
  expect(estados.at(-1)).toBe('pronto');
  const ordem = ['na_fila', 'gerando', 'pronto'];
  expect(estados.map((e) => ordem.indexOf(e))).toEqual([...estados.map((e) => ordem.indexOf(e))].sort());
  await expect(arquivos.locator('tbody tr').first()).toContainText(`Mês inicial (mm/aaaa): ${de}`);

  const baixado = page.waitForEvent('download');
  await arquivos
    .getByRole('button', { name: /^Baixar o XLSX pronto pedido em / })
    .first()
    .click();
  const xlsx = await baixado;
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  const livro = new ExcelJS.Workbook();
  await livro.xlsx.readFile((await xlsx.path())!);
  const folha = livro.worksheets[0]!;
  expect(folha.getCell('A1').value).toBe('Consumo por centro de custo e mês');
  const cabecalho = folha.getRows(1, folha.rowCount)!.findIndex((r) => r.getCell(1).value === 'Centro de custo, núcleo ou grupo') + 1;
  expect(cabecalho).toBeGreaterThan(1);
  const linhas = folha.rowCount - cabecalho - 1; // without the header and the totals row
  expect(linhas).toBeGreaterThan(30);
  expect(linhas % 36).toBe(0);
  expect(folha.getRow(folha.rowCount).getCell(1).value).toBe('Total');
});

test('a person without a report tag does not see that report; without /reports the menu has no entry', async ({ page }) => {
  // 'consulta' holds no tag (the demo requisitante's password is changed by identity.spec, in any order)
  await signInFromHome(page, 'consulta');
  await expect(page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Relatórios' })).toHaveCount(0);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the catalogue and a report are axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInFromHome(page, 'admin');
    await page.goto('/reports');
    await expect(page.getByRole('link', { name: TITULO })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.goto('/reports/requisicoes.por-periodo');
    await expect(page.getByRole('table', { name: TITULO }).getByRole('row').nth(1)).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}

test('at 360 px a report does not scroll sideways', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/reports/requisicoes.por-periodo');
  await expect(page.getByRole('table', { name: TITULO }).getByRole('row').nth(1)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
