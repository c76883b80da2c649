// Password policy of OWASP ASVS 4 (L2, V2.1): at least 8 characters (15+ recommended), at least 64
// accepted (here 128), any character (spaces and Unicode included, never truncated), no composition
// rules, refused when it is a common password or the user's own login.
import { readFileSync } from 'node:fs';
import { COMMON_PASSWORDS_FILE } from '../paths.js';

export const SENHA_MIN = 8;
export const SENHA_MAX = 128;
export const SENHA_RECOMENDADA = 15;

export const SENHA_MESSAGES = {
  obrigatoria: 'Informe a nova senha.',
  curta: `A senha deve ter pelo menos ${SENHA_MIN} caracteres (recomendamos ${SENHA_RECOMENDADA} ou mais).`,
  longa: `A senha deve ter no máximo ${SENHA_MAX} caracteres.`,
  comum: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.',
  igualLogin: 'A senha não pode ser igual ao login.',
} as const;

/** Shown next to a new-password field. */
export const SENHA_DICA = `Use pelo menos ${SENHA_MIN} caracteres; recomendamos ${SENHA_RECOMENDADA} ou mais. Uma frase longa é fácil de lembrar e difícil de adivinhar.`;

let common: ReadonlySet<string> | undefined;

function normalize(value: string): string {
  return value.normalize('NFKC').toLowerCase();
}

/** The list in data/common-passwords.txt, read once (lines starting with '#' are comments). */
export function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const text = readFileSync(COMMON_PASSWORDS_FILE, 'utf8');
    const set = new Set<string>();
    for (const line of text.split(/\r?\n/)) {
      if (line && !line.startsWith('#')) set.add(normalize(line));
    }
    common = set;
  }
  return common;
}

export function isCommonPassword(senha: string): boolean {
  return commonPasswords().has(normalize(senha));
}

/** Length in characters as a person counts them (code points, so an emoji counts once). */
export function passwordLength(senha: string): number {
  return [...senha.normalize('NFKC')].length;
}

/**
 * The first problem of a new password, as a pt-BR message, or null when it is acceptable.
 * `login` (when known) must not be the password, in any case.
 */
export function novaSenhaProblem(senha: string, login?: string | null): string | null {
  if (!senha) return SENHA_MESSAGES.obrigatoria;
  const length = passwordLength(senha);
  if (length < SENHA_MIN) return SENHA_MESSAGES.curta;
  if (length > SENHA_MAX) return SENHA_MESSAGES.longa;
  if (isCommonPassword(senha)) return SENHA_MESSAGES.comum;
  if (login && normalize(senha.trim()) === normalize(login.trim())) return SENHA_MESSAGES.igualLogin;
  return null;
}
