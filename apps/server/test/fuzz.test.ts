// Hostile-input fuzz over /api/openapi.json (as route-walk.test.ts walks it): every operation gets
// hostile query strings (NUL, lone surrogates, impossible dates, prototype keys as sort, huge and
// repeated values), hostile path parameters and, when it takes a body, hostile JSON (the same values
// in each documented field, prototype keys as JSON keys, arrays and scalars where an object is
// expected, deep nesting, a string close to the 1 MB limit, malformed JSON), with the admin's token
// and without one. No answer may be a 5xx, and every body (CSV/XLSX streams too) must read to its end.
//
// Deterministic (a seeded PRNG picks the value of each field) and bounded (a few thousand requests per
// engine). Nothing is skipped: the bodies fail validation, so no password, perfil or account of the
// admin changes; the few routes that act without a body (sign-out, token refresh) may end the
// admin's session, so a 401 on a signed-in request signs in again and the walk goes on.
import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import { serverPlugins } from '../src/app.js';

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };
type Parameter = { name: string; in: 'query' | 'path' | 'header' | 'cookie' };
type Operation = {
  'x-public'?: boolean;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const ANY_ID = '00000000-0000-4000-8000-000000000000';

/** mulberry32: a small seeded PRNG, so every run sends the same requests. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '2024-02-30',
  '0000-01-01',
  '2023-02-29',
  '__proto__',
  'constructor',
  'toString',
  '-hasOwnProperty',
  '',
  '   ',
  '1e400',
  'NaN',
  '-1',
  "'; DROP TABLE usuarios; --",
  '%00',
  '../../etc/passwd',
  'a'.repeat(20_000),
];
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_STRINGS,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  true,
  null,
  [],
  ['\u0000'],
  {},
  { __proto__: null, constructor: { prototype: { admin: true } } },
  [[[[[['\ud800']]]]]],
];

/** Query values, already percent-encoded (a lone surrogate cannot go through encodeURIComponent), sent
 * one documented query parameter at a time, so no other invalid parameter hides a fault. */
const PROBE_VALUES = ['%00', '%ED%A0%80', '2024-02-30', '0000-01-01', '__proto__', 'constructor', 'x'.repeat(5_000)];
/** Sent to every parameter at once (the route's own and q/sort/de/ate). */
const ALL_AT_ONCE = ['a%00b', '%FF%FE', '%', 'toString'];

const PATH_VALUES = ['%00', '%ED%A0%80', '__proto__', 'x'.repeat(300), '2024-02-30'];

/** Raw JSON bodies: prototype keys, the wrong shapes, deep nesting, size, malformed text. */
const RAW_BODIES = [
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},"toString":"x","hasOwnProperty":1}',
  '[]',
  '[{}]',
  '"texto"',
  '123',
  'null',
  'true',
  '{"a":"\\ud800","b":"\\u0000","\\u0000":"c"}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  JSON.stringify({ x: 'a'.repeat(900_000) }),
  '{"a":',
  '\u0000',
];

