// What a plugin's code sees of its durable job queues (`ctx.jobs`); the queues themselves are in jobs.ts.
import type { Tx } from './db/types.js';

/** A job's row, as a progress screen needs it. */
export interface JobInfo {
  id: string;
  /** Queue name inside the plugin. */
  queue: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: unknown;
  /** Retries so far (0 while the first attempt waits or runs). */
  retryCount: number;
  retryLimit: number;
  singletonKey: string | null;
  /** Not run before this time (the next retry's time while in 'retry'). */
  startAfter: Date;
  startedOn: Date | null;
  createdOn: Date;
  completedOn: Date | null;
  /** What the handler returned, or `{ message }` of its last error. */
  output: unknown;
}

export interface SendJobOptions {
  /** With policy singleton/stately/exclusive/key_strict_fifo: jobs of the same key are deduplicated or serialised. */
  singletonKey?: string;
  /** Run no sooner than this date, or this many seconds from now. */
  startAfter?: Date | number;
  /** Higher runs first (default 0). */
  priority?: number;
}

/** `ctx.jobs`: the plugin's own queues, by the name declared in `jobs`. */
export interface PluginJobs {
  /**
   * Enqueues a job in the transaction `tx` (a ctx.mutate's): it exists only if the transaction commits.
   * Answers the job's id, or null when the queue's policy refused a duplicate (same singletonKey).
   */
  send(tx: Tx, queue: string, data: unknown, options?: SendJobOptions): Promise<string | null>;
  /** Enqueues a job now, outside any transaction (never inside ctx.mutate's callback: pass its tx). */
  send(queue: string, data: unknown, options?: SendJobOptions): Promise<string | null>;
  get(queue: string, id: string): Promise<JobInfo | null>;
  /** The queue's jobs still kept (oldest first, at most `limit`, default 100), optionally of one singletonKey. */
  list(queue: string, options?: { key?: string; limit?: number; after?: string }): Promise<JobInfo[]>;
  /** Cancels a job that has not finished (a running attempt is not interrupted; its result is ignored). */
  cancel(queue: string, id: string): Promise<void>;
  /** Runs a failed or cancelled job again. */
  retry(queue: string, id: string): Promise<void>;
}
