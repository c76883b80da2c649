// @app/core/testing: what a plugin's web tests need to render its pages without a server.
// Import only from tests (it uses vitest and Testing Library); application code never loads it.
import { type RenderResult, cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { onTestFinished, vi } from 'vitest';
import { App } from './App';
import { type PluginManifest, pluginMounts } from './contract';
import { getCoreStore, sessionAtom, sessionStatusAtom, tokenAtom } from './store';
import { resetCoreState } from './testing';
import type { Session } from './types';

export { resetCoreState };

/**
 * What a page test leaves behind, undone: the rendered tree unmounted, fetch (and every other stubbed
 * global) restored, localStorage emptied, core's state (store, query cache) fresh.
 * {@link renderPlugin}, {@link signInForTest} and {@link mockApi} call it when the test ends.
 */
export function resetPluginTest(): void {
  armed = false;
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  resetCoreState();
}

let armed = false;
/** Schedules {@link resetPluginTest} for the end of the running test (once per test; nothing outside a test). */
function resetWhenTestEnds(): void {
  if (armed) return;
  try {
    onTestFinished(() => resetPluginTest());
    armed = true;
  } catch {
    // called outside a test (module level, beforeAll): the caller resets
  }
}

function b64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An unsigned JWT-shaped token (core only decodes it), valid for an hour unless `payload` says otherwise. */
export function makeTestToken(payload: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: '1', ent: '1', sid: 's', iat: now, exp: now + 3600, ...payload })}.x`;
}

/** A signed-in session for page tests; `overrides` replace whole fields (e.g. `tags`). */
export function makeTestSession(overrides: Partial<Session> = {}): Session {
  return {
    user: { id: '1', nome: 'Maria Souza', login: 'maria', email: 'maria@example.gov.br' },
    entidade: { id: '1', nome: 'Prefeitura de Exemplo', cnpj: '1', municipio: 'Exemplo', uf: 'SP', telefoneSuporte: '' },
    entidades: [{ id: '1', nome: 'Prefeitura de Exemplo' }],
    tags: [],
    config: { appName: 'Compras', supportPhone: '(11) 4002-8922', buildId: 'b1', devtools: { policy: 'ignore' } },
    ...overrides,
  };
}

/** Signs in without the network: a token in localStorage and `session` already in core's store. */
export function signInForTest(session: Session): void {
  resetWhenTestEnds();
  localStorage.setItem('token', makeTestToken({ ent: session.entidade.id }));
  const store = getCoreStore();
  store.set(tokenAtom, localStorage.getItem('token'));
  store.set(sessionAtom, session);
  store.set(sessionStatusAtom, 'ready');
}

/** One request seen by {@link mockApi}. `body` is the parsed JSON (or the raw text). */
export interface ApiCall {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Headers;
  /** The request itself, body unread. */
  request: Request;
}

export type ApiHandler = (call: ApiCall) => Response | Promise<Response>;

/**
 * Replaces fetch (what core's ky instance calls) with a router: keys are "METHOD /api/path" (exact)
 * or "METHOD /api/path/*" (prefix); anything else answers 404 in the API's error shape. Every
 * call is recorded.
 */
export function mockApi(routes: Record<string, ApiHandler>) {
  resetWhenTestEnds();
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const call: ApiCall = { method: request.method, path: url.pathname, search: url.searchParams, body, headers: request.headers, request };
    calls.push(call);
    const key = `${request.method} ${url.pathname}`;
    const handler = routes[key] ?? Object.entries(routes).find(([k]) => k.endsWith('/*') && key.startsWith(k.slice(0, -1)))?.[1];
    return handler ? handler(call) : Response.json({ error: { code: 'not_found', message: 'Não encontrado.' } }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/** A list answer in the API's page shape. */
export const pageOf = <T>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

export interface RenderPluginOptions {
  /** The address the app opens at; default the first plugin's basePath. */
  path?: string;
  /** Signs in with this session first (see {@link makeTestSession}); without it, whatever sign-in the test set. */
  session?: Session;
  /** Mocks the API first (see {@link mockApi}); its recorded calls come back as `calls`. */
  api?: Record<string, ApiHandler>;
}

/**
 * Renders the whole app shell (core's `App`, background pollers off) with the given plugins, at
 * `path`: the plugin's pages run as in the browser (permission guard, lazy chunks, session, query
 * client, router), with fetch mocked. Everything is undone when the test ends ({@link resetPluginTest}).
 *
 *   const { calls } = renderPlugin(memorandos, {
 *     path: '/memorando/new',
 *     session: makeTestSession({ tags: [29] }),
 *     api: { 'GET /api/memorandos/memorandos': () => Response.json(pageOf([])) },
 *   });
 */
export function renderPlugin(plugins: PluginManifest | readonly PluginManifest[], options: RenderPluginOptions = {}): RenderResult & { calls: ApiCall[] } {
  resetWhenTestEnds();
  const list: readonly PluginManifest[] = isList(plugins) ? plugins : [plugins];
  if (options.session) signInForTest(options.session);
  const calls = options.api ? mockApi(options.api).calls : [];
  window.history.replaceState(null, '', options.path ?? firstPath(list));
  return { ...render(createElement(App, { plugins: list, pollers: false })), calls };
}

const isList = (p: PluginManifest | readonly PluginManifest[]): p is readonly PluginManifest[] => Array.isArray(p);

function firstPath(plugins: readonly PluginManifest[]): string {
  return (plugins[0] && pluginMounts(plugins[0])[0]?.basePath) || '/';
}
