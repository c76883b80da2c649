// Hostile input never reaches the database as a 500: NUL characters and lone UTF-16 surrogates in any
// string (body, query, path), absurdly nested JSON, impossible calendar dates and prototype keys as
// sort are 400s with a pt-BR message, decided once for every route by the router.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { toErrorResponse } from '../src/platform/errors.js';
import { silentLogger } from '../src/platform/logger.js';
import { INVALID_CHARS_MESSAGE, dateSchema, findInvalidInput, hasInvalidChars, isCalendarDate } from '../src/platform/input-guard.js';
import { createTestServer, describeEachDatabase } from '../src/testing.js';
import { crudPlugin } from './fixtures/crud-plugin.js';

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describe('input guard helpers', () => {
  it('spots NUL characters and lone surrogates, not paired ones', () => {
    expect(hasInvalidChars('a\u0000b')).toBe(true);
    expect(hasInvalidChars('\ud800')).toBe(true);
    expect(hasInvalidChars('x\udc00')).toBe(true);
    expect(hasInvalidChars('😀 ação')).toBe(false);
    expect(findInvalidInput({ itens: [{ nome: 'ok' }, { nome: 'a\u0000' }] })).toEqual({ path: 'itens.1.nome', message: INVALID_CHARS_MESSAGE });
    expect(findInvalidInput({ 'ch\u0000ave': 1 })?.message).toBe(INVALID_CHARS_MESSAGE);
    expect(findInvalidInput({ a: [1, true, null, 'ok'] })).toBeUndefined();
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInvalidInput(deep)?.message).toBe('Estrutura aninhada demais.');
  });

  it('accepts only existing calendar days', () => {
    for (const ok of ['2024-02-29', '2023-12-31', '0001-01-01', '9999-12-31', '2000-02-29']) expect(isCalendarDate(ok), ok).toBe(true);
    for (const bad of ['2024-02-30', '2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00', '0000-01-01', '2024-1-01', '']) {
      expect(isCalendarDate(bad), bad).toBe(false);
    }
    expect(dateSchema('Data inicial').safeParse('2024-02-30').error?.issues[0]?.message).toBe('Data inicial: data inexistente.');
    expect(dateSchema().safeParse(' 2024-02-29 ').data).toBe('2024-02-29');
  });
});

describe('safety net: a PostgreSQL data exception the validation let through', () => {
  it('is a 400 in pt-BR (SQLSTATE class 22), other database faults stay 500', async () => {
    const app = new Hono();
    app.get('/:code', (c) => {
      throw Object.assign(new Error('database said no'), { code: c.req.param('code') });
    });
    app.onError((err, c) => toErrorResponse(err, c, silentLogger));
    for (const code of ['22P05', '22021', '22007', '22008', '22003', '22P02']) {
      const res = await app.request(`/${code}`);
      expect(res.status, code).toBe(400);
      expect(((await res.json()) as ErrorBody).error.message).toBe('Algum valor enviado é inválido (data, número ou texto fora do formato aceito).');
    }
    expect((await app.request('/XX000')).status).toBe(500);
  });
});

