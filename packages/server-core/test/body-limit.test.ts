// A route's own body limit (file uploads): over it a 413 with the route's pt-BR message; the other
// routes keep the server's 1 MB.
import { expect, it } from 'vitest';
import { z } from 'zod';
import { defineServerPlugin } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

const plugin = defineServerPlugin({
  id: 'bl',
  version: '0.0.0-test',
  core: '^1.0.0',
  tags: [{ tag: 93, nome: 'Envio' }],
  routes(router) {
    const handler = async (c: { req: { arrayBuffer(): Promise<ArrayBuffer> }; json(body: unknown, status: 200): Response }) =>
      c.json({ bytes: (await c.req.arrayBuffer()).byteLength }, 200);
    router.route({
      method: 'post',
      path: '/itens/:id/arquivos',
      tag: 93,
      summary: 'Envia um arquivo (até 2 MB)',
      request: { params: z.object({ id: z.string() }) },
      bodyLimit: { maxBytes: 2 * 1024 * 1024, message: 'O arquivo passa de 2 MB.' },
      handler,
    });
    router.route({
      method: 'post',
      path: '/itens/:id/outros',
      tag: 93,
      summary: 'Sem limite próprio',
      request: { params: z.object({ id: z.string() }) },
      handler,
    });
  },
});

describeEachDatabase('route body limit', { plugins: [plugin] }, (t) => {
  const send = async (path: string, size: number) => {
    const { token } = await t.server.signIn();
    const res = await t.server.request(path, { token, body: 'x'.repeat(size), headers: { 'content-type': 'application/octet-stream' } });
    return { status: res.status, body: (await res.json()) as { bytes?: number; error?: { code: string; message: string } } };
  };

  it('takes up to its own limit and answers 413 with its message above it', async () => {
    expect(await send('/api/bl/itens/abc/arquivos', 1_500_000)).toEqual({ status: 200, body: { bytes: 1_500_000 } });
    const over = await send('/api/bl/itens/abc/arquivos', 2 * 1024 * 1024 + 1);
    expect(over).toEqual({ status: 413, body: { error: { code: 'payload_too_large', message: 'O arquivo passa de 2 MB.' } } });
  });

  it('leaves the 1 MB limit on every other route (same prefix, other path)', async () => {
    const other = await send('/api/bl/itens/abc/outros', 1_500_000);
    expect(other.status).toBe(413);
    expect(other.body.error?.message).toBe('A requisição é grande demais (máximo 1 MB).');
    expect((await send('/api/bl/itens/abc/arquivos/extra', 1_500_000)).status).toBe(413);
  });
});
