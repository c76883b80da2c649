import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { fakeToken, signIn, signInFromHome, state } from './helpers';

test('a signed-out visitor is sent to sign-in and returns to the remembered path', async ({ page }) => {
  await page.goto('/about');
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, 'admin');
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sobre' })).toBeVisible();
  await expect(page).toHaveTitle(/Sobre/);
});

// The first page (issues 22 and 23: ≤ 1.5× a bare React page, measured by `pnpm bench`) runs on React,
// jotai, wouter, ky and the shell. The libraries of later pages must not reach it: zod (validation),
// TanStack Query (data), Radix (dialogs) and ECharts (charts), each found by a text its code keeps
// when minified. Holds every plugin manifest (apps/web/src/plugins.ts) to importing nothing heavy.
test('the sign-in page loads none of the libraries of later pages', async ({ page }) => {
  const scripts: Promise<{ url: string; body: string }>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.push(res.text().then((body) => ({ url: res.url(), body })));
  });
  await page.goto('/signin', { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  const loaded = await Promise.all(scripts);
  expect(loaded.length).toBeGreaterThan(0);
  const signatures = { zod: '_zod', 'TanStack Query': 'No QueryClient set', Radix: 'DialogContent', ECharts: 'registerPreprocessor' };
  const found = Object.entries(signatures).flatMap(([library, text]) =>
    loaded.filter((s) => s.body.includes(text)).map((s) => `${library} em ${new URL(s.url).pathname}`),
  );
  expect(found).toEqual([]);
});

test('wrong password shows the pt-BR message and stays on sign-in', async ({ page }) => {
  await page.goto('/signin');
  await signIn(page, 'admin', 'senha-errada');
  await expect(page.getByText('Login ou senha inválidos.')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
});

test('an expired token signs the user out and remembers where they were', async ({ page }) => {
  await page.goto('/signin');
  const exp = Math.floor(Date.now() / 1000) - 60;
  await page.evaluate((t) => localStorage.setItem('token', t), fakeToken({ sub: '1', ent: '1', sid: 'x', exp }));
  await page.goto('/about');
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, 'admin');
  await expect(page).toHaveURL(/\/about$/);
});

test('an undecodable token goes to sign-in', async ({ page }) => {
  await page.goto('/signin');
  await page.evaluate(() => localStorage.setItem('token', 'isto-não-é-um-jwt'));
  await page.goto('/about');
  await expect(page).toHaveURL(/\/signin$/);
});

test('unknown path shows Erro 404 inside the layout', async ({ page }) => {
  await signInFromHome(page);
  await page.goto('/nada-por-aqui');
  await expect(page.getByRole('heading', { name: 'Erro 404' })).toBeVisible();
  await expect(page).toHaveTitle(/Erro 404/);
});

test('a user without the tag is redirected to Erro 403', async ({ page }) => {
  await signInFromHome(page, 'consulta');
  await page.goto('/about/sistema');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByRole('heading', { name: 'Erro 403' })).toBeVisible();
});

test('theme persists across reloads without a flash', async ({ page }) => {
  await signInFromHome(page);
  await page.getByRole('radio', { name: 'Escuro' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // Record the theme the very first time the document is parsed, before the app's bundle runs.
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (!(window as { __firstTheme?: string }).__firstTheme)
        (window as { __firstTheme?: string }).__firstTheme = document.documentElement.dataset.theme ?? 'none';
    });
  });
  await page.reload();
  expect(await page.evaluate(() => (window as { __firstTheme?: string }).__firstTheme)).toBe('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('radio', { name: 'Claro' }).check();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('render error shows the error screen; the log is copied with a toast', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInFromHome(page);
  await page.goto('/__boom');
  await expect(page.getByRole('heading', { name: 'Que deselegante' })).toBeVisible();
  await expect(page.getByText('(11) 4002-8922')).toBeVisible();
  await page.getByText('Detalhes técnicos').click();
  await page.getByRole('button', { name: 'Copiar log' }).click();
  await expect(page.getByText('Log copiado para a área de transferência')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.route).toBe('/__boom');
  expect(copied.error).toBeTruthy();
  await page.getByRole('button', { name: 'Limpar aplicação e tentar novamente' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('a new build on the server shows the update notice', async ({ page }) => {
  await page.addInitScript(() => {
    (window as { __COMPRAS_VERSION_POLL_MS__?: number }).__COMPRAS_VERSION_POLL_MS__ = 500;
  });
  await signInFromHome(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Ship a "new build": the server's build id is the hash of the SPA's index.html.
  appendFileSync(join(state().webDist, 'index.html'), `\n<!-- build ${Date.now()} -->\n`);
  await expect(page.getByText('Nova Versão')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Atualização disponível, pressione Ctrl + F5 para aplicar as mudanças')).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`sign-in and home pages are axe-clean in ${theme}`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', JSON.stringify(t)), theme);
    await page.goto('/signin');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await signIn(page, 'admin');
    await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
}
