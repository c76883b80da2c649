// Small helpers of the user and perfil forms (imported by the lazy pages only).
import { apiErrorBody, apiErrorStatus } from '@app/core';
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

/** zod issues → one pt-BR message per field path ('entidades.0.perfilId'). */
export function zodFields(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

/** What a failed save shows: field messages (400/409 with fields) and a general message. */
export function saveError(error: unknown): { message: string; fields: FieldErrors; stale: boolean } {
  const body = apiErrorBody(error);
  const status = apiErrorStatus(error);
  return {
    message: body?.message ?? 'Não foi possível salvar. Tente novamente.',
    fields: body?.fields ?? {},
    stale: status === 409 && /alterado por outra pessoa/.test(body?.message ?? ''),
  };
}
