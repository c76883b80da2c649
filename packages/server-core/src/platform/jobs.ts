// Durable jobs of server plugins, on pg-boss: a queue kept in the application's own database (schema
// `pgboss`), on the embedded PGlite and on PostgreSQL alike.
//
// - A plugin declares its queues with `jobs: { publicar: defineJob({ schema, handler, options }) }`;
//   each queue is named `<pluginId>.<queue>` in pg-boss, so plugins cannot collide.
// - `ctx.jobs.send(tx, 'publicar', { id })` inside ctx.mutate writes the job row in the same
//   transaction (pg-boss's fromDrizzle adapter): a rolled-back action leaves no job.
// - The server starts pg-boss once, after the migrations, creates every queue with its options and
//   works them (one job at a time per queue and instance); close() stops it. Env JOBS=off: this
//   instance still enqueues (and answers get/list/cancel/retry) but runs no job and does no
//   supervision, for a server that must only answer requests.
//
// Payloads carry ids only: they are stored as plain JSON in the database and shown to whoever can read
// it. Never put a secret (token, password, certificate) in a payload; the handler reads what it needs
// from its own tables or the configuration.
import { sql } from 'drizzle-orm';
import { type Db as BossDb, type JobWithMetadata, PgBoss, fromDrizzle } from 'pg-boss';
import type { z } from 'zod';
import type { Clock } from './clock.js';
import type { MutateFn } from './context.js';
import { openDatabase } from './db/open.js';
import type { Database, DatabaseEngine, Db, Tx } from './db/types.js';
import type { JobInfo, PluginJobs, SendJobOptions } from './jobs-api.js';
import type { Logger } from './logger.js';

export type { JobInfo, PluginJobs, SendJobOptions } from './jobs-api.js';

/** Queue policies of pg-boss (see its docs, "Queues"): how many jobs of a queue (or of a singletonKey) may wait or run. */
export type JobPolicy = 'standard' | 'short' | 'singleton' | 'stately' | 'exclusive' | 'key_strict_fifo';

/** Options of a queue (pg-boss's queue options); every job of the queue inherits them. */
export interface JobQueueOptions {
  /** Retries after the first attempt before the job fails for good (default 2). */
  retryLimit?: number;
  /** Seconds before a retry (default 0; with retryBackoff, the base of the exponential delay). */
  retryDelay?: number;
  /** Exponential back-off with jitter: about retryDelay · 2^retryCount (default false). */
  retryBackoff?: boolean;
  /** Cap of the back-off delay, in seconds. */
  retryDelayMax?: number;
  /** Seconds an attempt may run before it counts as failed (and is retried), default 900. */
  expireInSeconds?: number;
  /** The running worker refreshes a heartbeat this often (≥ 10 s): a job of a dead server is retried after it. */
  heartbeatSeconds?: number;
  /** Default 'standard'. 'singleton'/'stately'/'exclusive'/'key_strict_fifo' combine with `singletonKey`. */
  policy?: JobPolicy;
  /** Seconds a completed job is kept (default 7 days). */
  deleteAfterSeconds?: number;
}

/** One run of a job, as its handler receives it. */
export interface JobRun<T> {
  /** The job's id (stays the same across attempts). */
  id: string;
  /** Queue name inside the plugin ('publicar'). */
  queue: string;
  /** The payload, validated by the queue's schema. */
  data: T;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** Aborted when the server stops while the job runs: stop early (the job is then retried). */
  signal: AbortSignal;
}

/** What a handler receives besides the job: the database, an audited transaction as the system, logger, clock. */
export interface JobContext {
  db: Db;
  engine: DatabaseEngine;
  plugin: { id: string; version: string };
  /**
   * Runs `fn` in one transaction, like a route's ctx.mutate; audit rows are written as done by the
   * system (no user: the audit log shows 'Sistema'), with `entidadeId` passed in each entry.
   */
  mutate: MutateFn;
  /** The plugin's queues: a handler may enqueue the next step (also inside `mutate`, with its tx). */
  jobs: PluginJobs;
  logger: Logger;
  clock: Clock;
  jobId: string;
  queue: string;
  attempt: number;
  /** Retries allowed after the first attempt (from the queue's options). */
  retryLimit: number;
  signal: AbortSignal;
}

/** What a handler may return: kept as the job's output (JSON). */
export type JobOutput = Record<string, unknown> | undefined;

