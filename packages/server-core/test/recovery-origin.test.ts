// Issue 8: a recovery link is never built from request headers. Without PUBLIC_URL its origin is
// http://localhost:<PORT> (PORT as the server listens, default 3000), whatever Host or X-Forwarded-*
// say: otherwise anyone could have a real user's link point at their own server.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { expect, it } from 'vitest';
import { type TestServer, describeEachDatabase } from '../src/testing.js';
import { addUser, adminInPrefeitura } from './fixtures/users.js';

const DEFAULT_ORIGIN = `http://localhost:${process.env.PORT || 3000}`;

/** POST /api/auth/recover over real HTTP (as @hono/node-server builds the request URL from Host). */
async function recoverOverHttp(server: TestServer, login: string, headers: Record<string, string>): Promise<number> {
  const http = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => http.once('listening', resolve));
  try {
    const { port } = http.address() as AddressInfo;
    const body = JSON.stringify({ login });
    return await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/auth/recover', headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  } finally {
    await new Promise((resolve) => http.close(resolve));
  }
}

async function newestLinkTo(server: TestServer, login: string): Promise<string> {
  const token = await adminInPrefeitura(server);
  const res = await server.request(`/api/auth/outbox?q=${login}`, { token });
  const { items } = (await res.json()) as { items: { body: string }[] };
  const link = /\n(\S+\/recoveryPass\?token=[A-Za-z0-9_-]{43})\n/.exec(items[0]!.body);
  expect(link, 'a recovery link in the e-mail').not.toBeNull();
  return link![1]!;
}

for (const trustProxy of [false, true]) {
  describeEachDatabase(
    `recovery link origin (PUBLIC_URL unset, TRUST_PROXY ${trustProxy ? 'on' : 'off'})`,
    { trustProxy, recoverMinDurationMs: 0, publicUrl: undefined },
    (t) => {
      it('ignores a hostile Host header', async () => {
        await addUser(t.server, 'hospede');
        expect(await recoverOverHttp(t.server, 'hospede', { host: 'evil.example:8443' })).toBe(202);
        const link = await newestLinkTo(t.server, 'hospede');
        expect(new URL(link).origin).toBe(DEFAULT_ORIGIN);
        expect(link).not.toContain('evil');
      });

      it('ignores hostile X-Forwarded-Host and X-Forwarded-Proto', async () => {
        await addUser(t.server, 'encaminhado');
        const headers = { host: 'evil.example', 'x-forwarded-host': 'evil.example:8443', 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.5.0.1' };
        expect(await recoverOverHttp(t.server, 'encaminhado', headers)).toBe(202);
        const link = await newestLinkTo(t.server, 'encaminhado');
        expect(new URL(link).origin).toBe(DEFAULT_ORIGIN);
        expect(link).not.toContain('evil');
      });
    },
  );
}
