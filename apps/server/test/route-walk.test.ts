// Walks every route of the composed server, as /api/openapi.json lists them, and checks the door of
// each: no token → 401; a token without the route's tag → 403; another entidade's record → 404;
// and only sign-in, recovery, health, version (and the document itself) are public. A plugin route
// that forgets its tag, or is mounted around the router (so it is missing from the document), fails.
import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import { serverPlugins } from '../src/app.js';

type Operation = { 'x-permission-tag'?: number; 'x-public'?: boolean };
type Doc = { paths: Record<string, Record<string, Operation>> };

const PUBLIC = new Set([
  'GET /api/openapi.json',
  'POST /api/auth/signin',
  'POST /api/auth/recover',
  'POST /api/auth/reset',
  'GET /api/health',
  'GET /api/version',
  // the public check of a printed document's verification code (documents/verification.ts)
  'GET /api/verificar/{codigo}',
]);
const EXEMPT = new Set([0, -1, -2, -3, -4]);
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const ANY_ID = '00000000-0000-4000-8000-000000000000';

const concrete = (path: string, id = ANY_ID) => path.replace(/\{[^}]+\}/g, id);
const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
// a file of a document is routed with a Hono regex parameter (':id{[^/]+\.pdf}') and published as '{id}.pdf'
const publishedPath = (path: string) => path.replace(/:(\w+)\{\[\^\/\]\+\\\.(\w+)\}/g, ':$1.$2');

describeEachDatabase('route walk over /api/openapi.json', { plugins: serverPlugins }, (t) => {
  const operations = async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as Doc;
    return Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => METHODS.has(method))
        .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  };

  it('documents every /api route the app serves, each with a tag or marked public', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(50);
    const documented = new Set(ops.map((o) => `${o.method} ${honoPath(o.path)}`));
    const served = t.server.app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => `${r.method} ${publishedPath(r.path)}`);
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
    for (const o of ops) {
      const key = `${o.method} ${o.path}`;
      if (o.op['x-public']) expect(PUBLIC.has(key), `${key} is public`).toBe(true);
      else expect(typeof o.op['x-permission-tag'], `${key} declares its tag`).toBe('number');
    }
    expect(
      ops
        .filter((o) => o.op['x-public'])
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    ).toEqual([...PUBLIC].sort());
  });

  it('answers 401 without a token on every non-public route', async () => {
    const failures: string[] = [];
    for (const o of await operations()) {
      if (o.op['x-public']) continue;
      const res = await t.server.request(concrete(o.path), { method: o.method, body: o.method === 'GET' ? undefined : '{}' });
      if (res.status !== 401) failures.push(`${o.method} ${o.path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 on every tagged route to a user without that tag', async () => {
    const { token } = await t.server.signIn('consulta', 'demo1234');
    const session = (await (await t.server.request('/api/session', { token })).json()) as { tags: number[] };
    const failures: string[] = [];
    let checked = 0;
    for (const o of await operations()) {
      const tag = o.op['x-permission-tag'];
      if (tag === undefined || EXEMPT.has(tag) || session.tags.includes(tag)) continue;
      checked++;
      const res = await t.server.request(concrete(o.path), { method: o.method, token, body: o.method === 'GET' ? undefined : '{}' });
      if (res.status !== 403) failures.push(`${o.method} ${o.path} (tag ${tag}) → ${res.status}`);
    }
    expect(checked).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  });

  it("answers 404 to another entidade's record, on reads and deletions alike", async () => {
    const first = await t.server.signIn();
    const prefeitura = first.entidades.find((e) => e.nome.startsWith('Prefeitura'))!.id;
    const camara = first.entidades.find((e) => e.nome.startsWith('Câmara'))!.id;
    const inPrefeitura = (await t.server.signIn('admin', 'demo1234', prefeitura)).token;
    const inCamara = (await t.server.signIn('admin', 'demo1234', camara)).token;
    const ids = async (collection: string, token: string) => {
      const res = await t.server.request(`${collection}?pageSize=100&ativo=todos`, { token });
      if (res.status !== 200) return [];
      const body = (await res.json()) as { items?: { id?: unknown }[] };
      return (body.items ?? []).map((i) => i.id).filter((id): id is string => typeof id === 'string');
    };
    const ops = await operations();
    const failures: string[] = [];
    const walked: string[] = [];
    for (const o of ops.filter((x) => /\/\{id\}$/.test(x.path) && (x.method === 'GET' || x.method === 'DELETE'))) {
      const collection = o.path.replace(/\/\{id\}$/, '');
      if (!ops.some((x) => x.method === 'GET' && x.path === collection)) continue;
      const visibleInCamara = new Set(await ids(collection, inCamara));
      const foreign = (await ids(collection, inPrefeitura)).find((id) => !visibleInCamara.has(id));
      if (!foreign) continue;
      walked.push(`${o.method} ${o.path}`);
      const res = await t.server.request(concrete(o.path, foreign), { method: o.method, token: inCamara });
      if (res.status !== 404) failures.push(`${o.method} ${o.path} → ${res.status}`);
      // still there for its own entidade
      if (o.method === 'DELETE') {
        const still = await t.server.request(concrete(collection.concat('/{id}'), foreign), { token: inPrefeitura });
        if (still.status !== 200) failures.push(`${o.method} ${o.path}: the Prefeitura's record is gone`);
      }
    }
    expect(walked.length).toBeGreaterThanOrEqual(10);
    expect(failures).toEqual([]);
  });
});
