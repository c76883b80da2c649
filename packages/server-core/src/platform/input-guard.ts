// Hostile input caught before zod sees it, once for every route (router.ts): NUL characters and
// lone UTF-16 surrogates (PostgreSQL text and jsonb cannot hold them), JSON nested deeper than any
// body of the API, and calendar dates that match aaaa-mm-dd but do not exist (2024-02-30).
import { dateSchema, isCalendarDate } from '@app/br';

/**
 * The calendar-day rules live in @app/br, shared with the browser: `isCalendarDate` (aaaa-mm-dd that
 * exists) and `dateSchema(campo)` ('dd/mm/aaaa' or 'aaaa-mm-dd' in, 'aaaa-mm-dd' out, pt-BR messages
 * naming the field). Re-exported for the server's users.
 */
export { dateSchema, isCalendarDate };

/** Message of a field holding a NUL character or a lone surrogate. */
export const INVALID_CHARS_MESSAGE = 'Caracteres inválidos (caractere nulo ou Unicode malformado).';
/** Message of a JSON body nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_MESSAGE = 'Estrutura aninhada demais.';
/** No body of the API nests this deep; deeper ones are refused before validation. */
export const MAX_JSON_DEPTH = 32;

/** Whether `text` holds a NUL character or a lone (unpaired) UTF-16 surrogate. */
export function hasInvalidChars(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

export interface InputProblem {
  /** Dotted path of the offending value or key (`itens.0.nome`); '' for the value itself. */
  path: string;
  message: string;
}

/**
 * The first string (value or object key) of `value` holding a NUL or a lone surrogate, or the first
 * place nested deeper than `maxDepth`. Walks without recursion, so any depth is safe.
 */
export function findInvalidInput(value: unknown, maxDepth = MAX_JSON_DEPTH): InputProblem | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasInvalidChars(current)) return { path: path.join('.'), message: INVALID_CHARS_MESSAGE };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= maxDepth) return { path: path.join('.'), message: TOO_DEEP_MESSAGE };
    const entries = Array.isArray(current) ? current.map((v, i) => [String(i), v] as const) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const childPath = [...path, key];
      if (hasInvalidChars(key)) return { path: childPath.map((p) => (hasInvalidChars(p) ? '?' : p)).join('.'), message: INVALID_CHARS_MESSAGE };
      stack.push({ value: child, path: childPath });
    }
  }
  return undefined;
}
