import { getCoreStore, type Session, sessionAtom, sessionStatusAtom, tokenAtom } from '@app/core';
import { vi } from 'vitest';

function b64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function makeToken(): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'HS256' })}.${b64url({ sub: '1', ent: 'e1', sid: 's', iat: now, exp: now + 3600 })}.x`;
}

export function makeSession(overrides: Partial<Session> = {}): Session {
  return {
    user: { id: 'u-admin', nome: 'Administrador do Sistema', login: 'admin', email: 'admin@exemplo.gov.br' },
    entidade: { id: 'e1', nome: 'Prefeitura Municipal de Exemplo', cnpj: '1', municipio: 'Jundiaí', uf: 'SP', telefoneSuporte: '' },
    entidades: [{ id: 'e1', nome: 'Prefeitura Municipal de Exemplo' }],
    tags: [3],
    config: { appName: 'Compras', supportPhone: '(11) 4002-8922', buildId: 'b1', devtools: { policy: 'ignore' } },
    ...overrides,
  };
}

/** Signs in without the network: token + session already in core's store. */
export function signedIn(session: Session): void {
  localStorage.setItem('token', makeToken());
  const store = getCoreStore();
  store.set(tokenAtom, localStorage.getItem('token'));
  store.set(sessionAtom, session);
  store.set(sessionStatusAtom, 'ready');
}

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
}

type Handler = (call: Call) => Response | Promise<Response>;

/**
 * Mocks fetch (what core's ky instance calls). Keys are "METHOD /api/path" (exact) or
 * "METHOD /api/path/*" (prefix). Every call is recorded.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const call: Call = {
      method: request.method,
      path: url.pathname,
      search: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
      headers: request.headers,
    };
    calls.push(call);
    const key = `${request.method} ${url.pathname}`;
    const handler =
      routes[key] ??
      Object.entries(routes).find(([k]) => k.endsWith('/*') && key.startsWith(k.slice(0, -1)))?.[1];
    return handler ? handler(call) : Response.json({ error: { code: 'not_found', message: 'Não encontrado.' } }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}
