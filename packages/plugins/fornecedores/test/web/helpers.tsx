import { type Session, getCoreStore, sessionAtom, sessionStatusAtom, tokenAtom } from '@app/core';
import { vi } from 'vitest';

function b64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function makeToken(): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'HS256' })}.${b64url({ sub: '1', ent: '1', sid: 's', iat: now, exp: now + 3600 })}.x`;
}

export function makeSession(overrides: Partial<Session> = {}): Session {
  return {
    user: { id: '1', nome: 'Maria Souza', login: 'maria', email: 'maria@example.gov.br' },
    entidade: { id: '1', nome: 'Prefeitura de Exemplo', cnpj: '1', municipio: 'Exemplo', uf: 'SP', telefoneSuporte: '' },
    entidades: [{ id: '1', nome: 'Prefeitura de Exemplo' }],
    tags: [24, 25, 26],
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
  request: Request;
}

/** Mocks fetch (what core's ky instance calls) with "METHOD /api/path" → response; records the calls. */
export function mockApi(routes: Record<string, (call: Call) => Response | Promise<Response>>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const call = { method: request.method, path: url.pathname, search: url.searchParams, request };
    calls.push(call);
    const handler = routes[`${request.method} ${url.pathname}`];
    return handler ? handler(call) : Response.json({ error: { code: 'not_found', message: 'Não encontrado.' } }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });
