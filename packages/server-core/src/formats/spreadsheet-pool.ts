// The spreadsheet files of import requests are read in worker threads (spreadsheet-worker.ts), never
// on the request thread: a big file only keeps one worker busy while /api/health and everyone else
// are still answered. A bounded pool: COMPRAS_IMPORT_WORKERS workers (default 1 on a 2-core
// machine, at most 2), each reading one file at a time, a queue of at most 8 files waiting (more
// answers 429), each worker's heap capped (out of memory answers 413) and a file taking more than
// 2 minutes abandoned (its worker terminated, 413). Idle workers exit after 30 s.
//
// The pool itself is generic (createWorkerPool): pdf.ts renders PDFs with it too (pdf-worker.ts), and
// XLSX workbooks are written with it (writeXlsxInWorker, xlsx-worker.ts). A task may carry the
// request's AbortSignal: a task whose client has gone leaves the queue, or has its worker terminated.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../paths.js';
import { AppError } from '../platform/errors.js';
import { toJson } from './pieces.js';
import type { ParsedSheet, SpreadsheetFormat, SpreadsheetLimits, SpreadsheetReadOptions, SpreadsheetReadStats } from './spreadsheet-read.js';
import type { XlsxSheet } from './xlsx.js';

// ---------------------------------------------------------------------------------------------
// A bounded pool of worker threads running one entry (e.g. spreadsheet-worker), one task per worker
// at a time.

/** What a pool answers when it cannot do the task (each pool its own pt-BR errors). */
export interface WorkerPoolErrors {
  /** The queue is full. */
  busy(): Error;
  /** The task ran longer than `timeoutMs` (its worker was terminated). */
  timeout(): Error;
  /** The worker ran out of its heap. */
  outOfMemory(): Error;
  /** The worker failed otherwise (an uncaught error). */
  crashed(): Error;
  /** The worker exited during the task. */
  exited(): Error;
  /** The task's signal was aborted (the client left): the task was dropped or its worker terminated. */
  aborted?(): Error;
}

/** What a task of a pool answers when its request was abandoned (the client is gone: nobody reads it). */
export const clientGone = () =>
  // 499 (nginx's "client closed request"): not a server error, and nobody receives it
  new AppError(499 as 400, 'cliente_desistiu', 'O pedido foi cancelado: o navegador deixou de esperar pela resposta.');

/** Options of one task. */
export interface WorkerTaskOptions {
  /**
   * The request's signal (`c.req.raw.signal`): once aborted, a waiting task leaves the queue and a
   * running one has its worker terminated (a new one starts for the next task); the task rejects with
   * `errors.aborted()` (default: clientGone()).
   */
  signal?: AbortSignal | undefined;
  /**
   * This task's own time limit once it runs, instead of the pool's `timeoutMs` (e.g. a background
   * job's document, allowed longer than one a person waits for).
   */
  timeoutMs?: number | undefined;
}

/** Workers alive, busy, tasks waiting, and counters since the start (tests and benchmarks). */
export interface WorkerPoolStats {
  size: number;
  workers: number;
  busy: number;
  queued: number;
  /** Tasks handed to a worker. */
  started: number;
  /** Tasks dropped from the queue because their signal was aborted (never handed to a worker). */
  droppedWaiting: number;
  /** Tasks whose worker was terminated because their signal was aborted during the work. */
  cancelledRunning: number;
}

export interface WorkerPoolOptions<In, Out> {
  /** The worker entry's file name without extension: dist/<name>.js, or src/<name>.ts under vitest. */
  worker: string;
  size: number;
  maxQueue: number;
  timeoutMs: number;
  heapMb: number;
  idleMs?: number;
  /**
   * The nice value of the pool's worker threads (Linux; worker-priority.ts): a background lane's workers
   * give way to the request thread on a busy machine. Default 0 (the process's priority).
   */
  nice?: number;
  /** The message posted to the worker for task `id`, and what it hands over (transfer list). */
  message(id: number, input: In): { message: unknown; transfer?: ArrayBuffer[] };
  /** The worker's answer (a message carrying `id`): the value, or the error to reject with. */
  answer(message: { id: number; ok: boolean }): { ok: true; value: Out } | { ok: false; error: unknown };
  errors: WorkerPoolErrors;
}

