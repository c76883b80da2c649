import type { Database } from './db/types.js';
import type { Logger } from './logger.js';
import type { ServerPluginInfo } from './plugin.js';

/** Everything the request pipeline needs, built once by createServer. */
export interface Runtime {
  database: Database;
  jwtSecret: string;
  tokenTtlSeconds: number;
  plugins: readonly ServerPluginInfo[];
  coreVersion: string;
  /** Version answered by /api/version (the composing app's, or server-core's). */
  appVersion: string;
  buildId: string;
  appName: string;
  supportPhone: string;
  devtoolsPolicy: 'report' | 'ignore';
  /** Trust X-Forwarded-For / X-Forwarded-Proto (set TRUST_PROXY=1 behind a load balancer). */
  trustProxy: boolean;
  logger: Logger;
}