describeEachDatabase('hostile input through the router', { plugins: [crudPlugin] }, (t) => {
  const expectInvalid = async (res: Response, field: string) => {
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.fields?.[field], JSON.stringify(body)).toBe(INVALID_CHARS_MESSAGE);
  };

  it('refuses NUL and lone surrogates in the bodies of the public routes (sign-in, recovery)', async () => {
    await expectInvalid(await t.server.request('/api/auth/signin', { json: { login: 'ad\u0000min', senha: 'x' } }), 'login');
    await expectInvalid(await t.server.request('/api/auth/signin', { json: { login: '\ud800', senha: 'x' } }), 'login');
    await expectInvalid(await t.server.request('/api/auth/signin', { json: { login: 'admin', senha: 'a\u0000' } }), 'senha');
    await expectInvalid(await t.server.request('/api/auth/recover', { json: { login: 'a\u0000b' } }), 'login');
    // written as raw JSON text, as a client would send it
    const raw = await t.server.request('/api/auth/signin', {
      method: 'POST',
      body: '{"login":"\\ud800x","senha":"y"}',
      headers: { 'content-type': 'application/json' },
    });
    await expectInvalid(raw, 'login');
    const malformed = await t.server.request('/api/auth/signin', { method: 'POST', body: '{"login":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
  });

  it('refuses them in authenticated bodies, keys and absurd nesting too', async () => {
    const { token } = await t.server.signIn();
    await expectInvalid(await t.server.request('/api/devtools', { token, json: { open: true, route: '/x\ud800' } }), 'route');
    await expectInvalid(await t.server.request('/api/crud/grupos', { token, json: { codigo: 'G1', nome: 'N\u0000' } }), 'nome');
    const key = await t.server.request('/api/crud/grupos', { token, json: { codigo: 'G1', nome: 'N', 'x\u0000': 1 } });
    expect(key.status).toBe(400);
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const nested = await t.server.request('/api/crud/grupos', { token, method: 'POST', body: deep, headers: { 'content-type': 'application/json' } });
    expect(nested.status).toBe(400);
    expect(Object.values(((await nested.json()) as ErrorBody).error.fields ?? {})).toEqual(['Estrutura aninhada demais.']);
  });

  it('refuses q=%00 on lists and exports, and NUL in path parameters', async () => {
    const { token } = await t.server.signIn();
    for (const path of ['/api/crud/grupos?q=%00', '/api/crud/grupos.csv?q=a%00b', '/api/crud/grupos.xlsx?q=%00', '/api/crud/subgrupos?grupoId=%00']) {
      const res = await t.server.request(path, { token });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, path).toBe(400);
      expect(Object.values(body.error.fields ?? {}), path).toEqual([INVALID_CHARS_MESSAGE]);
    }
    await expectInvalid(await t.server.request('/api/crud/grupos/%00', { token }), 'id');
  });

  it('answers 400 to prototype keys as sort', async () => {
    const { token } = await t.server.signIn();
    for (const sort of ['__proto__', 'constructor', 'toString', '-hasOwnProperty', 'valueOf']) {
      const res = await t.server.request(`/api/crud/grupos?sort=${sort}`, { token });
      expect(res.status, sort).toBe(400);
    }
  });
});

describe('413 on a keep-alive connection', () => {
  /**
   * Writes `requests` on one raw socket and collects what comes back until the server closes it or
   * `answers` responses arrived (status lines and headers only; bodies are read by Content-Length).
   */
  const exchange = (port: number, first: string | Buffer, second: string) =>
    new Promise<{ statuses: number[]; headers: string[]; closed: boolean; error?: string }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let data = Buffer.alloc(0);
      const statuses: number[] = [];
      const headers: string[] = [];
      let sentSecond = false;
      let closed = false;
      let error: string | undefined;
      const parse = () => {
        for (;;) {
          const end = data.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = data.subarray(0, end).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (data.length < end + 4 + length) return;
          statuses.push(Number(head.split(' ')[1]));
          headers.push(head);
          data = data.subarray(end + 4 + length);
          if (statuses.length === 1 && !sentSecond && !/\r\nconnection: *close/i.test(head)) {
            sentSecond = true;
            socket.write(second);
          }
          if (statuses.length === 2) socket.end();
        }
      };
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
        parse();
      });
      socket.on('error', (err) => {
        error = (err as NodeJS.ErrnoException).code ?? err.message;
      });
      socket.on('close', () => {
        closed = true;
        resolve({ statuses, headers, closed, ...(error ? { error } : {}) });
      });
      socket.write(first);
    });

  it('closes the connection after a 413 (Connection: close), and a fresh connection works', async () => {
    const server = await createTestServer([], { seed: false });
    const http = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' });
    try {
      await new Promise<void>((resolve) => (http.listening ? resolve() : http.once('listening', () => resolve())));
      const port = (http.address() as AddressInfo).port;
      const big = Buffer.alloc(2 * 1024 * 1024, 'a');
      const health = 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
      for (const head of [
        `POST /api/auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`,
        'POST /api/auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      ]) {
        const chunked = head.includes('chunked');
        const body = chunked ? Buffer.concat([Buffer.from(`${big.length.toString(16)}\r\n`), big, Buffer.from('\r\n0\r\n\r\n')]) : big;
        const result = await exchange(port, Buffer.concat([Buffer.from(head), body]), health);
        expect(result.statuses[0], head).toBe(413);
        // either the server said it closes (and did), or the second request on the socket was answered
        if (/\r\nconnection: *close/i.test(result.headers[0]!)) expect(result.closed).toBe(true);
        else expect(result.statuses[1], head).toBe(200);
        // a new connection is served normally
        const again = await exchange(port, health, health);
        expect(again.statuses[0]).toBe(200);
      }
    } finally {
      await new Promise((resolve) => http.close(resolve));
      await server.close();
    }
  });
});
