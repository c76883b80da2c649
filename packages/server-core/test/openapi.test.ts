import { describe, expect, it } from 'vitest';
import { defineServerPlugin } from '../src/index.js';
import { defaultOperationId, kitOperationId } from '../src/platform/router.js';
import { createTestServer, describeEachDatabase } from '../src/testing.js';
import { TESTE_TAG, testPlugin } from './fixtures/test-plugin.js';

type Operation = {
  operationId?: string;
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
      servers: { url: string }[];
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    // a relative server: the paths (/api/…) are called on the server that serves the document
    expect(doc.servers.map((server) => server.url)).toEqual(['/']);
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
      'GET /api/auth/outbox/{id}/anexos/{ordem}': 3,
      'GET /api/session': 0,
      'POST /api/devtools': 0,
      'GET /api/health': 'public',
      'GET /api/verificar/{codigo}': 'public',
      'GET /api/pendencias': 0,
      'GET /api/indicadores': 0,
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
    // every operation has an operationId, '<plugin>.<resource>.<action>', unique in the document
    const ids = Object.fromEntries(operations.map(({ key, op }) => [key, op.operationId]));
    expect(ids).toMatchObject({
      'POST /api/auth/signin': 'core.auth.postSignin',
      'GET /api/session': 'core.session.get',
      'GET /api/verificar/{codigo}': 'core.verificar.getByCodigo',
      'GET /api/openapi.json': 'core.openapiJson.get',
      'GET /api/teste/itens': 'teste.itens.get',
      'POST /api/teste/itens': 'teste.itens.post',
      'PUT /api/teste/itens/{id}': 'teste.itens.putById',
    });
    for (const [key, id] of Object.entries(ids)) expect(id, key).toMatch(/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*){2}$/);
    expect(new Set(Object.values(ids)).size).toBe(operations.length);
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

describe('operationId', () => {
  it('is derived from the method and the path when a route declares none', () => {
    expect(defaultOperationId('requisicoes', 'get', '/requisicoes/:id/aprovacao')).toBe('requisicoes.requisicoes.getAprovacao');
    expect(defaultOperationId('requisicoes', 'post', '/pre-requisicoes/de-memorando')).toBe('requisicoes.preRequisicoes.postDeMemorando');
    expect(defaultOperationId('cotacoes', 'delete', '/cotacoes/:id/precos/:precoId')).toBe('cotacoes.cotacoes.deletePrecosByPrecoId');
    expect(defaultOperationId('cotacoes', 'post', '/cotacoes/{id}/precos/{precoId}/incluir')).toBe('cotacoes.cotacoes.postPrecosIncluir');
    expect(defaultOperationId('cotacoes', 'get', '/cotacoes/:id/memoria.pdf')).toBe('cotacoes.cotacoes.getMemoriaPdf');
    expect(defaultOperationId('requisicoes', 'get', '/pendencias')).toBe('requisicoes.pendencias.get');
    expect(defaultOperationId('dashboard', 'get', '/')).toBe('dashboard.dashboard.get');
  });

  it('of a kit route is <plugin>.<resource>.<action>', () => {
    expect(kitOperationId('requisicoes', '/pre-requisicoes', 'list')).toBe('requisicoes.preRequisicoes.list');
    expect(kitOperationId('registros', '/tipos-material', 'exportCsv')).toBe('registros.tiposMaterial.exportCsv');
    expect(kitOperationId('requisicoes', '/requisicoes', 'nao-respondeu')).toBe('requisicoes.requisicoes.naoRespondeu');
  });

  const plugin = (id: string, routes: Parameters<typeof defineServerPlugin>[0]['routes']) =>
    defineServerPlugin({ id, version: '1.0.0', core: '^1.0.0', tags: [], routes });
  const handler = (c: { json(v: unknown): Response }) => c.json({});

  it('refuses to start when two operations share an operationId, naming both routes', async () => {
    const twice = plugin('dobro', (router) => {
      router.route({ method: 'get', path: '/a/:id/b', tag: 0, summary: 'um', handler: handler as never });
      router.route({ method: 'get', path: '/a/b', tag: 0, summary: 'outro', handler: handler as never });
    });
    await expect(createTestServer([twice], { seed: false })).rejects.toThrow(
      "OpenAPI: the routes GET /api/dobro/a/{id}/b and GET /api/dobro/a/b share the operationId 'dobro.a.getB'; give one of them its own `operationId` in router.route.",
    );
  });

  it("refuses an operationId outside the plugin's name space", async () => {
    const alheio = plugin('alheio', (router) => {
      router.route({ method: 'get', path: '/x', tag: 0, summary: 'x', operationId: 'outro.x.get', handler: handler as never });
    });
    await expect(createTestServer([alheio], { seed: false })).rejects.toThrow(
      "Server plugin 'alheio': route GET /x has the operationId 'outro.x.get'; it must be 'alheio.<resource>.<action>' (letters and digits).",
    );
  });
});
