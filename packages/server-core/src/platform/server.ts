import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { etag } from 'hono/etag';
import { secureHeaders } from 'hono/secure-headers';
import { type AuditAnchor, auditAnchorFromEnv, countForeignCheckpoints, setAuditAnchor, writeAuditCheckpoint } from './audit.js';
import { type Clock, systemClock } from './clock.js';
import type { AppEnv, PluginContext } from './context.js';
import { collectContributions } from './contributions.js';
import { registerCoreRoutes } from './core-routes.js';
import { runMigrations } from './db/migrate.js';
import { type OpenDatabaseOptions, openDatabase } from './db/open.js';
import { appConfig } from './db/schema.js';
import type { Database, Db } from './db/types.js';
import { AppError, toErrorResponse } from './errors.js';
import { type HeapTrimOptions, type HeapTrimmer, startHeapTrimmer } from './heap-trim.js';
import { type SessionLookupRow, sessionCacheTtlMs, startSessionCache } from './session-cache.js';
import { type JobsOptions, type JobsService, createJobsService } from './jobs.js';
import { type Logger, consoleLogger } from './logger.js';
import { type Mailer, outboxMailer, smtpMailer } from './mail.js';
import { type HashQueue, sharedHashQueue } from './passwords.js';
import { type ServerPlugin, type ServerPluginInfo, composePlugins, pluginInfo } from './plugin.js';
import { type RouteBodyLimits, assertUniqueOperationIds, createMutate, createPluginRouter } from './router.js';
import type { Runtime } from './runtime.js';
import { seedDemo } from './seed.js';
import { liveBuildId, mountSpa } from './static.js';
import { DEFAULT_THROTTLE, type ThrottleOptions } from './throttle.js';
import { SERVER_CORE_VERSION } from './version.js';
import './zod-locale.js';

export interface CreateServerOptions {
  /** Enabled server plugins (any order: they are sorted by dependsOn). */
  plugins: readonly ServerPlugin[];
  /** PostgreSQL URL; unset → embedded PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  /**
   * PostgreSQL URL of the owner role that runs the migrations and grants the app role (default env
   * MIGRATION_DATABASE_URL); unset: the app role migrates (and owns audit_log), with a warning.
   */
  migrationDatabaseUrl?: string | undefined;
  /**
   * Key (and optional file) signing the audit chain's checkpoints (default from env
   * AUDIT_CHECKPOINT_KEY / AUDIT_CHECKPOINT_KEY_FILE / AUDIT_CHECKPOINT_FILE); null: none, with a warning.
   */
  auditAnchor?: AuditAnchor | null | undefined;
  /** Minutes between audit checkpoints, written when rows were added since (default env AUDIT_CHECKPOINT_MINUTES, else 5). */
  auditCheckpointMinutes?: number | undefined;
  /** Embedded database folder (default '.data'); 'memory://' for an in-memory database. */
  dataDir?: string | undefined;
  /** An already open database (tests); `databaseUrl`/`dataDir` are then ignored and close() closes it. */
  database?: Database | undefined;
  /** Folder of the built SPA (index.html + assets/) to serve for every non-/api GET path. */
  webDist?: string | undefined;
  /** Overrides the computed build id (sha256 of webDist/index.html, else of the server version). */
  buildId?: string | undefined;
  /** Version answered by /api/version (default: @app/server-core's). */
  version?: string | undefined;
  /** Create demo data on first run. Default: true on the embedded database, false on PostgreSQL. */
  seed?: boolean | undefined;
  /** Access token lifetime (default env TOKEN_TTL_SECONDS, else 900 = 15 min); never past the session's absolute end. */
  tokenTtlSeconds?: number | undefined;
  /** A session unused this long ends (default env SESSION_IDLE_MINUTES, else 30). */
  sessionIdleMinutes?: number | undefined;
  /** A session ends this long after the password sign-in (default env SESSION_ABSOLUTE_HOURS, else 12). */
  sessionAbsoluteHours?: number | undefined;
  /**
   * How long a session check is served from memory while the database notifies changes of sessions
   * (session-cache.ts; env SESSION_CACHE_SECONDS, default 30; 0: read on every request).
   */
  sessionCacheSeconds?: number | undefined;
  /** Time source for tokens, sessions, throttling and recovery links (tests move it). Default: Date.now. */
  clock?: Clock | undefined;
  /** Sign-in throttling limits (default 5 failures per account and 20 per address in 15 minutes). */
  throttle?: Partial<ThrottleOptions> | undefined;
  /**
   * Origin of links sent by e-mail (password recovery). Default env PUBLIC_URL, else
   * `http://localhost:${PORT}` (env PORT, the port the server listens on, else 3000). Never taken
   * from the request (Host, X-Forwarded-Host): anyone could send a user a link to their own server.
   */
  publicUrl?: string | undefined;
  /**
   * Bounds password hashing (128 MiB of scrypt each): default the process's shared queue, at most
   * min(cores - 1, UV_THREADPOOL_SIZE - 1) (at least 1) hashes at once and 16 waiting; sign-in and reset get 503 beyond.
   */
  hashQueue?: HashQueue | undefined;
  /** Outgoing e-mail (default: SMTP through nodemailer when env SMTP_URL/SMTP_FROM are set, else the outbox table). */
  mailer?: Mailer | undefined;
  /** Minimum answer time of /api/auth/recover (default 250 ms). */
  recoverMinDurationMs?: number | undefined;
  /** HS256 secret (default env JWT_SECRET, else generated once and stored in app_config). */
  jwtSecret?: string | undefined;
  appName?: string | undefined;
  /** Support phone when the entidade has none. */
  supportPhone?: string | undefined;
  /** What the web app does when devtools open (default env DEVTOOLS_POLICY, else 'report'). */
  devtoolsPolicy?: 'report' | 'ignore' | undefined;
  /** Trust X-Forwarded-* headers (default env TRUST_PROXY=1/true). */
  trustProxy?: boolean | undefined;
  logger?: Logger | undefined;
  /**
   * Durable jobs of the plugins (pg-boss, started only when a plugin declares `jobs`). Env JOBS=off:
   * this instance enqueues but runs no job (e.g. a server that only answers requests while others work
   * the queues); env JOBS_POLLING_SECONDS: how often an idle worker looks for jobs (default 2).
   */
  jobs?: JobsOptions | undefined;
  /**
   * Gives the JS heap's idle memory back to the system once no request came for a while (README,
   * "Memory of the embedded server"): default env HEAP_TRIM_IDLE_SECONDS (30); false or `{ idleMs: 0 }`: never.
   */
  heapTrim?: HeapTrimOptions | false | undefined;
}

