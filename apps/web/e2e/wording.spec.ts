// What a person reads about what happened is pt-BR, never a code (issue 24): the Logs de Auditoria
// show the rows of every plugin with each change described as the document timelines describe them
// (@app/core's AuditChangeList), and the home page sums them up. Run after the other specs (files run
// in name order, one worker), the Logs hold what the whole run did with every plugin, besides the demo
// data; a plugin added later is held to it without editing this test. Fails on a UUID, a stored code
// ('media_saneada', 'em_coleta') or a field key ('centroCustoId') shown to the person.
import { type Page, expect, test } from '@playwright/test';
import { signInFromHome } from './helpers';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A stored code: lowercase words joined by '_' (an e-mail or a file name has no '_' in the demo). */
const CODIGO = /(?<![\w@./-])[a-z]+(?:_[a-z0-9]+)+(?![\w@.-])/;
/** A field key: a lowercase word followed by a capitalised one ('centroCustoId'), outside addresses. */
const CHAVE = /(?<![\w@./:-])[a-z]+[A-Z][A-Za-z]*(?![\w@.-])/;

/** The lines of `text` that show a person something raw, with the reason. */
function cru(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (UUID.test(line)) out.push(`identificador: ${line}`);
    else if (CODIGO.test(line)) out.push(`código: ${line}`);
    else if (CHAVE.test(line)) out.push(`chave de campo: ${line}`);
  }
  return out;
}

/** Every 'Ver alterações' of the rows loaded, opened at once. */
async function abrirAlteracoes(page: Page) {
  await page.evaluate(() => {
    for (const b of document.querySelectorAll<HTMLButtonElement>('[data-testid="logs-tabela"] button[aria-expanded="false"]')) b.click();
  });
}

test('the Logs de Auditoria and the home page show labels and names, never codes or ids', async ({ page }) => {
  test.setTimeout(120_000);
  await signInFromHome(page, 'admin');
  const inicio = page.getByRole('main');
  await expect(inicio.getByRole('heading', { name: 'Indicadores' })).toBeVisible();
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines, as a person reads them
  expect(cru(await inicio.innerText())).toEqual([]);

  await page.goto('/logs');
  const tabela = page.getByTestId('logs-tabela');
  await expect(tabela.locator('tbody tr[data-log-id]').first()).toBeVisible();
  // up to 8 pages of 50 (the newest rows: what the e2e run did last, then the demo data)
  for (let i = 0; i < 7; i++) {
    const mais = page.getByRole('button', { name: 'Carregar mais' });
    if (!(await mais.isVisible())) break;
    const antes = await tabela.locator('tbody tr[data-log-id]').count();
    await mais.click();
    await expect.poll(() => tabela.locator('tbody tr[data-log-id]').count()).toBeGreaterThan(antes);
  }
  await abrirAlteracoes(page);
  await expect(page.getByRole('button', { name: /^Ver alterações/ })).toHaveCount(0);
  const linhas = await tabela.locator('tbody tr[data-log-id]').count();
  expect(linhas).toBeGreaterThan(50);
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines, as a person reads them
  const texto = await tabela.innerText();
  // the changes are there (a test that reads nothing would pass)
  expect(texto).toContain('Situação:');
  expect(cru(texto)).toEqual([]);
});