export interface JobDefinition<TInput = unknown, TData = unknown> {
  readonly kind: 'compras-job';
  readonly schema: z.ZodType<TData, TInput>;
  readonly handler: (job: JobRun<TData>, ctx: JobContext) => Promise<JobOutput> | Promise<void>;
  readonly options: Readonly<JobQueueOptions>;
}

/**
 * Declares a queue of a server plugin:
 *
 *   jobs: { publicar: defineJob({ schema: z.object({ id: z.uuid() }), handler: async (job, jctx) => {...}, options: { retryLimit: 5 } }) }
 *
 * The payload is validated by `schema` when sent and again when run. Throw to retry (per the queue's
 * retry options); throw `new JobFailed(message)` to fail at once, without retries. The handler may run
 * more than once for the same job (a retry, a server that died mid-job): make it idempotent.
 */
export function defineJob<S extends z.ZodType>(definition: {
  schema: S;
  handler: (job: JobRun<z.output<S>>, ctx: JobContext) => Promise<JobOutput> | Promise<void>;
  options?: JobQueueOptions;
}): JobDefinition<z.input<S>, z.output<S>> {
  if (!definition.schema || typeof definition.schema.safeParse !== 'function') throw new Error('defineJob: schema (a zod schema) is required.');
  if (typeof definition.handler !== 'function') throw new Error('defineJob: handler(job, ctx) is required.');
  const options = { ...definition.options };
  if (options.heartbeatSeconds !== undefined && (!Number.isInteger(options.heartbeatSeconds) || options.heartbeatSeconds < 10)) {
    throw new Error('defineJob: heartbeatSeconds must be an integer of at least 10.');
  }
  return Object.freeze({
    kind: 'compras-job' as const,
    schema: definition.schema as unknown as z.ZodType<z.output<S>, z.input<S>>,
    handler: definition.handler,
    options: Object.freeze(options),
  });
}

export function isJobDefinition(value: unknown): value is JobDefinition {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'compras-job';
}

/** Thrown by a handler: the job fails now, whatever retries remain (e.g. the remote system rejected the data). */
export class JobFailed extends Error {
  override readonly name = 'JobFailed';
  /** Kept with the message as the job's output (JSON). */
  readonly output: Record<string, unknown> | undefined;
  constructor(message: string, output?: Record<string, unknown>) {
    super(message);
    this.output = output;
  }
}

export interface JobsOptions {
  /** Run jobs on this instance (default: env JOBS is not 'off'). Off: it only enqueues and reads. */
  work?: boolean | undefined;
  /** How often an idle worker looks for jobs, in seconds (≥ 0.5; default env JOBS_POLLING_SECONDS, else 2). */
  pollingIntervalSeconds?: number | undefined;
  /** How often expired jobs (dead worker, no heartbeat) are detected and retried, in seconds (≥ 1; default env JOBS_SUPERVISE_SECONDS, else 60). */
  superviseIntervalSeconds?: number | undefined;
}

interface PluginQueues {
  id: string;
  version: string;
  jobs: Readonly<Record<string, JobDefinition>>;
}

export interface JobsService {
  /** Whether any enabled plugin declares a queue (pg-boss is started only then). */
  readonly enabled: boolean;
  forPlugin(pluginId: string): PluginJobs;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const QUEUE_NAME = /^[a-z][a-z0-9-]*$/;

/** Validates a plugin's `jobs` declaration (called by defineServerPlugin). */
export function checkJobsDeclaration(pluginId: string, jobs: Record<string, unknown> | undefined): void {
  for (const [name, job] of Object.entries(jobs ?? {})) {
    if (!QUEUE_NAME.test(name)) throw new Error(`Server plugin '${pluginId}': job queue '${name}' must match ${QUEUE_NAME}.`);
    if (!isJobDefinition(job)) throw new Error(`Server plugin '${pluginId}': job queue '${name}' must be made by defineJob().`);
  }
}

function fullName(pluginId: string, queue: string): string {
  return `${pluginId}.${queue}`;
}

interface PgliteClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows?: unknown[] }[]>;
  transaction<T>(fn: (tx: { exec(text: string): Promise<{ rows?: unknown[] }[]> }) => Promise<T>): Promise<T>;
}

