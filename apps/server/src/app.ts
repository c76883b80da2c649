// Composes the Compras server: server-core + the enabled plugins + the built web app.
import { fileURLToPath } from 'node:url';
import { type ComposedServer, type CreateServerOptions, createServer } from '@app/server-core';
import { serverPlugins } from './plugins.js';

export { serverPlugins };

/**
 * The built SPA: $WEB_DIST when set (e.g. a deployed copy), else apps/web/dist resolved from this
 * package (dist/app.js and src/app.ts are both one level down).
 */
export const WEB_DIST = process.env.WEB_DIST || fileURLToPath(new URL('../../web/dist/', import.meta.url));

export const APP_VERSION: string = __PKG_VERSION__;

export function createComprasServer(options: Partial<CreateServerOptions> = {}): Promise<ComposedServer> {
  return createServer({ plugins: serverPlugins, webDist: WEB_DIST, version: APP_VERSION, ...options });
}
