// Giving the JS heap's idle memory back to the system (issue 23; README, "Memory of the embedded server").
//
// After a burst of work (the start: migrations, the seed, the plugins' routes and the OpenAPI
// registry; a heavy request) V8 keeps what its heap grew to: the young generation stays at the size
// it grew to (~120 MiB after a start) and the pages a GC frees are pooled for reuse, still resident.
// Only a memory-reducing GC hands them back, and V8 schedules one (its memory reducer) only while
// something allocates: an idle server kept ~150 MiB of empty heap pages for as long as it stayed idle.
// So once the server has had no request for a while, and its RSS grew since the last time, it asks V8
// for that GC itself: a pause of a few hundred ms (measured 0.3 to 0.7 s on a 50 MiB heap) at a
// moment nobody is waiting, at most once per quiet period.
import v8 from 'node:v8';
import vm from 'node:vm';

type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => unknown;

let v8Gc: GcFunction | undefined;

/** V8's gc(): globalThis.gc under --expose-gc, else taken once from a context created with the flag on. */
function gcFunction(): GcFunction {
  if (v8Gc) return v8Gc;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') {
    v8Gc = exposed as GcFunction;
    return v8Gc;
  }
  v8.setFlagsFromString('--expose-gc');
  try {
    v8Gc = vm.runInNewContext('gc') as GcFunction;
  } finally {
    // contexts created from now on (vm, workers) do not get a global gc()
    v8.setFlagsFromString('--no-expose-gc');
  }
  return v8Gc;
}

/**
 * A memory-reducing full GC, synchronous: compacts the heap, shrinks the young generation and gives
 * pooled pages back to the system (what V8's memory reducer does, `flavor: 'last-resort'`; a plain
 * `gc()` keeps the pages pooled). Blocks the thread for a few hundred ms.
 */
export function trimHeap(): void {
  gcFunction()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** The idle heap trim (createServer's `heapTrim`): when it trims; the functions are for tests. */
export interface HeapTrimOptions {
  /**
   * Quiet time, with no request in progress, before the heap is trimmed (default env
   * HEAP_TRIM_IDLE_SECONDS, else 30 s). 0: never trim.
   */
  idleMs?: number | undefined;
  /** Trim again only when the RSS grew this much since the last trim (default 32 MiB). */
  minGrowthBytes?: number | undefined;
  /** What trims (default trimHeap; tests pass their own). */
  trim?: (() => void) | undefined;
  /** The process's resident memory (default process.memoryUsage.rss; tests pass their own). */
  rss?: (() => number) | undefined;
  /** Time in ms (default performance.now; tests pass their own). */
  now?: (() => number) | undefined;
}

export interface HeapTrimStats {
  /** Trims done. */
  trims: number;
  /** RSS in bytes right after the last trim. */
  rssAfterLastTrim: number | undefined;
  /** How long the last trim held the thread, in ms. */
  lastTrimMs: number | undefined;
}

export interface HeapTrimmer {
  /** A request starts: no trim while it runs; call the function returned when it ends. */
  begin(): () => void;
  /** Trims now if the server is idle and the RSS grew (the timer calls it); whether it trimmed. */
  check(): boolean;
  stats(): HeapTrimStats;
  stop(): void;
}

const MiB = 1024 * 1024;

function idleFromEnv(): number {
  const raw = process.env.HEAP_TRIM_IDLE_SECONDS;
  if (raw === undefined || raw === '') return 30_000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`HEAP_TRIM_IDLE_SECONDS must be 0 (never) or a number of seconds (got '${raw}').`);
  return value * 1000;
}

/**
 * Trims the heap (trimHeap) once the server has been idle for `idleMs` and its RSS grew by
 * `minGrowthBytes` since the last trim (the first one: the start's garbage). Checked by an unref'd
 * timer every third of `idleMs`; stop() ends it.
 */
export function startHeapTrimmer(options: HeapTrimOptions = {}): HeapTrimmer {
  const idleMs = options.idleMs ?? idleFromEnv();
  const minGrowth = options.minGrowthBytes ?? 32 * MiB;
  const trim = options.trim ?? trimHeap;
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let lastActivity = now();
  const stats: HeapTrimStats = { trims: 0, rssAfterLastTrim: undefined, lastTrimMs: undefined };

  const check = (): boolean => {
    if (idleMs <= 0 || inFlight > 0 || now() - lastActivity < idleMs) return false;
    if (stats.rssAfterLastTrim !== undefined && rss() < stats.rssAfterLastTrim + minGrowth) return false;
    const started = now();
    trim();
    stats.trims++;
    stats.lastTrimMs = now() - started;
    stats.rssAfterLastTrim = rss();
    return true;
  };

  const timer = idleMs > 0 ? setInterval(check, Math.max(10, Math.round(idleMs / 3))) : undefined;
  timer?.unref();

  return {
    begin() {
      inFlight++;
      lastActivity = now();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        lastActivity = now();
      };
    },
    check,
    stats: () => ({ ...stats }),
    stop() {
      clearInterval(timer);
    },
  };
}
