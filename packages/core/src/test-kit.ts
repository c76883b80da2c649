// @app/core/testing: what a plugin's web tests need to render its pages without a server.
// Import only from tests (it uses vitest); application code never loads it.
import { vi } from 'vitest';
import { getCoreStore, sessionAtom, sessionStatusAtom, tokenAtom } from './store';
import type { Session } from './types';

export { resetCoreState } from './testing';

function b64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An unsigned JWT-shaped token (core only decodes it), valid for an hour unless `payload` says otherwise. */
export function makeTestToken(payload: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: '1', ent: '1', sid: 's', iat: now, exp: now + 3600, ...payload })}.x`;
}

/** A signed-in session for page tests; `overrides` replace whole fields (e.g. `tags`). */
export function makeTestSession(overrides: Partial<Session> = {}): Session {
  return {
    user: { id: '1', nome: 'Maria Souza', login: 'maria', email: 'maria@example.gov.br' },
    entidade: { id: '1', nome: 'Prefeitura de Exemplo', cnpj: '1', municipio: 'Exemplo', uf: 'SP', telefoneSuporte: '' },
    entidades: [{ id: '1', nome: 'Prefeitura de Exemplo' }],
    tags: [],
    config: { appName: 'Compras', supportPhone: '(11) 4002-8922', buildId: 'b1', devtools: { policy: 'ignore' } },
    ...overrides,
  };
}

/** Signs in without the network: a token in localStorage and `session` already in core's store. */
export function signInForTest(session: Session): void {
  localStorage.setItem('token', makeTestToken({ ent: session.entidade.id }));
  const store = getCoreStore();
  store.set(tokenAtom, localStorage.getItem('token'));
  store.set(sessionAtom, session);
  store.set(sessionStatusAtom, 'ready');
}

/** One request seen by {@link mockApi}. `body` is the parsed JSON (or the raw text). */
export interface ApiCall {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
  /** The request itself, body unread. */
  request: Request;
}

export type ApiHandler = (call: ApiCall) => Response | Promise<Response>;

/**
 * Replaces fetch (what core's ky instance calls) with a router: keys are "METHOD /api/path" (exact)
 * or "METHOD /api/path/*" (prefix); anything else answers 404 in the API's error shape. Every
 * call is recorded.
 */
export function mockApi(routes: Record<string, ApiHandler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const call: ApiCall = { method: request.method, path: url.pathname, search: url.searchParams, body, headers: request.headers, request };
    calls.push(call);
    const key = `${request.method} ${url.pathname}`;
    const handler =
      routes[key] ?? Object.entries(routes).find(([k]) => k.endsWith('/*') && key.startsWith(k.slice(0, -1)))?.[1];
    return handler
      ? handler(call)
      : Response.json({ error: { code: 'not_found', message: 'Não encontrado.' } }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/** A list answer in the API's page shape. */
export const pageOf = <T>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });
