import ky, { isHTTPError, type KyInstance } from 'ky';
import { setSignedOut } from './auth';
import { getCoreStore, tokenAtom } from './store';
import { toast } from './toast/queue';
import type { ApiErrorBody } from './types';

/** pt-BR message shown when a signed-in call answers 401. */
export const SESSION_EXPIRED_MESSAGE = 'Sua sessão expirou. Entre novamente para continuar.';

function bearerOf(request: Request): string | null {
  const header = request.headers.get('Authorization');
  return header?.startsWith('Bearer ') ? header.slice(7) : null;
}

/**
 * 401 → signed out, once: only a request that carried the *current* token signs out, so a burst
 * of concurrent 401s (or a late one after signing in again) clears the state a single time.
 */
export function handleUnauthorized(request: Request): boolean {
  const sent = bearerOf(request);
  const store = getCoreStore();
  if (!sent || sent !== store.get(tokenAtom)) return false;
  setSignedOut();
  toast.info(SESSION_EXPIRED_MESSAGE);
  return true;
}

function isApiErrorBody(data: unknown): data is ApiErrorBody {
  return (
    typeof data === 'object' &&
    data !== null &&
    'error' in data &&
    typeof (data as ApiErrorBody).error === 'object' &&
    typeof (data as ApiErrorBody).error?.message === 'string'
  );
}

/** Creates a ky instance with core's behaviour; `api` below is the app's one instance. */
export function createApi(): KyInstance {
  return ky.create({
    prefix: '/api',
    // In a browser '/api/x' is resolved by the page; jsdom/Node need an explicit base.
    baseUrl: typeof location !== 'undefined' && location.origin !== 'null' ? location.origin : undefined,
    retry: 0,
    // read at call time so tests (and polyfills) can replace globalThis.fetch
    fetch: (input, init) => globalThis.fetch(input, init),
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const token = getCoreStore().get(tokenAtom);
          if (token && !request.headers.has('Authorization')) {
            request.headers.set('Authorization', `Bearer ${token}`);
          }
        },
      ],
      afterResponse: [
        ({ request, response }) => {
          if (response.status === 401) handleUnauthorized(request);
        },
      ],
      beforeError: [
        ({ error }) => {
          // the API's pt-BR message becomes the error's message
          if (isHTTPError(error) && isApiErrorBody(error.data)) error.message = error.data.error.message;
          return error;
        },
      ],
    },
  });
}

/** The one ky instance (prefix '/api', bearer token, 401 → signed out). Also `useApi()`. */
export const api: KyInstance = createApi();

/** The API error body of a failed call, if any. */
export function apiErrorBody(error: unknown): ApiErrorBody['error'] | null {
  return isHTTPError(error) && isApiErrorBody(error.data) ? error.data.error : null;
}

/** A pt-BR message for a failed call: the API's own message, or `fallback`. */
export function apiErrorMessage(error: unknown, fallback = 'Não foi possível concluir a operação. Tente novamente.'): string {
  const body = apiErrorBody(error);
  if (body) return body.message;
  if (isHTTPError(error) && error.response.status >= 500) return 'O servidor encontrou um erro. Tente novamente em instantes.';
  if (error instanceof Error && error.name === 'NetworkError') return 'Sem conexão com o servidor. Verifique sua rede.';
  if (error instanceof Error && error.name === 'TimeoutError') return 'O servidor demorou para responder. Tente novamente.';
  return fallback;
}

/** HTTP status of a failed call (or null). */
export function apiErrorStatus(error: unknown): number | null {
  return isHTTPError(error) ? error.response.status : null;
}
