// Worker thread entry of the XLSX writer pool (spreadsheet-pool.ts, writeXlsxInWorker): writes one
// workbook at a time (xlsx.ts) and answers the bytes, handed over without a copy. Built as its own
// tsup entry (dist/xlsx-worker.js); under vitest the pool bundles this source on the fly.
import { parentPort } from 'node:worker_threads';
import { fromJson } from './pieces.js';
import { applyWorkerNice } from './worker-priority.js';
import { type XlsxSheet, xlsxWorkbook } from './xlsx.js';

/** The sheets as they were (cloned), or as JSON text written by pieces (a background job's, pieces.ts). */
export type XlsxTaskMessage = { id: number; sheets: XlsxSheet[]; json?: undefined } | { id: number; json: string; sheets?: undefined };

// a background lane's worker gives way to the request thread (its pool's nice value)
applyWorkerNice();

const port = parentPort;
if (port) {
  port.on('message', (task: XlsxTaskMessage) => {
    try {
      const written = xlsxWorkbook(task.json === undefined ? task.sheets : fromJson<XlsxSheet[]>(task.json));
      // an ArrayBuffer of its own: a small Buffer is a view of Node's shared pool (and Buffer#slice
      // is a view too: copy through Uint8Array's)
      const bytes =
        written.byteOffset === 0 && written.byteLength === written.buffer.byteLength && written.buffer instanceof ArrayBuffer
          ? written.buffer
          : Uint8Array.prototype.slice.call(written).buffer;
      port.postMessage({ id: task.id, ok: true, bytes }, [bytes]);
    } catch (err) {
      port.postMessage({ id: task.id, ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  });
}
