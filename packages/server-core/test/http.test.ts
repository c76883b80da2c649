import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeBuildId } from '../src/index.js';
import { type TestServer, createTestServer } from '../src/testing.js';

describe('HTTP: security headers and the SPA', () => {
  let dist: string;
  let server: TestServer;
  const bigJs = Buffer.from(`export const itens = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `Caneta esferográfica ${i}`))};`);
  const html = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'compras-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), html);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // a built asset with the .br and .gz twins the web build writes beside it
    writeFileSync(join(dist, 'assets', 'big-def456.js'), bigJs);
    writeFileSync(join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(bigJs));
    writeFileSync(join(dist, 'assets', 'big-def456.js.gz'), gzipSync(bigJs));
    server = await createTestServer([], { webDist: dist, seed: false });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the security headers on every answer (API, files, errors)', async () => {
    for (const path of ['/api/health', '/api/nada', '/', '/assets/index-abc123.js']) {
      const res = await server.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("style-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('sends every security header with its exact value, and a CSP without inline or eval scripts', async () => {
    const expected: Record<string, string> = {
      'content-security-policy':
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const requests: [string, RequestInit?][] = [
      ['/api/health'],
      ['/api/session'], // 401
      ['/api/nada'], // 404
      ['/api/auth/signin', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }], // 400
      ['/'],
      ['/memorando/1'],
      ['/assets/index-abc123.js'],
    ];
    for (const [path, init] of requests) {
      const res = await server.app.request(path, init);
      for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
      expect(res.headers.get('x-powered-by'), path).toBeNull();
      const directives = new Map(
        (res.headers.get('content-security-policy') ?? '').split(';').map((d) => {
          const [name, ...sources] = d.trim().split(/\s+/);
          return [name!, sources] as const;
        }),
      );
      expect(directives.get('script-src'), path).toEqual(["'self'"]);
      expect(directives.get('default-src'), path).toEqual(["'self'"]);
      expect(directives.has('script-src-elem') || directives.has('script-src-attr'), path).toBe(false);
      expect(res.headers.get('content-security-policy'), path).not.toMatch(/unsafe-(inline|eval|hashes)|\*/);
    }
  });

  it('adds HSTS only for HTTPS requests (directly or via X-Forwarded-Proto)', async () => {
    const proxied = await server.request('/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const direct = await server.app.request('https://compras.example/api/health');
    expect(direct.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const page = await server.app.request('https://compras.example/');
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    for (const res of [
      await server.app.request('http://compras.example/api/health'),
      await server.request('/api/health', { headers: { 'x-forwarded-proto': 'http' } }),
    ]) {
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('serves hashed assets with a long cache and index.html with no-cache for client routes', async () => {
    const asset = await server.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('javascript');
    for (const path of ['/', '/memorando/edit/12', '/sobre']) {
      const res = await server.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expect(await res.text(), path).toBe(html);
    }
    expect((await server.request('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
  });

  it('sends an asset as its precompressed twin the browser accepts (br before gzip), as it is otherwise', async () => {
    const br = await server.request('/assets/big-def456.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-type')).toContain('javascript');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(Buffer.from(await br.arrayBuffer()).equals(brotliCompressSync(bigJs))).toBe(true);
    const gz = await server.request('/assets/big-def456.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(bigJs)).toBe(true);
    const plain = await server.request('/assets/big-def456.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(bigJs)).toBe(true);
  });

  it('gzips JSON answers above 1 KB when the client accepts it, never small ones or for a client that does not', async () => {
    const plain = await server.request('/api/openapi.json');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    const gz = await server.request('/api/openapi.json', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toContain('Accept-Encoding');
    const bytes = Buffer.from(await gz.arrayBuffer());
    expect(bytes.length).toBeLessThan(text.length / 3);
    expect(gunzipSync(bytes).toString('utf8')).toBe(text);
    const small = await server.request('/api/health', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('brotli (quality 4) for JSON above 1 KB when the client accepts br, as every browser does; never small ones', async () => {
    const text = await (await server.request('/api/openapi.json')).text();
    for (const header of ['gzip, deflate, br, zstd', 'br', 'gzip;q=1, br;q=0.5']) {
      const br = await server.request('/api/openapi.json', { headers: { 'accept-encoding': header } });
      expect(br.headers.get('content-encoding'), header).toBe('br');
      expect(br.headers.get('vary'), header).toContain('Accept-Encoding');
      const bytes = Buffer.from(await br.arrayBuffer());
      expect(br.headers.get('content-length'), header).toBe(String(bytes.length));
      expect(bytes.length, header).toBeLessThan(text.length / 3);
      expect(brotliDecompressSync(bytes).toString('utf8'), header).toBe(text);
    }
    const small = await server.request('/api/health', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    // revalidation of a brotli answer: its tag is weak
    const br = await server.request('/api/openapi.json', { headers: { 'accept-encoding': 'br' } });
    const weak = br.headers.get('etag')!;
    expect(weak.startsWith('W/')).toBe(true);
    expect((await server.request('/api/openapi.json', { headers: { 'accept-encoding': 'br', 'if-none-match': weak } })).status).toBe(304);
  });

  it('answers 304 to the revalidation of an unchanged index.html or OpenAPI document (ETag)', async () => {
    for (const path of ['/', '/memorando/edit/12', '/api/openapi.json']) {
      const first = await server.request(path);
      const tag = first.headers.get('etag');
      expect(tag, path).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await server.request(path, { headers: { 'if-none-match': tag! } });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe('');
      expect((await server.request(path, { headers: { 'if-none-match': '"outro"' } })).status, path).toBe(200);
    }
    // compressed, the tag becomes weak and still revalidates
    const gz = await server.request('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    const weak = gz.headers.get('etag')!;
    expect(weak.startsWith('W/')).toBe(true);
    expect((await server.request('/api/openapi.json', { headers: { 'accept-encoding': 'gzip', 'if-none-match': weak } })).status).toBe(304);
  });

  it('answers 404 for a missing asset and JSON 404 for /api, never the HTML page', async () => {
    expect((await server.request('/assets/nao-existe.js')).status).toBe(404);
    const api = await server.request('/api/nao-existe');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
    expect(api.headers.get('cache-control')).toBe('no-store');
  });

  it('derives the build id from index.html (else from the server version)', () => {
    expect(server.buildId).toBe(createHash('sha256').update(html).digest('hex').slice(0, 12));
    expect(computeBuildId(undefined, '1.0.0')).toBe(createHash('sha256').update('1.0.0').digest('hex').slice(0, 12));
  });

  it('refuses bodies over 1 MB with 413 JSON', async () => {
    const res = await server.request('/api/auth/signin', { json: { login: 'a'.repeat(1_100_000), senha: 'x' } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});
