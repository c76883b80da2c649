import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export const state = (): { webDist: string; dataDir: string; pncpControl: string } =>
  JSON.parse(readFileSync(join(import.meta.dirname, '.state.json'), 'utf8'));

/**
 * Fills and submits the sign-in form. A user of several entidades is then asked which one to work
 * in: `entidade` picks it by the start of its name (default: the Prefeitura).
 */
export async function signIn(page: Page, login: string, senha = 'demo1234', entidade = 'Prefeitura') {
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Senha', { exact: true }).fill(senha);
  await page.getByRole('button', { name: 'Entrar' }).click();
  const picker = page.getByTestId('entidade-form');
  const signedIn = page.getByRole('navigation', { name: 'Menu principal' });
  const error = page.getByTestId('signin-error');
  await expect(picker.or(signedIn).or(error).first()).toBeVisible();
  if (await picker.isVisible()) {
    await picker.getByRole('radio', { name: new RegExp(`^${entidade}`) }).check();
    await picker.getByRole('button', { name: 'Continuar' }).click();
  }
}

/** Signs in through the real form from a fresh page and waits for the home page. */
export async function signInFromHome(page: Page, login = 'admin') {
  await page.goto('/signin');
  await signIn(page, login);
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
}

/** A JWT-shaped token the browser can decode (the server would reject it; the guard must not need it). */
export function fakeToken(payload: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;
}

/** Presses Tab until the focused element is the one named `name` (keyboard only, as a person would). */
export async function tabTo(page: Page, name: string | RegExp, max = 12) {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const labelledBy = el.getAttribute('aria-labelledby');
      const byId = labelledBy ? document.getElementById(labelledBy)?.textContent : null;
      const byFor = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return (el.getAttribute('aria-label') ?? byId ?? byFor ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
    });
    if (matches(focused)) return;
  }
  throw new Error(`Tab never reached '${String(name)}'.`);
}

/** Signs in through the API (demo password): the headers of its requests and the entidade. */
export async function entrarApi(request: APIRequestContext, login: string, entidadeId?: string) {
  const res = await request.post('/api/auth/signin', { data: { login, senha: 'demo1234', ...(entidadeId ? { entidadeId } : {}) } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { token: string; entidadeId: string };
  return { headers: { authorization: `Bearer ${body.token}` }, entidadeId: body.entidadeId };
}

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of every page of a PDF, spaces collapsed. */
export async function textoDoPdf(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    for (const item of (await (await pdf.getPage(n)).getTextContent()).items) if ('str' in item) out.push(item.str);
  }
  await pdf.destroy();
  return out.join(' ').replace(/\s+/g, ' ');
}
