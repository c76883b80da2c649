import { isHTTPError, isNetworkError } from 'ky';

export const OFFLINE_MESSAGE = 'Sem conexão: as alterações não foram enviadas. Tente de novo quando a conexão voltar.';

/** The browser is offline, or the call failed before any answer (network down, DNS, connection refused). */
export function isOfflineError(error?: unknown): boolean {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return true;
  if (error === undefined || isHTTPError(error)) return false;
  return isNetworkError(error) || (error instanceof TypeError && /fetch|network/i.test(error.message));
}
