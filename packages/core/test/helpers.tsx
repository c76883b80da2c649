import { vi } from 'vitest';
import type { Session } from '../src/types';

function b64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An unsigned JWT-shaped token (core only decodes it). `exp` in seconds. */
export function makeToken(payload: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: '1', ent: '1', sid: 's1', iat: now, exp: now + 3600, ...payload })}.assinatura`;
}

export function makeSession(overrides: Partial<Session> = {}): Session {
  return {
    user: { id: '1', nome: 'Maria Souza', login: 'maria', email: 'maria@example.gov.br' },
    entidade: {
      id: '1',
      nome: 'Prefeitura de Exemplo',
      cnpj: '00000000000191',
      municipio: 'Exemplo',
      uf: 'SP',
      telefoneSuporte: '(11) 4000-0000',
    },
    entidades: [{ id: '1', nome: 'Prefeitura de Exemplo' }],
    tags: [3, 24],
    config: { appName: 'Compras', supportPhone: '(11) 4000-1234', buildId: 'b1', devtools: { policy: 'report' } },
    ...overrides,
  };
}

export function json(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export type Handler = (request: Request) => Response | Promise<Response>;

/**
 * Replaces globalThis.fetch (what core's ky instance calls) with a router of
 * "METHOD /api/path" → handler. Unknown routes answer 404. Returns the mock to inspect calls.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    calls.push(request);
    const url = new URL(request.url);
    const handler = routes[`${request.method} ${url.pathname}`];
    if (!handler) return json({ error: { code: 'not_found', message: 'Não encontrado.' } }, 404);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}
