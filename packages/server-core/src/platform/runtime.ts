import type { Clock } from './clock.js';
import type { ContributionsOf } from './contributions.js';
import type { Database } from './db/types.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail.js';
import type { HashQueue } from './passwords.js';
import type { ServerPluginInfo } from './plugin-info.js';
import type { ThrottleOptions } from './throttle.js';
import type { SessionCache, SessionLookupRow } from './session-cache.js';

/** Everything the request pipeline needs, built once by createServer. */
export interface Runtime {
  database: Database;
  jwtSecret: string;
  tokenTtlSeconds: number;
  plugins: readonly ServerPluginInfo[];
  /** The `contributes` of the enabled plugins, by extension point (`ctx.contributions`). */
  contributions: ContributionsOf;
  coreVersion: string;
  /** Version answered by /api/version (the composing app's, or server-core's). */
  appVersion: string;
  buildId: string;
  appName: string;
  supportPhone: string;
  devtoolsPolicy: 'report' | 'ignore';
  /** Trust X-Forwarded-For / X-Forwarded-Proto / X-Forwarded-Host (set TRUST_PROXY=1 behind a load balancer). */
  trustProxy: boolean;
  logger: Logger;
  /** Time source of tokens, sessions, throttling and recovery links. */
  clock: Clock;
  /** A session unused for this long is over (SESSION_IDLE_MINUTES). */
  sessionIdleMs: number;
  /** A session is over this long after the password sign-in, whatever its use (SESSION_ABSOLUTE_HOURS). */
  sessionAbsoluteMs: number;
  throttle: ThrottleOptions;
  /** Origin of links in e-mails: PUBLIC_URL, else http://localhost:<PORT> (never taken from a request). */
  publicUrl: string;
  /** Bounds password hashing (sign-in and reset without a session get 503 when it is full). */
  hashQueue: HashQueue;
  /** Where e-mail goes: SMTP, or the outbox table. */
  mailer: Mailer;
  /** The outbox table (fallback when SMTP fails). */
  outbox: Mailer;
  /** /api/auth/recover answers no sooner than this, so its time says nothing about the account. */
  recoverMinDurationMs: number;
  /** What authenticate() read of recent sessions (session-cache.ts); absent: read on every request. */
  sessionCache?: SessionCache<SessionLookupRow> | undefined;
  /** Keeps a background task (e.g. an SMTP send) so close() can wait for it. */
  background(task: Promise<unknown>): void;
}
