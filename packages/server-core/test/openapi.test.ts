import { expect, it } from 'vitest';
import { describeEachDatabase } from '../src/testing.js';
import { TESTE_TAG, testPlugin } from './fixtures/test-plugin.js';

type Operation = {
  'x-permission-tag'?: number;
  'x-public'?: boolean;
  security?: unknown[];
  tags?: string[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};

describeEachDatabase('OpenAPI document', { plugins: [testPlugin] }, (t) => {
  it('lists every route with its permission tag or x-public, and a bearer security scheme', async () => {
    const res = await t.server.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });

    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    const summary = Object.fromEntries(operations.map(({ key, op }) => [key, op['x-public'] === true ? 'public' : op['x-permission-tag']]));
    expect(summary).toEqual({
      'POST /api/auth/signin': 'public',
      'POST /api/auth/signout': 0,
      'POST /api/auth/entidade': 0,
      'POST /api/auth/recover': 'public',
      'POST /api/auth/reset': 'public',
      'POST /api/auth/password': 0,
      'POST /api/auth/refresh': 0,
      'GET /api/auth/outbox': 3,
      'GET /api/session': 0,
      'POST /api/devtools': 0,
      'GET /api/health': 'public',
      'GET /api/verificar/{codigo}': 'public',
      'GET /api/version': 'public',
      'GET /api/openapi.json': 'public',
      'GET /api/teste/itens': TESTE_TAG,
      'POST /api/teste/itens': TESTE_TAG,
      'PUT /api/teste/itens/{id}': TESTE_TAG,
      'GET /api/teste/livre': 0,
      'GET /api/teste/publico': 'public',
      'GET /api/teste/erro': 0,
      'GET /api/teste/reentrada': 0,
    });
    for (const { key, op } of operations) {
      if (op['x-public']) expect(op.security, key).toEqual([]);
      else expect(op.security, key).toEqual([{ bearerAuth: [] }]);
    }
    const create = doc.paths['/api/teste/itens']!.post!;
    expect(create.tags).toEqual(['teste']);
    expect(create.requestBody).toBeDefined();
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '500', '503']);

    // every route the app answers is in the document
    const honoRoutes = new Set(
      t.server.app.routes
        .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    expect([...honoRoutes].sort()).toEqual(Object.keys(summary).sort());
  });
});