export interface ComposedServer {
  /** The Hono app: pass `app.fetch` to @hono/node-server's serve(), or call `app.request()` in tests. */
  app: Hono<AppEnv>;
  db: Db;
  database: Database;
  plugins: readonly ServerPluginInfo[];
  buildId: string;
  /** Closes the database (PGlite is flushed to disk). */
  close(): Promise<void>;
}

function envTtl(): number {
  const raw = process.env.TOKEN_TTL_SECONDS;
  if (!raw) return 900;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`TOKEN_TTL_SECONDS must be a positive integer (got '${raw}').`);
  return value;
}

function positive(name: string, explicit: number | undefined, fallback: number): number {
  const raw = explicit ?? process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got '${raw}').`);
  return value;
}

function publicUrlOf(explicit: string | undefined): string {
  const raw = explicit ?? process.env.PUBLIC_URL;
  if (!raw) return `http://localhost:${process.env.PORT || 3000}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL (got '${raw}').`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an http(s) URL (got '${raw}').`);
  return url.toString().replace(/\/+$/, '');
}

async function resolveMailer(options: CreateServerOptions, outbox: Mailer, publicUrl: string, logger: Logger): Promise<Mailer> {
  if (options.mailer) return options.mailer;
  const url = process.env.SMTP_URL;
  if (!url) return outbox;
  const from = process.env.SMTP_FROM;
  if (!from) throw new Error('SMTP_FROM (the sender, e.g. "Compras <nao-responda@prefeitura.gov.br>") must be set with SMTP_URL.');
  if (!(options.publicUrl ?? process.env.PUBLIC_URL)) {
    logger.warn(`SMTP_URL definida sem PUBLIC_URL: os links de recuperação de senha apontarão para ${publicUrl}; defina PUBLIC_URL em produção.`);
  }
  return smtpMailer(url, from, logger);
}

/** JWT secret: env JWT_SECRET, else one generated on first start and shared through app_config. */
async function resolveJwtSecret(db: Db, explicit: string | undefined): Promise<string> {
  const fromEnv = explicit ?? process.env.JWT_SECRET;
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('JWT_SECRET must have at least 32 characters.');
    return fromEnv;
  }
  await db
    .insert(appConfig)
    .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing({ target: appConfig.key });
  const [row] = await db.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, 'jwt_secret'));
  return row!.value;
}