const resolve = (doc: Doc, schema: Schema | undefined, depth = 0): Schema | undefined => {
  if (!schema || depth > 5) return schema;
  if (schema.$ref) return resolve(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')], depth + 1);
  return schema;
};

/** Top-level field names of a body schema (objects, and the members of allOf/anyOf/oneOf). */
const fieldsOf = (doc: Doc, schema: Schema | undefined): string[] => {
  const s = resolve(doc, schema);
  if (!s) return [];
  const names = new Set(Object.keys(s.properties ?? {}));
  for (const part of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) for (const n of fieldsOf(doc, part)) names.add(n);
  return [...names];
};

describeEachDatabase(
  'hostile-input fuzz over /api/openapi.json',
  {
    plugins: serverPlugins,
    // hostile sign-ins and recoveries must not lock the admin out (throttling has its own tests), nor
    // wait the anti-enumeration delay of /api/auth/recover
    throttle: { accountMaxFailures: 1_000_000, ipMaxFailures: 1_000_000, recoverMaxPerIp: 1_000_000 },
    recoverMinDurationMs: 0,
  },
  (t) => {
    it('answers no hostile request with a 5xx', { timeout: 300_000 }, async () => {
      const started = Date.now();
      const doc = (await (await t.server.request('/api/openapi.json')).json()) as Doc;
      const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
        Object.entries(byMethod)
          .filter(([method]) => METHODS.has(method))
          .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
      );
      expect(ops.length).toBeGreaterThan(50);
      const random = prng(0x5eed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

      let token = (await t.server.signIn()).token;
      let signIns = 1;
      let requests = 0;
      const failures: string[] = [];
      const statuses = new Map<number, number>();

      const send = async (label: string, path: string, method: string, body: string | undefined, signedIn: boolean) => {
        for (let attempt = 0; attempt < 2; attempt++) {
          requests++;
          let status: number;
          let text = '';
          try {
            const res = await t.server.request(path, {
              method,
              ...(signedIn ? { token } : {}),
              ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
            });
            status = res.status;
            // read every answer to its end: a CSV stream that fails after its 200 shows up here
            text = new TextDecoder().decode(await res.arrayBuffer()).slice(0, 200);
          } catch (err) {
            failures.push(`${label}: ${method} ${path.slice(0, 120)} threw ${(err as Error).message}`);
            return;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 500) failures.push(`${label}: ${method} ${path.slice(0, 120)} → ${status} ${text}`);
          // a body-less route (sign-out, refresh) may have ended the session: sign in again and retry
          if (status === 401 && signedIn && attempt === 0) {
            token = (await t.server.signIn()).token;
            signIns++;
            continue;
          }
          return;
        }
      };

      for (const { method, path, op } of ops) {
        const params = op.parameters ?? [];
        const queryNames = [...new Set([...params.filter((p) => p.in === 'query').map((p) => p.name), 'q', 'sort', 'de', 'ate'])];
        const concrete = path.replace(/\{[^}]+\}/g, ANY_ID);
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        const takesBody = bodySchema !== undefined;
        const fields = fieldsOf(doc, bodySchema);
        const label = `${method} ${path}`;
        // a body for routes that take one, so the query is not the only thing refused
        const emptyBody = takesBody ? '{}' : undefined;

        // query strings: each documented parameter alone, then every name at once, repeated and hostile keys
        for (const name of params.filter((p) => p.in === 'query').map((p) => p.name)) {
          for (const value of PROBE_VALUES) await send(`${label} query.${name}`, `${concrete}?${name}=${value}`, method, emptyBody, true);
        }
        for (const value of ALL_AT_ONCE) {
          await send(`${label} query`, `${concrete}?${queryNames.map((n) => `${n}=${value}`).join('&')}`, method, emptyBody, true);
        }
        await send(`${label} query`, `${concrete}?${queryNames.map((n) => `${n}=a&${n}=b`).join('&')}`, method, emptyBody, true);
        await send(`${label} query`, `${concrete}?%00=1&__proto__[admin]=1&constructor=1`, method, emptyBody, true);

        // path parameters
        if (path.includes('{')) {
          for (const value of PATH_VALUES) await send(`${label} path`, path.replace(/\{[^}]+\}/g, value), method, emptyBody, true);
        }

        // bodies
        if (takesBody) {
          for (const field of fields.slice(0, 6)) {
            await send(`${label} body.${field}`, concrete, method, JSON.stringify({ [field]: pick(HOSTILE_VALUES) }), true);
          }
          for (const value of ['\u0000\ud800', '2024-02-30', 'a'.repeat(50_000)]) {
            await send(`${label} body`, concrete, method, JSON.stringify(Object.fromEntries(fields.map((f) => [f, value]))), true);
          }
          await send(`${label} body`, concrete, method, JSON.stringify(Object.fromEntries(fields.map((f) => [f, pick(HOSTILE_VALUES)]))), true);
          for (const raw of RAW_BODIES) await send(`${label} raw body`, concrete, method, raw, true);
        }

        // without a token: a hostile query, and a hostile body where one is taken
        await send(`${label} anonymous`, `${concrete}?q=%00&sort=__proto__&de=2024-02-30`, method, emptyBody, false);
        if (takesBody) {
          await send(`${label} anonymous`, concrete, method, JSON.stringify(Object.fromEntries(fields.map((f) => [f, '\u0000\ud800']))), false);
          await send(`${label} anonymous`, concrete, method, RAW_BODIES[0], false);
        }
      }

      // the admin is still who the walk signed in as, and can still work
      const session = await t.server.request('/api/session', { token });
      expect(session.status).toBe(200);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.info(
        `fuzz [${t.engine}]: ${requests} requests over ${ops.length} operations in ${seconds} s (${signIns} sign-ins); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
      );
      expect(requests).toBeGreaterThan(1_500);
      // bounded per operation (a few dozen hostile requests each), so a new plugin's routes do not trip it
      expect(requests).toBeLessThan(ops.length * 40);
      expect(failures).toEqual([]);
    });
  },
);
