// Worker thread entry of the PDF pool (pdf.ts): renders one document at a time from the plain
// `PdfDocument` (the pdfmake definition, with its functions, is built here) and answers the bytes,
// handed over without a copy. Built as its own tsup entry (dist/pdf-worker.js); under vitest the
// pool bundles this source on the fly.
import { parentPort } from 'node:worker_threads';
import { type PdfDocument, renderDocumentPdfInThisThread } from './pdf.js';
import { fromJson } from './pieces.js';
import { applyWorkerNice } from './worker-priority.js';

/** The document as it was (cloned), or as JSON text written by pieces (a background job's, pieces.ts). */
export type PdfTaskMessage = { id: number; doc: PdfDocument; json?: undefined } | { id: number; json: string; doc?: undefined };

// a background lane's worker gives way to the request thread (its pool's nice value)
applyWorkerNice();

const port = parentPort;
if (port) {
  port.on('message', async (task: PdfTaskMessage) => {
    try {
      const rendered = await renderDocumentPdfInThisThread(task.json === undefined ? task.doc : fromJson<PdfDocument>(task.json));
      // an ArrayBuffer of its own (a small Buffer may be a view of Node's shared pool)
      const bytes =
        rendered.byteOffset === 0 && rendered.byteLength === rendered.buffer.byteLength && rendered.buffer instanceof ArrayBuffer
          ? rendered.buffer
          : rendered.slice().buffer;
      port.postMessage({ id: task.id, ok: true, bytes }, [bytes]);
    } catch (err) {
      port.postMessage({ id: task.id, ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  });
}
