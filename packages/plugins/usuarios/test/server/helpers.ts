// Fixtures of the usuarios API tests (the server itself is @app/server-core/testing's).
import { defineServerPlugin } from '@app/server-core';
import type { TestServer } from '@app/server-core/testing';

/** Declares the tags the demo perfis use (25, 26, 90) so the demo admin holds them, plus an exempt one. */
export const catalogo = defineServerPlugin({
  id: 'catalogo',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [
    { tag: 0, nome: 'Aberto a todos' },
    { tag: 25, nome: 'Produtos' },
    { tag: 26, nome: 'Fornecedores' },
    { tag: 90, nome: 'Logs de Auditoria' },
  ],
  routes: () => undefined,
});

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export interface Api {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
  put(path: string, body: unknown): Promise<Response>;
  del(path: string): Promise<Response>;
}

/** Request helpers bound to a token, under /api/usuarios. */
export function apiOf(server: TestServer, token: string): Api {
  const url = (p: string) => `/api/usuarios${p}`;
  return {
    get: (p) => server.request(url(p), { token }),
    post: (p, body) => server.request(url(p), { token, method: 'POST', json: body }),
    put: (p, body) => server.request(url(p), { token, method: 'PUT', json: body }),
    del: (p) => server.request(url(p), { token, method: 'DELETE' }),
  };
}

export async function perfilId(server: TestServer, entidadeId: string, nome: string): Promise<string> {
  const [row] = await server.sql<{ id: string }>('SELECT id FROM perfis WHERE entidade_id = $1 AND nome = $2', [entidadeId, nome]);
  if (!row) throw new Error(`perfil ${nome} not found`);
  return row.id;
}

export async function userId(server: TestServer, login: string): Promise<string> {
  const [row] = await server.sql<{ id: string }>('SELECT id FROM usuarios WHERE lower(login) = lower($1)', [login]);
  if (!row) throw new Error(`user ${login} not found`);
  return row.id;
}
