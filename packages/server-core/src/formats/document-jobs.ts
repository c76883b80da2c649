// How many heavy documents ONE person may have in the making at once (issue 18): a PDF or an XLSX
// workbook is counted from the moment its route starts loading the data until the file is written
// (or the request fails or is abandoned), per person and per kind, on this server instance.
// COMPRAS_DOCUMENTS_PER_PERSON (default 2) of each kind; one more answers 429 in pt-BR with
// Retry-After, before any data is loaded. So one person firing 20 requests keeps at most 2 in the
// queue of the workers, and everyone else's documents (and every other request) still get their turn.
//
// The data of a document is loaded on the request thread (with PGlite the SQL itself runs there)
// and its content built there too: at most COMPRAS_DOCUMENTS_LOADING (default 2) documents are
// loading at once on the instance, whoever asked them; the others wait their turn (FIFO) before
// loading, so a storm of big documents never stacks dozens of loads in front of /api/health and the
// lists. A job stops counting as loading at job.check() (the data is loaded: the worker pools'
// queues take over).
//
// The request's AbortSignal (c.req.raw.signal; @hono/node-server aborts it when the connection
// closes before the answer is sent) travels with the job: a document whose client has gone is
// not rendered (job.check() between loading and rendering; the worker pools drop it from their
// queue or terminate the worker rendering it), and its slot is freed at once.
import { AppError } from '../platform/errors.js';
import { clientGone } from './spreadsheet-pool.js';

export type DocumentKind = 'pdf' | 'xlsx';

/** Documents of each kind one person may have in the making at once (COMPRAS_DOCUMENTS_PER_PERSON, default 2). */
export const DOCUMENTS_PER_PERSON = Math.max(1, Math.trunc(Number(process.env.COMPRAS_DOCUMENTS_PER_PERSON)) || 2);

/** Documents loading their data at once on this instance (COMPRAS_DOCUMENTS_LOADING, default 2). */
export const DOCUMENTS_LOADING = Math.max(1, Math.trunc(Number(process.env.COMPRAS_DOCUMENTS_LOADING)) || 2);

export interface DocumentJob {
  /** The request's signal: hand it to renderDocumentPdf / writeXlsxInWorker. */
  signal: AbortSignal | undefined;
  /**
   * Call it once the data is loaded, before rendering: the job stops counting as loading (the next
   * document may load), and it throws the clientGone() error when the client has left meanwhile.
   */
  check(): void;
}

const held = new Map<string, number>();
let refused = 0;
let loading = 0;
const waiting: (() => void)[] = [];

/** Hands the loading turn to the next job waiting, or frees it. */
function releaseLoading(): void {
  const next = waiting.shift();
  if (next) next();
  else loading--;
}

/** Waits for a loading turn (FIFO); rejects with clientGone() when `signal` aborts meanwhile. The release, callable more than once. */
async function loadingTurn(signal: AbortSignal | undefined): Promise<() => void> {
  if (loading < DOCUMENTS_LOADING) loading++;
  else {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1);
        reject(clientGone());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.push(go);
    });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    releaseLoading();
  };
}

const busy = (kind: DocumentKind) =>
  new AppError(
    429,
    'documentos_por_pessoa',
    kind === 'pdf'
      ? `Você já tem ${DOCUMENTS_PER_PERSON} PDFs sendo gerados: aguarde terminarem para pedir outro.`
      : `Você já tem ${DOCUMENTS_PER_PERSON} planilhas sendo geradas: aguarde terminarem para pedir outra.`,
    undefined,
    { 'Retry-After': '5' },
  );

/**
 * Runs `work` (load the data, then render with `job.signal`) as one of the `kind` documents of
 * `person` (a user id). Throws a 429 AppError when that person already has DOCUMENTS_PER_PERSON of
 * them in the making, and the clientGone() error when `signal` is already aborted.
 */
export async function withDocumentJob<T>(
  kind: DocumentKind,
  person: string,
  signal: AbortSignal | undefined,
  work: (job: DocumentJob) => Promise<T>,
): Promise<T> {
  if (signal?.aborted) throw clientGone();
  const key = `${kind}:${person}`;
  const count = held.get(key) ?? 0;
  if (count >= DOCUMENTS_PER_PERSON) {
    refused++;
    throw busy(kind);
  }
  held.set(key, count + 1);
  let loaded: (() => void) | undefined;
  try {
    loaded = await loadingTurn(signal);
    const done = loaded;
    return await work({
      signal,
      check() {
        done();
        if (signal?.aborted) throw clientGone();
      },
    });
  } finally {
    loaded?.();
    const left = (held.get(key) ?? 1) - 1;
    if (left > 0) held.set(key, left);
    else held.delete(key);
  }
}

/** The same for a route: the signed-in person and the request's signal. */
export function documentJob<T>(
  c: { req: { raw: Request } },
  ctx: { user: { id: string } },
  kind: DocumentKind,
  work: (job: DocumentJob) => Promise<T>,
): Promise<T> {
  return withDocumentJob(kind, ctx.user.id, c.req.raw.signal, work);
}

/** Documents in the making per `kind:person`, how many were refused (429) since the start, and how many load or wait to (tests, benchmarks). */
export function documentJobStats(): { inProgress: Record<string, number>; refused: number; loading: number; waitingToLoad: number } {
  return { inProgress: Object.fromEntries(held), refused, loading, waitingToLoad: waiting.length };
}
