// The demo PCA goes to the PNCP (a fake that behaves like the real one, started by serve.mjs): the
// administrator configures the entidade's PNCP user, sends the plan for approval, the autoridade
// competente approves it, the setor publishes it; /pncp shows the publication under way and then its
// control number. A PNCP that refuses to log in leaves the publication in error; 'Tentar novamente'
// finishes it. The page is axe-clean in light and dark. In a cotação, "Buscar no PNCP" finds a homologated
// price of a similar contratação and includes it as a price of source II with its evidence.
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { signInFromHome, state } from './helpers';

test.describe.configure({ mode: 'serial' });

const fault = (f: Record<string, unknown>) => fetch(`${state().pncpControl}/fault`, { method: 'POST', body: JSON.stringify(f) });

/** Opens the demo plan (the first of the list) and answers its id. */
async function abrirPlano(page: Page): Promise<void> {
  await page.goto('/elabora-pca');
  await page
    .getByRole('link', { name: /^Editar 1\/\d{4}$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/elabora-pca\/edit\/[0-9a-f-]{36}$/);
}

async function agir(page: Page, botao: string) {
  await page.getByRole('button', { name: botao, exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: botao }).click();
  await expect(dialog).toHaveCount(0);
}

test('the PNCP user is configured; the password is never shown back', async ({ page }) => {
  await signInFromHome(page, 'admin');
  await page.goto('/pncp');
  await page.getByRole('tab', { name: 'Configuração' }).click();
  await expect(page.getByText('Ainda não configurado: sem ele, nenhum plano é publicado no PNCP.')).toBeVisible();
  await page.getByLabel('Login').fill('compras-treina');
  await page.getByRole('textbox', { name: 'Senha', exact: true }).fill('Senha-Forte-Treina-2026');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Usuário do PNCP salvo.')).toBeVisible();
  await expect(page.getByText(/^Configurado por Administrador do Sistema em \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Senha', exact: true })).toHaveValue('');
});

test('the demo plan is sent, approved by the autoridade competente and published: live progress, then the control number', async ({ browser }) => {
  test.setTimeout(90_000);
  const setor = await browser.newPage();
  await signInFromHome(setor, 'admin');
  await abrirPlano(setor);
  await agir(setor, 'Enviar para aprovação');

  const autoridade = await browser.newPage();
  await signInFromHome(autoridade, 'autoridade');
  await autoridade.goto(setor.url());
  await agir(autoridade, 'Aprovar');

  // the PNCP refuses the first login (as if the password were wrong): the publication ends in error
  await fault({ route: 'login', kind: '401', times: 1 });
  await setor.reload();
  await agir(setor, 'Publicar');
  const planoUrl = setor.url();
  await setor.goto('/pncp');
  const linha = setor.getByRole('row').filter({ hasText: 'plano de' });
  await expect(linha.first()).toContainText('Publicar o plano');
  await expect(linha.first()).toContainText('Erro: não enviada', { timeout: 30_000 });
  await expect(setor.getByRole('note').first()).toContainText('PNCP');

  // 'Tentar novamente': the login works now, the plan reaches the PNCP
  await setor
    .getByRole('button', { name: /^Tentar novamente/ })
    .first()
    .click();
  await expect(setor.getByText(/de volta à fila\.$/)).toBeVisible();
  await expect(linha.first()).toContainText('Concluída em', { timeout: 30_000 });
  await expect(linha.first().getByRole('link', { name: /^46358021000184-0-\d{6}\/\d{4}$/ })).toBeVisible();
  // the plan says so too, with the portal's link
  await setor.goto(planoUrl);
  await expect(setor.getByText(/^Publicado no PNCP: 46358021000184-0-\d{6}\/\d{4}$/)).toBeVisible();
  await expect(setor.getByRole('link', { name: 'Ver no portal do PNCP' })).toBeVisible();
  // deleting it there (with the PNCP's justification) is offered on the plan: a published plan is not cancelled locally
  await expect(setor.getByRole('button', { name: 'Excluir do PNCP' })).toBeVisible();
  // and each item, in the column PNCP
  const itens = setor.getByRole('table', { name: 'Itens consolidados' });
  await expect(itens.getByRole('columnheader', { name: 'PNCP' })).toBeVisible();
  await expect(itens.getByRole('row').nth(1)).toContainText('Publicado no PNCP (item 1)');
});

test('a cotação em coleta: "Buscar no PNCP" by description, one result included as a price of source II with its evidence', async ({ page }) => {
  const hoje = new Date();
  const diasAtras = (n: number) => new Date(hoje.getTime() - n * 86_400_000).toISOString().slice(0, 10);
  await fetch(`${state().pncpControl}/contratacao`, {
    method: 'POST',
    body: JSON.stringify({
      orgao: { cnpj: '11222333000181', nome: 'Prefeitura Municipal de Exemplo', uf: 'MG', municipio: 'Exemplo' },
      ano: hoje.getFullYear(),
      sequencial: 41,
      dataPublicacao: diasAtras(40),
      itens: [
        {
          numeroItem: 1,
          descricao: 'Material de teste e2e pesquisado no PNCP',
          unidadeMedida: 'Unidade',
          quantidade: '100',
          resultados: [
            {
              valorUnitarioHomologado: '12.3456',
              quantidadeHomologada: '100',
              niFornecedor: '12345678000190',
              nomeRazaoSocialFornecedor: 'Fornecedor do Exemplo Ltda',
              dataResultado: diasAtras(20),
            },
          ],
        },
      ],
    }),
  });
  await signInFromHome(page, 'comprador');
  await page.goto('/cotacao');
  await page
    .getByRole('row')
    .filter({ hasText: 'Em coleta' })
    .first()
    .getByRole('link', { name: /^Coleta de preços da cotação/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /^Coleta de preços · cotação \d+\/\d{4}$/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Por item' }).click();
  const busca = page.getByRole('form', { name: /^Buscar no PNCP: / });
  await busca.getByLabel('Código do catálogo (CATMAT/CATSER)').fill('');
  await busca.getByLabel('Descrição', { exact: true }).fill('teste e2e pesquisado');
  await busca.getByRole('button', { name: 'Buscar no PNCP' }).click();
  const resultados = page.getByRole('table', { name: 'Preços encontrados em PNCP' });
  const linha = resultados.getByRole('row').filter({ hasText: 'Prefeitura Municipal de Exemplo' });
  await expect(linha).toContainText('R$ 12,3456');
  await linha.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Incluir 1 preço' }).click();
  await expect(page.getByText('1 preço de PNCP incluído.')).toBeVisible();
  await expect(linha).toContainText('Incluído');
  const preco = page
    .getByRole('table', { name: /^Preços do item / })
    .getByRole('row')
    .filter({ hasText: 'PNCP, contratação 11222333000181-1-000041' });
  await expect(preco).toContainText('R$ 12,3456');
  await expect(preco.getByRole('button', { name: /^Baixar a evidência pncp-11222333000181-1-000041/ })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`/pncp is axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await signInFromHome(page, 'admin');
    await page.goto('/pncp');
    await expect(page.getByRole('heading', { level: 1, name: 'Publicações no PNCP' })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
    await page.getByRole('tab', { name: 'Configuração' }).click();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