const brotli = promisify(zlib.brotliCompress);

/** Accept-Encoding names br with a weight above 0 (`br`, `br;q=0.5`; not `br;q=0`). */
function acceptsBrotli(header: string | undefined): boolean {
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== 'br') continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  }
  return false;
}

/** How often the embedded database is vacuumed and analysed, when something was written since. */
export const EMBEDDED_MAINTENANCE_MS = 5 * 60_000;

/**
 * Opens the database, runs core then plugin migrations (dependsOn order), seeds demo data on first
 * run (embedded), and builds the Hono app: security headers, /api (core routes + every plugin under
 * /api/<id>), uniform JSON errors, /api/openapi.json and, with `webDist`, the SPA.
 */
export async function createServer(options: CreateServerOptions): Promise<ComposedServer> {
  const logger = options.logger ?? consoleLogger;
  const plugins = composePlugins(options.plugins);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? envTtl();
  const openOptions: OpenDatabaseOptions = {
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    maintenanceIntervalMs: EMBEDDED_MAINTENANCE_MS,
    logger,
  };
  const database = options.database ?? (await openDatabase(openOptions));
  let stopJobs: () => Promise<void> = async () => undefined;
  let heapTrimmer: HeapTrimmer | undefined;
  let sessions: Awaited<ReturnType<typeof startSessionCache<SessionLookupRow>>> | undefined;
  try {
    await runMigrations(database, plugins, logger, {
      migrationDatabaseUrl: options.migrationDatabaseUrl ?? process.env.MIGRATION_DATABASE_URL,
    });
    const auditAnchor = options.auditAnchor === undefined ? auditAnchorFromEnv() : options.auditAnchor;
    setAuditAnchor(database.db, auditAnchor);
    const currentBuildId = options.buildId ? () => options.buildId! : liveBuildId(options.webDist, SERVER_CORE_VERSION);
    const buildId = currentBuildId();
    if (options.seed ?? database.engine === 'pglite') await seedDemo(database, plugins, { logger, buildId });
    const jwtSecret = await resolveJwtSecret(database.db, options.jwtSecret);
    const infos = plugins.map(pluginInfo);
    const policy = options.devtoolsPolicy ?? (process.env.DEVTOOLS_POLICY === 'ignore' ? 'ignore' : 'report');
    const clock = options.clock ?? systemClock;
    const publicUrl = publicUrlOf(options.publicUrl);
    const outbox = outboxMailer(database.db, clock);
    const mailer = await resolveMailer(options, outbox, publicUrl, logger);
    const pending = new Set<Promise<unknown>>();
    // after the migrations: the triggers that notify changes of sessions exist
    sessions = await startSessionCache<SessionLookupRow>(
      database,
      options.sessionCacheSeconds === undefined ? sessionCacheTtlMs() : options.sessionCacheSeconds * 1000,
      logger,
    );
    const runtime: Runtime = {
      sessionCache: sessions.cache,
      database,
      jwtSecret,
      tokenTtlSeconds,
      clock,
      sessionIdleMs: positive('SESSION_IDLE_MINUTES', options.sessionIdleMinutes, 30) * 60_000,
      sessionAbsoluteMs: positive('SESSION_ABSOLUTE_HOURS', options.sessionAbsoluteHours, 12) * 3_600_000,
      throttle: { ...DEFAULT_THROTTLE, ...options.throttle },
      publicUrl,
      hashQueue: options.hashQueue ?? sharedHashQueue,
      mailer,
      outbox,
      recoverMinDurationMs: options.recoverMinDurationMs ?? 250,
      background: (task) => {
        const tracked = task.catch(() => undefined).finally(() => pending.delete(tracked));
        pending.add(tracked);
      },
      plugins: infos,
      contributions: collectContributions(plugins),
      coreVersion: SERVER_CORE_VERSION,
      appVersion: options.version ?? SERVER_CORE_VERSION,
      get buildId() {
        return currentBuildId();
      },
      appName: options.appName ?? 'Compras',
      supportPhone: options.supportPhone ?? '(11) 4002-8922',
      devtoolsPolicy: policy,
      trustProxy: options.trustProxy ?? /^(1|true|yes)$/i.test(process.env.TRUST_PROXY ?? ''),
      logger,
    };
    const jobs = createJobsService({
      database,
      plugins,
      logger,
      clock,
      systemMutate: (plugin) => createMutate(runtime, { plugin, usuarioId: null, entidadeId: null, ip: null }),
      options: options.jobs,
      migrationDatabaseUrl: options.migrationDatabaseUrl ?? process.env.MIGRATION_DATABASE_URL,
    });
    // started before the app so that its middleware sees every request; its first trim gives back the start's garbage
    heapTrimmer = options.heapTrim === false ? undefined : startHeapTrimmer(options.heapTrim);
    const app = buildApp(runtime, plugins, options.webDist, jobs, heapTrimmer);
    const started = Date.now();
    await jobs.start();
    if (jobs.enabled) logger.info(`tarefas em segundo plano iniciadas em ${Date.now() - started} ms`);
    stopJobs = () => jobs.stop();
    const checkpoints = startAuditCheckpoints(database, auditAnchor ?? null, options.auditCheckpointMinutes, logger);
    await checkpoints.now();
    return {
      app,
      db: database.db,
      database,
      plugins: infos,
      buildId,
      close: async () => {
        // e-mails still being sent finish first (they may fall back to the outbox table)
        await Promise.allSettled([...pending]);
        heapTrimmer?.stop();
        await jobs.stop();
        await checkpoints.stop();
        await sessions?.close();
        await database.close();
      },
    };
  } catch (err) {
    heapTrimmer?.stop();
    await stopJobs().catch(() => undefined);
    await sessions?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Signed checkpoints of the audit chain: one at start, then every few minutes when rows were added, and
 * a last one at close. Without a key: a warning, and nothing anchors the chain outside the database.
 */
function startAuditCheckpoints(database: Database, anchor: AuditAnchor | null, minutes: number | undefined, logger: Logger) {
  if (!anchor) {
    logger.warn(
      'AUDIT_CHECKPOINT_KEY não definida: a trilha de auditoria não tem âncora fora do banco de dados; quem puder escrever nele ' +
        '(sem passar pelo sistema) poderia apagar as linhas mais recentes, ou editar uma e recalcular a cadeia, sem ser notado (README, "Audit trail").',
    );
    return { now: async () => undefined, stop: async () => undefined };
  }
  const write = () =>
    writeAuditCheckpoint(database.db, anchor).then(
      () => undefined,
      (err: unknown) => logger.warn(`audit checkpoint failed: ${(err as Error).message}`),
    );
  let running: Promise<void> = countForeignCheckpoints(database.db, anchor).then(
    (n) => {
      if (n > 0) logger.warn(`${n} audit checkpoint(s) were signed with another AUDIT_CHECKPOINT_KEY: verification will report them as invalid.`);
    },
    () => undefined,
  );
  const now = () => {
    running = running.then(write);
    return running;
  };
  const timer = setInterval(now, positive('AUDIT_CHECKPOINT_MINUTES', minutes, 5) * 60_000);
  timer.unref();
  return {
    now,
    stop: async () => {
      clearInterval(timer);
      await now();
    },
  };
}

function buildApp(
  runtime: Runtime,
  plugins: readonly ServerPlugin[],
  webDist: string | undefined,
  jobs: JobsService,
  heapTrimmer: HeapTrimmer | undefined,
): Hono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  // a request in progress (until its handler has answered) holds off the idle heap trim
  if (heapTrimmer) {
    app.use('*', async (_c, next) => {
      const end = heapTrimmer.begin();
      try {
        await next();
      } finally {
        end();
      }
    });
  }
  const baseCtx = (id: string, version: string): PluginContext => ({
    db: runtime.database.db,
    engine: runtime.database.engine,
    plugin: { id, version },
    plugins: runtime.plugins,
    contributions: runtime.contributions,
    coreVersion: runtime.coreVersion,
    buildId: runtime.buildId,
    logger: runtime.logger,
    jobs: jobs.forPlugin(id),
  });

  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: 'DENY',
      xContentTypeOptions: true,
      referrerPolicy: 'strict-origin-when-cross-origin',
      strictTransportSecurity: false,
    }),
  );
  // JSON and text answers above 1 KB are gzipped when the client accepts it (hono/compress: never
  // PDFs, XLSX or other already-compressed types, never server-sent events, never a response that
  // already has a Content-Encoding, such as the SPA's precompressed assets).
  app.use('*', compress());
  // JSON answers are built whole in memory: give them their Content-Length, so that compress()
  // leaves the small ones (below its 1 KB threshold) as they are; from 1 KB, brotli when the client
  // accepts it (every current browser does). compress() has only gzip and deflate, and brotli at
  // quality 4 is both smaller and faster than gzip: the 500 × 10 mapa comparativo, 4.5 MB of JSON, is
  // 350 KB in 20 ms against gzip's 545 KB in 26 ms. zlib compresses off the event loop.
  app.use('*', async (c, next) => {
    await next();
    const res = c.res;
    if (!res.body || res.headers.has('Content-Length') || !res.headers.get('Content-Type')?.startsWith('application/json')) return;
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (
      bytes.byteLength >= 1024 &&
      acceptsBrotli(c.req.header('Accept-Encoding')) &&
      !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')
    ) {
      const compressed = await brotli(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
      });
      c.res = new Response(compressed, res);
      c.res.headers.set('Content-Encoding', 'br');
      c.res.headers.set('Content-Length', String(compressed.byteLength));
      c.res.headers.append('Vary', 'Accept-Encoding');
      const etag = c.res.headers.get('ETag');
      if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
      return;
    }
    c.res = new Response(bytes, res);
    c.res.headers.set('Content-Length', String(bytes.byteLength));
  });
  // the OpenAPI document (416 KB) is revalidated: 304 while it is the same
  app.use('/api/openapi.json', etag());
  app.use('*', async (c, next) => {
    await next();
    // HSTS only means something over HTTPS (directly, or behind a proxy that terminates TLS).
    const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (new URL(c.req.url).protocol === 'https:' || forwarded === 'https') {
      c.res.headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
  });
  app.use('/api/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  // Connection: close on a 413: the unread rest of the body must not be taken for the next request on
  // a keep-alive connection; the client opens a new one (node closes this one after the answer).
  const limitOf = (maxSize: number, message: string): MiddlewareHandler<AppEnv> =>
    bodyLimit({
      maxSize,
      onError: (c) => c.json(new AppError(413, 'payload_too_large', message).toJSON(), 413, { Connection: 'close' }),
    });
  const defaultLimit = limitOf(1024 * 1024, 'A requisição é grande demais (máximo 1 MB).');
  // routes that declare their own `bodyLimit` (file uploads), filled as the plugins' routes are declared
  const routeLimits: { method: string; pattern: RegExp; limit: MiddlewareHandler<AppEnv> }[] = [];
  const bodyLimits: RouteBodyLimits = {
    add: (method, path, rule) => {
      const pattern = new RegExp(
        `^${path
          .split('/')
          .map((part) => (/^(:\w+|\{\w+\})$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}$`,
      );
      routeLimits.push({ method: method.toUpperCase(), pattern, limit: limitOf(rule.maxBytes, rule.message) });
    },
  };
  app.use('/api/*', (c, next) => {
    const own = routeLimits.find((r) => r.method === c.req.method && r.pattern.test(c.req.path));
    return (own?.limit ?? defaultLimit)(c, next);
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });

  let document: unknown;
  const openApiDocument = () => {
    document ??= app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: `${runtime.appName} API`,
        version: runtime.appVersion,
        description: 'Rotas com x-permission-tag exigem token (Bearer) e a tag no perfil do usuário na entidade da sessão; x-public: true dispensa token.',
      },
      // relative: the server that serves this document (its paths start with /api)
      servers: [{ url: '/', description: 'Este servidor' }],
    });
    return document;
  };
  registerCoreRoutes(app, baseCtx('core', runtime.coreVersion), runtime, openApiDocument);

  for (const plugin of plugins) {
    const sub = new OpenAPIHono<AppEnv>();
    const ctx = baseCtx(plugin.id, plugin.version);
    plugin.routes(createPluginRouter(sub, ctx, runtime, { prefix: `/api/${plugin.id}`, limits: bodyLimits }), ctx);
    app.route(`/api/${plugin.id}`, sub);
  }
  // every operation of /api/openapi.json has its own operationId (a client's method name)
  assertUniqueOperationIds(
    app.openAPIRegistry.definitions.flatMap((d) =>
      d.type === 'route' ? [{ operationId: d.route.operationId, method: d.route.method, path: d.route.path }] : [],
    ),
  );

  if (webDist && !mountSpa(app, webDist)) {
    runtime.logger.warn(`build da interface web não encontrado em ${webDist} (rode o build do web): servindo só a API`);
  }

  app.notFound((c) => c.json({ error: { code: 'not_found', message: 'Recurso não encontrado.' } }, 404));
  app.onError((err, c) => toErrorResponse(err, c, runtime.logger));
  return app;
}
