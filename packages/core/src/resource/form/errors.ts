// Field errors of a form: path ('nome', 'itens.2.quantidade') → pt-BR message.

/** An issue of a zod parse (or any `{ path, message }`). */
export interface FieldIssue {
  path: readonly PropertyKey[];
  message: string;
}

export type FieldErrors = Record<string, string>;

/**
 * Issues of a zod parse (the shared schema's `safeParse(...).error.issues`) → field errors: path
 * joined with dots ('itens.2.quantidade') → the first message of that path; an issue without a path
 * goes to '_'. The form shows each on its input (the API's `error.fields` has the same shape).
 */
export function issuesToFieldErrors(issues: readonly FieldIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}