const LOCKED_BLOCK = /^\s*BEGIN\s*;([\s\S]*?)COMMIT\s*;\s*$/i;

/**
 * pg-boss's database: the application's own client. Embedded: the client of db/open.ts, so every
 * pg-boss statement waits its turn in the SerialQueue like any query (an app transaction holds the
 * single connection until it ends; pg-boss never runs inside it, and code that calls pg-boss while
 * holding it fails at once instead of waiting forever). A `BEGIN; …; COMMIT;` block of pg-boss runs
 * as one PGlite transaction, so a failure rolls back in the same turn and never leaves the shared
 * connection in an aborted transaction. PostgreSQL: the application's pg Pool (pool.query gives a
 * failed connection back with its error, and the pool drops it).
 */
function bossDatabase(database: Database): BossDb {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.engine === 'pglite') {
    const pglite = client as PgliteClient;
    const flatten = (results: { rows?: unknown[] }[]) => ({ rows: results.flatMap((r) => r.rows ?? []) });
    return {
      executeSql: async (text, values) => {
        if (values?.length) return { rows: (await pglite.query(text, values)).rows };
        const block = LOCKED_BLOCK.exec(text);
        if (block) return flatten(await pglite.transaction((tx) => tx.exec(block[1]!)));
        return flatten(await pglite.exec(text));
      },
    };
  }
  const pool = client as { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] } | { rows: unknown[] }[]> };
  return {
    executeSql: async (text, values) => {
      const result = await pool.query(text, values);
      return Array.isArray(result) ? { rows: result.flatMap((r) => r.rows ?? []) } : result;
    },
  };
}

function toInfo(queue: string, job: JobWithMetadata<unknown>): JobInfo {
  return {
    id: job.id,
    queue,
    state: job.state,
    data: job.data,
    retryCount: job.retryCount,
    retryLimit: job.retryLimit,
    singletonKey: job.singletonKey,
    startAfter: job.startAfter,
    startedOn: job.startedOn ?? null,
    createdOn: job.createdOn,
    completedOn: job.completedOn ?? null,
    output: job.output ?? null,
  };
}

function errorOutput(err: unknown): Record<string, unknown> {
  if (err instanceof JobFailed) return { ...err.output, message: err.message };
  if (err instanceof Error) return { message: err.message };
  return { message: String(err) };
}

function envWork(): boolean {
  const raw = process.env.JOBS?.trim().toLowerCase();
  return !(raw === 'off' || raw === '0' || raw === 'false');
}

