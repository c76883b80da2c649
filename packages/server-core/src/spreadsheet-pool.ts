// The spreadsheet files of import requests are read in worker threads (spreadsheet-worker.ts), never
// on the request thread: a big file only keeps one worker busy while /api/health and everyone else
// are still answered. A bounded pool: COMPRAS_IMPORT_WORKERS workers (default 1 on a 2-core
// machine, at most 2), each reading one file at a time, a queue of at most 8 files waiting (more
// answers 429), each worker's heap capped (out of memory answers 413) and a file taking more than
// 2 minutes abandoned (its worker terminated, 413). Idle workers exit after 30 s.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from './errors.js';
import type { ParsedSheet, SpreadsheetFormat, SpreadsheetLimits, SpreadsheetReadOptions, SpreadsheetReadStats } from './spreadsheet-read.js';

const SIZE = Math.max(1, Number(process.env.COMPRAS_IMPORT_WORKERS) || Math.min(2, Math.max(1, availableParallelism() - 1)));
const MAX_QUEUE = 8;
const TIMEOUT_MS = 120_000;
const IDLE_MS = 30_000;
const HEAP_MB = 768;

type Answer =
  | { id: number; ok: true; sheet: ParsedSheet }
  | { id: number; ok: false; error: { status: 400 | 413; code: string; message: string; fields?: Record<string, string>; stats?: SpreadsheetReadStats } };

interface Task {
  id: number;
  bytes: Uint8Array;
  format: SpreadsheetFormat;
  limits: SpreadsheetLimits;
  options: SpreadsheetReadOptions;
  resolve: (sheet: ParsedSheet) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** The file's problem, with how much was read (tests check a bomb was not read to the end). */
export type SpreadsheetAppError = AppError & { stats?: SpreadsheetReadStats };

function appError(status: 400 | 413 | 429, code: string, message: string, fields?: Record<string, string>, stats?: SpreadsheetReadStats): SpreadsheetAppError {
  // the import page shows fields.arquivo under the file input: the whole message by default
  const err = new AppError(status, code, message, fields ?? { arquivo: message }) as SpreadsheetAppError;
  if (stats) err.stats = stats;
  return err;
}

// ---------------------------------------------------------------------------------------------
// Where the worker is: dist/spreadsheet-worker.js next to the built chunk (tsup entry); from the
// source (vitest), src/spreadsheet-worker.ts bundled once with esbuild (tsup's own) into
// node_modules/.cache, where exceljs and papaparse still resolve from the package.

let workerUrl: Promise<URL> | undefined;

async function locateWorker(): Promise<URL> {
  const built = new URL('./spreadsheet-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  const source = new URL('./spreadsheet-worker.ts', import.meta.url);
  if (!existsSync(fileURLToPath(source))) throw new Error(`spreadsheet-worker.js not found next to ${import.meta.url}`);
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
  const dir = fileURLToPath(new URL('../node_modules/.cache/compras-spreadsheet-worker/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `worker-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // several test processes may do this at once: write aside, then rename (atomic)
    writeFileSync(`${file}.${process.pid}`, code);
    renameSync(`${file}.${process.pid}`, file);
  }
  return pathToFileURL(file);
}

// ---------------------------------------------------------------------------------------------

const slots: Slot[] = [];
const queue: Task[] = [];
let nextId = 1;
/** Workers being started. */
let pending = 0;

async function spawn(): Promise<Slot> {
  workerUrl ??= locateWorker().catch((err) => {
    workerUrl = undefined;
    throw err;
  });
  const worker = new Worker(await workerUrl, { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
  const slot: Slot = { worker, task: undefined, timer: undefined };
  worker.unref();
  worker.on('message', (answer: Answer) => {
    const task = slot.task;
    if (!task || answer.id !== task.id) return;
    finish(slot);
    if (answer.ok) task.resolve(answer.sheet);
    else {
      const e = answer.error;
      task.reject(appError(e.status, e.code, e.message, e.fields, e.stats));
    }
    next();
  });
  worker.on('error', (err) => {
    const task = slot.task;
    slot.task = undefined;
    remove(slot);
    const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    task?.reject(
      outOfMemory
        ? appError(413, 'planilha_memoria', 'A planilha é grande demais para ser lida: divida o arquivo.')
        : appError(400, 'validation', 'Não foi possível ler a planilha: confira se o arquivo é um .csv ou .xlsx válido.'),
    );
    next();
  });
  worker.on('exit', () => {
    const task = slot.task;
    remove(slot);
    task?.reject(appError(400, 'validation', 'Não foi possível ler a planilha: envie o arquivo novamente.'));
    next();
  });
  slots.push(slot);
  return slot;
}

function remove(slot: Slot): void {
  if (slot.timer) clearTimeout(slot.timer);
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
}

/** The slot is free again: unref its worker and let it exit after a while without work. */
function finish(slot: Slot): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.task = undefined;
  slot.worker.unref();
  slot.timer = setTimeout(() => {
    if (!slot.task) {
      remove(slot);
      void slot.worker.terminate();
    }
  }, IDLE_MS);
  slot.timer.unref();
}

function start(slot: Slot, task: Task): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.task = task;
  slot.worker.ref();
  slot.timer = setTimeout(() => {
    if (slot.task !== task) return;
    slot.task = undefined;
    remove(slot);
    void slot.worker.terminate();
    task.reject(appError(413, 'planilha_tempo', 'A planilha demorou demais para ser lida: divida o arquivo.'));
    next();
  }, TIMEOUT_MS);
  // a copy the worker owns (the upload's buffer may be a slice of a shared one)
  // (Buffer#slice is a view: copy through a new Uint8Array)
  const copy = new Uint8Array(task.bytes.byteLength);
  copy.set(task.bytes);
  const bytes = copy.buffer;
  slot.worker.postMessage({ id: task.id, bytes, format: task.format, limits: task.limits, options: task.options }, [bytes]);
}

function next(): void {
  while (queue.length > 0) {
    const free = slots.find((s) => !s.task);
    if (free) {
      start(free, queue.shift()!);
      continue;
    }
    if (slots.length + pending >= SIZE) return;
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
  if (queue.length >= MAX_QUEUE) {
    return Promise.reject(
      new AppError(429, 'importacoes_ocupadas', 'Há muitas planilhas sendo lidas agora: tente novamente em instantes.', undefined, { 'Retry-After': '10' }),
    );
  }
  return new Promise<ParsedSheet>((resolve, reject) => {
    queue.push({ id: nextId++, bytes, format, limits, options, resolve, reject });
    next();
  });
}

/** Workers alive, busy, and files waiting (for benchmarks and tests). */
export function spreadsheetPoolStats(): { size: number; workers: number; busy: number; queued: number } {
  return { size: SIZE, workers: slots.length, busy: slots.filter((s) => s.task).length, queued: queue.length };
}
