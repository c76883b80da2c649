import { z } from 'zod';

let configured = false;

/**
 * Makes zod answer in Brazilian Portuguese (zod's pt-BR locale), with a plainer message for the
 * most common case, a missing required field. Runs once when server-core is imported; messages
 * written by plugins (`z.string().min(3, 'Informe ao menos 3 letras.')`) still win.
 */
export function configureZodPtBr(): void {
  if (configured) return;
  configured = true;
  const base = z.locales.ptBR().localeError;
  z.config({
    localeError: (issue) => {
      if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) {
        return 'Campo obrigatório.';
      }
      if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) {
        return 'Campo obrigatório.';
      }
      return base(issue);
    },
  });
}

configureZodPtBr();
