import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page, expect } from '@playwright/test';

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