export interface WorkerPool<In, Out> {
  /**
   * Runs one task in a worker; rejects with `errors.busy()` when `maxQueue` tasks already wait, and
   * with `errors.aborted()` once `options.signal` is aborted (the task dropped or its worker terminated).
   */
  run(input: In, options?: WorkerTaskOptions): Promise<Out>;
  /** Workers alive, busy, tasks waiting, and counters (for benchmarks and tests). */
  stats(): WorkerPoolStats;
}

interface Task<In, Out> {
  id: number;
  input: In;
  resolve: (value: Out) => void;
  reject: (err: unknown) => void;
  /** Whether the task's signal is aborted. */
  aborted?: () => boolean;
  /** Its own time limit (WorkerTaskOptions.timeoutMs). */
  timeoutMs?: number;
}

interface Slot<In, Out> {
  worker: Worker;
  task: Task<In, Out> | undefined;
  timer: NodeJS.Timeout | undefined;
}

// Where a worker is: dist/<name>.js next to the built chunk (a tsup entry); from the source
// (vitest), src/formats/<name>.ts bundled once with esbuild (tsup's own) into node_modules/.cache, where
// the package's dependencies still resolve.
async function locateWorker(name: string): Promise<URL> {
  const built = new URL(`./${name}.js`, import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  const source = new URL(`./${name}.ts`, import.meta.url);
  if (!existsSync(fileURLToPath(source))) throw new Error(`${name}.js not found next to ${import.meta.url}`);
  const require = createRequire(import.meta.url);
  const esbuildPath = createRequire(require.resolve('tsup')).resolve('esbuild');
  const esbuild = (await import(pathToFileURL(esbuildPath).href)) as {
    build(options: Record<string, unknown>): Promise<{ outputFiles: { contents: Uint8Array }[] }>;
  };
  const out = await esbuild.build({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  const dir = fileURLToPath(new URL(`node_modules/.cache/compras-${name}/`, PACKAGE_ROOT));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `worker-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // several test processes may do this at once: write aside, then rename (atomic)
    writeFileSync(`${file}.${process.pid}`, code);
    renameSync(`${file}.${process.pid}`, file);
  }
  return pathToFileURL(file);
}

/** A pool of at most `size` workers (started on demand, exiting after `idleMs` without work). */
export function createWorkerPool<In, Out>(options: WorkerPoolOptions<In, Out>): WorkerPool<In, Out> {
  const { size, maxQueue, timeoutMs, heapMb, errors } = options;
  const idleMs = options.idleMs ?? 30_000;
  const slots: Slot<In, Out>[] = [];
  const queue: Task<In, Out>[] = [];
  let nextId = 1;
  /** Workers being started. */
  let pending = 0;
  const counters = { started: 0, droppedWaiting: 0, cancelledRunning: 0 };
  const aborted = errors.aborted ?? clientGone;
  let workerUrl: Promise<URL> | undefined;

  async function spawn(): Promise<Slot<In, Out>> {
    workerUrl ??= locateWorker(options.worker).catch((err) => {
      workerUrl = undefined;
      throw err;
    });
    const worker = new Worker(await workerUrl, { resourceLimits: { maxOldGenerationSizeMb: heapMb }, workerData: { nice: options.nice ?? 0 } });
    const slot: Slot<In, Out> = { worker, task: undefined, timer: undefined };
    worker.unref();
    worker.on('message', (message: { id: number; ok: boolean }) => {
      const task = slot.task;
      if (!task || message.id !== task.id) return;
      finish(slot);
      const answer = options.answer(message);
      if (answer.ok) task.resolve(answer.value);
      else task.reject(answer.error);
      next();
    });
    worker.on('error', (err) => {
      const task = slot.task;
      slot.task = undefined;
      remove(slot);
      const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      task?.reject(outOfMemory ? errors.outOfMemory() : errors.crashed());
      next();
    });
    worker.on('exit', () => {
      const task = slot.task;
      remove(slot);
      task?.reject(errors.exited());
      next();
    });
    slots.push(slot);
    return slot;
  }

  function remove(slot: Slot<In, Out>): void {
    if (slot.timer) clearTimeout(slot.timer);
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
  }

  /** The slot is free again: unref its worker and let it exit after a while without work. */
  function finish(slot: Slot<In, Out>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = undefined;
    slot.worker.unref();
    slot.timer = setTimeout(() => {
      if (!slot.task) {
        remove(slot);
        void slot.worker.terminate();
      }
    }, idleMs);
    slot.timer.unref();
  }

  /** The task's signal was aborted: out of the queue, or its worker terminated while it runs. */
  function abort(task: Task<In, Out>): void {
    const waiting = queue.indexOf(task);
    if (waiting >= 0) {
      queue.splice(waiting, 1);
      counters.droppedWaiting++;
      task.reject(aborted());
      return;
    }
    const slot = slots.find((s) => s.task === task);
    if (slot) {
      // pdfmake and the writers are synchronous: the only way to stop one is to end its thread
      slot.task = undefined;
      remove(slot);
      void slot.worker.terminate();
      counters.cancelledRunning++;
      task.reject(aborted());
      next();
    }
    // otherwise its worker is being started: start() sees the signal
  }

  function start(slot: Slot<In, Out>, task: Task<In, Out>): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (task.aborted?.()) {
      // left while its worker was starting: never run
      counters.droppedWaiting++;
      finish(slot);
      task.reject(aborted());
      next();
      return;
    }
    slot.task = task;
    counters.started++;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      if (slot.task !== task) return;
      slot.task = undefined;
      remove(slot);
      void slot.worker.terminate();
      task.reject(errors.timeout());
      next();
    }, task.timeoutMs ?? timeoutMs);
    try {
      const { message, transfer } = options.message(task.id, task.input);
      slot.worker.postMessage(message, transfer);
    } catch (err) {
      // e.g. a value that cannot be cloned: this task fails, the worker stays free
      finish(slot);
      task.reject(err);
    }
  }

  function next(): void {
    while (queue.length > 0) {
      const free = slots.find((s) => !s.task);
      if (free) {
        start(free, queue.shift()!);
        continue;
      }
      if (slots.length + pending >= size) return;
      const task = queue.shift()!;
      pending++;
      spawn()
        .then((slot) => {
          pending--;
          start(slot, task);
        })
        .catch((err) => {
          pending--;
          task.reject(err);
          next();
        });
    }
  }

  return {
    run(input: In, runOptions: WorkerTaskOptions = {}): Promise<Out> {
      const { signal } = runOptions;
      const own = runOptions.timeoutMs;
      if (own !== undefined && !(Number.isFinite(own) && own > 0)) return Promise.reject(new RangeError(`timeoutMs: ${own} is not a positive number`));
      if (signal?.aborted) return Promise.reject(aborted());
      if (queue.length >= maxQueue) return Promise.reject(errors.busy());
      return new Promise<Out>((resolve, reject) => {
        const onAbort = () => abort(task);
        const settle = () => signal?.removeEventListener('abort', onAbort);
        const task: Task<In, Out> = {
          id: nextId++,
          input,
          resolve: (value) => {
            settle();
            resolve(value);
          },
          reject: (err) => {
            settle();
            reject(err);
          },
          ...(signal ? { aborted: () => signal.aborted } : {}),
          ...(own === undefined ? {} : { timeoutMs: own }),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(task);
        next();
      });
    },
    stats() {
      return { size, workers: slots.length, busy: slots.filter((s) => s.task).length, queued: queue.length, ...counters };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The spreadsheet pool

type Answer =
  | { id: number; ok: true; sheet: ParsedSheet }
  | { id: number; ok: false; error: { status: 400 | 413; code: string; message: string; fields?: Record<string, string>; stats?: SpreadsheetReadStats } };

interface SpreadsheetTask {
  bytes: Uint8Array;
  format: SpreadsheetFormat;
  limits: SpreadsheetLimits;
  options: SpreadsheetReadOptions;
}

/** The file's problem, with how much was read (tests check a bomb was not read to the end). */
export type SpreadsheetAppError = AppError & { stats?: SpreadsheetReadStats };

function appError(status: 400 | 413 | 429, code: string, message: string, fields?: Record<string, string>, stats?: SpreadsheetReadStats): SpreadsheetAppError {
  // the import page shows fields.arquivo under the file input: the whole message by default
  const err = new AppError(status, code, message, fields ?? { arquivo: message }) as SpreadsheetAppError;
  if (stats) err.stats = stats;
  return err;
}

const spreadsheetPool = createWorkerPool<SpreadsheetTask, ParsedSheet>({
  worker: 'spreadsheet-worker',
  size: Math.max(1, Number(process.env.COMPRAS_IMPORT_WORKERS) || Math.min(2, Math.max(1, availableParallelism() - 1))),
  maxQueue: 8,
  timeoutMs: 120_000,
  heapMb: 768,
  message(id, task) {
    // a copy the worker owns (the upload's buffer may be a slice of a shared one)
    // (Buffer#slice is a view: copy through a new Uint8Array)
    const copy = new Uint8Array(task.bytes.byteLength);
    copy.set(task.bytes);
    const bytes = copy.buffer;
    return { message: { id, bytes, format: task.format, limits: task.limits, options: task.options }, transfer: [bytes] };
  },
  answer(message) {
    const answer = message as Answer;
    if (answer.ok) return { ok: true, value: answer.sheet };
    const e = answer.error;
    return { ok: false, error: appError(e.status, e.code, e.message, e.fields, e.stats) };
  },
  errors: {
    busy: () =>
      new AppError(429, 'importacoes_ocupadas', 'Há muitas planilhas sendo lidas agora: tente novamente em instantes.', undefined, { 'Retry-After': '10' }),
    timeout: () => appError(413, 'planilha_tempo', 'A planilha demorou demais para ser lida: divida o arquivo.'),
    outOfMemory: () => appError(413, 'planilha_memoria', 'A planilha é grande demais para ser lida: divida o arquivo.'),
    crashed: () => appError(400, 'validation', 'Não foi possível ler a planilha: confira se o arquivo é um .csv ou .xlsx válido.'),
    exited: () => appError(400, 'validation', 'Não foi possível ler a planilha: envie o arquivo novamente.'),
  },
});

/**
 * Reads a file in a worker thread within `limits`. Rejects with an AppError: 400 (unreadable), 413
 * (over a bound, pt-BR message naming it; `stats` says how much was read) or 429 (too many files
 * waiting).
 */
export function readSpreadsheetInWorker(
  bytes: Uint8Array,
  format: SpreadsheetFormat,
  limits: SpreadsheetLimits,
  options: SpreadsheetReadOptions = {},
): Promise<ParsedSheet> {
  return spreadsheetPool.run({ bytes, format, limits, options });
}

/** Workers alive, busy, and files waiting (for benchmarks and tests). */
export function spreadsheetPoolStats(): WorkerPoolStats {
  return spreadsheetPool.stats();
}

// ---------------------------------------------------------------------------------------------
// The XLSX writer pool: workbooks (list exports, the memória de cálculo, quote forms) are written in
// worker threads (xlsx-worker.ts) too, never on the request thread: building the XML and deflating
// it takes seconds for a big workbook. COMPRAS_XLSX_WORKERS workers (default 1 on a 2-core machine,
// at most 2), a queue of at most 16 workbooks (more answers 429), each worker's heap capped and a
// workbook taking more than 2 minutes abandoned (413); background jobs' workbooks in a lane of their own.

type XlsxAnswer = { id: number; ok: true; bytes: ArrayBuffer } | { id: number; ok: false; message: string };

const xlsxError = (message: string) => new AppError(413, 'planilha_grande', message);

/** A positive integer from the environment, or `fallback`. */
const fromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/**
 * The nice value of the background lanes' workers (PDF and XLSX of background jobs): COMPRAS_BACKGROUND_NICE,
 * 0 to 19 (default 10; 0 keeps the process's priority).
 */
export function backgroundNice(): number {
  const raw = process.env.COMPRAS_BACKGROUND_NICE;
  const value = raw === undefined || raw === '' ? 10 : Number(raw);
  return Number.isInteger(value) && value >= 0 && value <= 19 ? value : 10;
}

/** The sheets for the worker: as they are (cloned by postMessage), or as JSON text written by pieces (pieces.ts). */
type XlsxTaskInput = { sheets: readonly XlsxSheet[] } | { json: string };

function createXlsxPool(size: number, timeoutMs: number, heapMb: number, nice = 0) {
  return createWorkerPool<XlsxTaskInput, Uint8Array>({
    worker: 'xlsx-worker',
    nice,
    size,
    maxQueue: 16,
    timeoutMs,
    heapMb,
    // structured clone: strings, numbers, Dates and { decimal, places } cells (or one string)
    message: (id, input) => ({ message: { id, ...input } }),
    answer(message) {
      const answer = message as XlsxAnswer;
      return answer.ok ? { ok: true, value: new Uint8Array(answer.bytes) } : { ok: false, error: new Error(`XLSX: ${answer.message}`) };
    },
    errors: {
      busy: () =>
        new AppError(429, 'planilhas_ocupadas', 'Há muitas planilhas sendo geradas agora: tente novamente em instantes.', undefined, { 'Retry-After': '5' }),
      timeout: () => xlsxError('A planilha é grande demais para ser gerada: demorou demais. Use filtros para exportar menos linhas.'),
      outOfMemory: () => xlsxError('A planilha é grande demais para ser gerada. Use filtros para exportar menos linhas.'),
      crashed: () => new Error('XLSX: o gerador de planilhas falhou.'),
      exited: () => new Error('XLSX: o gerador de planilhas parou durante a planilha.'),
    },
  });
}

const xlsxPool = createXlsxPool(Math.max(1, Number(process.env.COMPRAS_XLSX_WORKERS) || Math.min(2, Math.max(1, availableParallelism() - 1))), 120_000, 768);

// The background lane: background jobs' workbooks (a report of 200 000 rows) in worker(s) of their
// own, so the exports people wait for never queue behind one, at a lower priority (backgroundNice);
// COMPRAS_XLSX_BACKGROUND_WORKERS (default 1), a time limit of COMPRAS_XLSX_BACKGROUND_MINUTES (default 20), a heap of
// COMPRAS_XLSX_BACKGROUND_HEAP_MB (default 2048).
const xlsxBackgroundPool = createXlsxPool(
  fromEnv('COMPRAS_XLSX_BACKGROUND_WORKERS', 1),
  fromEnv('COMPRAS_XLSX_BACKGROUND_MINUTES', 20) * 60_000,
  fromEnv('COMPRAS_XLSX_BACKGROUND_HEAP_MB', 2048),
  backgroundNice(),
);

/** Options of one workbook: as any task's, and `background` for a background job's (its own lane, longer limits). */
export interface XlsxWriteOptions extends WorkerTaskOptions {
  /** A workbook made by a background job, never one a person waits for: the background lane. */
  background?: boolean;
}

/**
 * The workbook (xlsx.ts's xlsxWorkbook) written in a worker thread: the request thread stays free.
 * Rejects with a 429 AppError when too many workbooks wait, 413 when one is too big, and the
 * clientGone() error once `options.signal` is aborted.
 */
export async function writeXlsxInWorker(sheets: readonly XlsxSheet[], options: XlsxWriteOptions = {}): Promise<Uint8Array> {
  if (sheets.length === 0) throw new Error('xlsxWorkbook: no sheet');
  const { background, ...task } = options;
  if (!background) return xlsxPool.run({ sheets }, task);
  // a background job's workbook is big: written as JSON by pieces here, so handing it over does not hold this thread
  return xlsxBackgroundPool.run({ json: await toJson(sheets) }, task);
}

/** XLSX writer workers alive, busy, workbooks waiting, and counters (for benchmarks and tests); `background`: the background lane's. */
export function xlsxPoolStats(options: { background?: boolean } = {}): WorkerPoolStats {
  return (options.background ? xlsxBackgroundPool : xlsxPool).stats();
}