/** A number of seconds from the environment, `fallback` when unset; at least `min` (an integer when asked). */
function envSeconds(name: string, fallback: number, min: number, integer = false): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} of at least ${min} (got '${raw}').`);
  }
  return value;
}

export interface CreateJobsServiceOptions {
  database: Database;
  plugins: readonly PluginQueues[];
  logger: Logger;
  clock: Clock;
  /** ctx.mutate audited as the system (no user, no ip) for the plugin. */
  systemMutate(pluginId: string): MutateFn;
  options?: JobsOptions | undefined;
  /**
   * PostgreSQL with two roles (MIGRATION_DATABASE_URL): the owner creates the schema `pgboss` and lets
   * the app role create pg-boss's tables in it (the app role may not create schemas).
   */
  migrationDatabaseUrl?: string | undefined;
}

const SCHEMA = 'pgboss';

/** The owner role creates the schema of the queue and gives the app role USAGE and CREATE on it. */
async function prepareSchemaAsOwner(database: Database, ownerUrl: string, logger: Logger): Promise<void> {
  const [me] = await database.withRawClient((raw) => raw.query<{ role: string }>('SELECT current_user AS role'));
  const role = `"${me!.role.replace(/"/g, '""')}"`;
  const owner = await openDatabase({ databaseUrl: ownerUrl, poolMax: 1, logger });
  try {
    await owner.withRawClient((raw) => raw.exec(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}; GRANT USAGE, CREATE ON SCHEMA ${SCHEMA} TO ${role};`));
  } finally {
    await owner.close();
  }
}

/** Builds the jobs of a server: `forPlugin(id)` is `ctx.jobs`; start() after the migrations, stop() at close. */
export function createJobsService(config: CreateJobsServiceOptions): JobsService {
  const { database, logger } = config;
  const byPlugin = new Map(config.plugins.map((p) => [p.id, p]));
  const enabled = config.plugins.some((p) => Object.keys(p.jobs).length > 0);
  const work = config.options?.work ?? envWork();
  const pollingIntervalSeconds = config.options?.pollingIntervalSeconds ?? envSeconds('JOBS_POLLING_SECONDS', 2, 0.5);
  const superviseIntervalSeconds = config.options?.superviseIntervalSeconds ?? envSeconds('JOBS_SUPERVISE_SECONDS', 60, 1, true);
  let boss: PgBoss | undefined;
  // the started instance, also while start() creates the queues
  let working: PgBoss | undefined;
  let stopping = false;
  // the worker of each queue on this instance (pg-boss queue name → worker id)
  const workers = new Map<string, string>();
  // Wakes this instance's worker of a queue: it fetches now instead of at its next poll. After a send
  // (on PGlite the fetch waits in the SerialQueue for the sending transaction to end, so it finds the
  // job; on PostgreSQL a job sent in a transaction still open waits for the next poll, or another
  // instance's) and after each job run (a backlog is drained one job after another, not one per poll).
  const wake = (name: string) => {
    const worker = workers.get(name);
    if (worker) working?.notifyWorker(worker);
  };

  const running = (): PgBoss => {
    if (!boss) throw new Error('Jobs are not running on this server (no plugin declares jobs, or the server is closed).');
    return boss;
  };
  const definitionOf = (pluginId: string, queue: string): JobDefinition => {
    const job = byPlugin.get(pluginId)?.jobs[queue];
    if (!job) throw new Error(`Plugin '${pluginId}' has no job queue '${queue}' (declare it in defineServerPlugin({ jobs })).`);
    return job;
  };

  const forPlugin = (pluginId: string): PluginJobs => {
    const send = async (...args: unknown[]): Promise<string | null> => {
      const tx = typeof args[0] === 'string' ? undefined : (args.shift() as Tx);
      const [queue, data, options = {}] = args as [string, unknown, SendJobOptions | undefined];
      const definition = definitionOf(pluginId, queue);
      const parsed = definition.schema.safeParse(data);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
        throw new Error(`Job '${fullName(pluginId, queue)}': invalid payload (${issues}).`);
      }
      const { startAfter, ...rest } = options;
      const id = await running().send(fullName(pluginId, queue), (parsed.data ?? {}) as object, {
        ...rest,
        ...(startAfter === undefined ? {} : { startAfter }),
        ...(tx ? { db: fromDrizzle(tx as never, sql as never) } : {}),
      });
      if (id && startAfter === undefined) wake(fullName(pluginId, queue));
      return id;
    };
    return {
      send: send as PluginJobs['send'],
      get: async (queue, id) => {
        definitionOf(pluginId, queue);
        const [job] = await running().findJobs<unknown>(fullName(pluginId, queue), { id });
        return job ? toInfo(queue, job) : null;
      },
      list: async (queue, options = {}) => {
        definitionOf(pluginId, queue);
        const jobs = await running().findJobs<unknown>(fullName(pluginId, queue), {
          limit: options.limit ?? 100,
          ...(options.key === undefined ? {} : { key: options.key }),
          ...(options.after === undefined ? {} : { after: options.after }),
        });
        return jobs.map((job) => toInfo(queue, job));
      },
      cancel: async (queue, id) => {
        definitionOf(pluginId, queue);
        await running().cancel(fullName(pluginId, queue), id);
      },
      retry: async (queue, id) => {
        definitionOf(pluginId, queue);
        await running().retry(fullName(pluginId, queue), id);
      },
    };
  };

  const runJob = async (plugin: PluginQueues, queue: string, definition: JobDefinition, job: JobWithMetadata<unknown>) => {
    const name = fullName(plugin.id, queue);
    const attempt = job.retryCount + 1;
    const parsed = definition.schema.safeParse(job.data);
    if (!parsed.success) {
      logger.error(`job ${name} ${job.id}: invalid payload, failed without retries`, parsed.error.issues);
      return { id: job.id, status: 'deadletter' as const, output: { message: 'Dados da tarefa inválidos.' } };
    }
    const ctx: JobContext = {
      db: database.db,
      engine: database.engine,
      plugin: { id: plugin.id, version: plugin.version },
      mutate: config.systemMutate(plugin.id),
      jobs: forPlugin(plugin.id),
      logger,
      clock: config.clock,
      jobId: job.id,
      queue,
      attempt,
      retryLimit: job.retryLimit,
      signal: job.signal,
    };
    try {
      const result = await definition.handler({ id: job.id, queue, data: parsed.data, attempt, signal: job.signal }, ctx);
      return { id: job.id, status: 'completed' as const, output: result ?? undefined };
    } catch (err) {
      if (err instanceof JobFailed) {
        logger.warn(`job ${name} ${job.id} failed (attempt ${attempt}, no retries): ${err.message}`);
        return { id: job.id, status: 'deadletter' as const, output: errorOutput(err) };
      }
      const last = job.retryCount >= job.retryLimit;
      logger.warn(
        `job ${name} ${job.id} failed (attempt ${attempt} of ${job.retryLimit + 1}${last ? '' : ', will retry'}): ${(err as Error)?.message ?? String(err)}`,
      );
      return { id: job.id, status: 'failed' as const, output: errorOutput(err) };
    }
  };

  return {
    enabled,
    forPlugin,
    start: async () => {
      if (!enabled || boss) return;
      const ownerUrl = database.engine === 'postgres' ? config.migrationDatabaseUrl : undefined;
      if (ownerUrl) await prepareSchemaAsOwner(database, ownerUrl, logger);
      const instance = new PgBoss({
        db: bossDatabase(database),
        ...(database.engine === 'pglite' ? { backend: 'pglite' as const } : {}),
        schema: SCHEMA,
        // prepared by the owner role: the app role may not run CREATE SCHEMA, even IF NOT EXISTS
        createSchema: !ownerUrl,
        // an instance that does not work jobs leaves supervision (expiry of dead workers' jobs) to those that do
        supervise: work,
        schedule: false,
        superviseIntervalSeconds,
        monitorIntervalSeconds: superviseIntervalSeconds,
      });
      instance.on('error', (err: unknown) => {
        if (!stopping) logger.error('pg-boss', err);
      });
      await instance.start();
      working = instance;
      try {
        for (const plugin of config.plugins) {
          for (const [queue, definition] of Object.entries(plugin.jobs)) {
            const name = fullName(plugin.id, queue);
            const { policy, ...options } = definition.options;
            const existing = await instance.getQueue(name);
            if (!existing) await instance.createQueue(name, { ...options, ...(policy ? { policy } : {}) });
            else {
              // a queue's policy is fixed when created; its other options follow the plugin's declaration
              if ((existing.policy ?? 'standard') !== (policy ?? 'standard')) {
                logger.warn(`fila ${name}: a política '${existing.policy}' no banco difere da declarada ('${policy ?? 'standard'}'); mantida a do banco`);
              }
              await instance.updateQueue(name, {
                retryLimit: options.retryLimit ?? 2,
                retryDelay: options.retryDelay ?? 0,
                retryBackoff: options.retryBackoff ?? false,
                retryDelayMax: options.retryDelayMax ?? null,
                expireInSeconds: options.expireInSeconds ?? 900,
                heartbeatSeconds: options.heartbeatSeconds ?? null,
                ...(options.deleteAfterSeconds === undefined ? {} : { deleteAfterSeconds: options.deleteAfterSeconds }),
              });
            }
            if (!work) continue;
            const worker = await instance.work<unknown, unknown, { batchSize: 1; includeMetadata: true; perJobResults: true; pollingIntervalSeconds: number }>(
              name,
              { batchSize: 1, includeMetadata: true, perJobResults: true, pollingIntervalSeconds },
              async ([job]) => {
                if (!job) return [];
                const result = await runJob(plugin, queue, definition, job);
                wake(name);
                return [result];
              },
            );
            workers.set(name, worker);
          }
        }
      } catch (err) {
        stopping = true;
        working = undefined;
        await instance.stop({ graceful: false }).catch(() => undefined);
        throw err;
      }
      boss = instance;
    },
    stop: async () => {
      const instance = boss;
      if (!instance) return;
      stopping = true;
      working = undefined;
      workers.clear();
      // running handlers get 10 s to finish (they may still enqueue); jobs still running then are failed (and retried later)
      await instance.stop({ graceful: true, timeout: 10_000 }).catch((err: unknown) => logger.warn(`pg-boss stop: ${(err as Error).message}`));
      boss = undefined;
    },
  };
}
