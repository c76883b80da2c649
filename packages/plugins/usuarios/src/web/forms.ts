// Small helpers of the user and perfil forms (imported by the lazy pages only). Field errors come
// from @app/core's `issuesToFieldErrors` (the resource kit's), the stale-record answer follows the
// kit's protocol (409 `stale`).
import { apiErrorBody, apiErrorStatus, type FieldErrors } from '@app/core';
import { MENSAGENS } from '../shared/index';

export type { FieldErrors } from '@app/core';

/** The kit's message of a form with invalid fields. */
export const INVALID_MESSAGE = 'Verifique os campos destacados.';

/**
 * Someone else changed the record (the version sent is old): 409 with code `stale`, as the resource
 * kit's forms expect. The usuários routes still answer that case with code `conflict` and the same
 * message (MENSAGENS.versaoDesatualizada): recognised too, until they move to `stale`.
 */
export function isStaleError(error: unknown): boolean {
  if (apiErrorStatus(error) !== 409) return false;
  const body = apiErrorBody(error);
  return body?.code === 'stale' || (body?.code === 'conflict' && body.message === MENSAGENS.versaoDesatualizada);
}

/** What a failed save shows: field messages (400/409 with fields) and a general message. */
export function saveError(error: unknown): { message: string; fields: FieldErrors; stale: boolean } {
  const body = apiErrorBody(error);
  return {
    message: body?.message ?? 'Não foi possível salvar. Tente novamente.',
    fields: body?.fields ?? {},
    stale: isStaleError(error),
  };
}

/** Order-free comparison of id lists (what the form holds vs what was loaded). */
export const sortedIds = <T extends string | number>(ids: readonly T[]): T[] => [...ids].sort();
