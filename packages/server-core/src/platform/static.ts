import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { etag } from 'hono/etag';
import type { AppEnv } from './context.js';

/** sha256 (first 12 hex) of webDist/index.html when present, else of `fallback` (the server version). */
export function computeBuildId(webDist: string | undefined, fallback: string): string {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  const content = index && existsSync(index) ? readFileSync(index) : Buffer.from(fallback, 'utf8');
  return createHash('sha256').update(content).digest('hex').slice(0, 12);
}

/**
 * The build id as it is now: recomputed when the SPA's index.html changes on disk (a new build
 * deployed while the server runs), so clients polling /api/version see the new id and show the
 * update notice. A stat per call; the hash only when the file changed.
 */
export function liveBuildId(webDist: string | undefined, fallback: string): () => string {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  let seen = -1;
  let id = computeBuildId(webDist, fallback);
  return () => {
    const mtime = index ? (statSync(index, { throwIfNoEntry: false })?.mtimeMs ?? 0) : 0;
    if (index && mtime !== seen) {
      seen = mtime;
      id = computeBuildId(webDist, fallback);
    }
    return id;
  };
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA: files as they are (hashed /assets/* cached for a year, sent as the .br or
 * .gz twin the web build wrote beside each one when the browser accepts it), and index.html with
 * no-cache for every other GET path that is not /api (client-side routes). What is revalidated
 * (index.html, icons) carries an ETag, so a revalidation that finds it unchanged is a 304.
 */
export function mountSpa(app: Hono<AppEnv>, webDist: string): boolean {
  const root = resolve(webDist);
  if (!existsSync(join(root, 'index.html')) || !statSync(root).isDirectory()) return false;
  const files = serveStatic<AppEnv>({ root, precompressed: true });
  const index = serveStatic<AppEnv>({ root, path: 'index.html' });
  const noop = async () => undefined;
  const revalidated = etag();

  app.use('*', (c, next) => {
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/')) return next();
    return revalidated(c, next);
  });
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/')) return next();
    const file = await files(c, noop);
    if (file instanceof Response) {
      file.headers.set('Cache-Control', path.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
      return file;
    }
    // A missing hashed asset is a 404, not the HTML page (the browser expects JS/CSS there).
    if (path.startsWith('/assets/')) return next();
    const page = await index(c, noop);
    if (page instanceof Response) {
      page.headers.set('Cache-Control', 'no-cache');
      return page;
    }
    return next();
  });
  return true;
}
