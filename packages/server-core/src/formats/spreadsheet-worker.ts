// Worker thread entry of spreadsheet-pool.ts: reads one file at a time (spreadsheet-read.ts) and
// answers the sheet, or the pt-BR problem of the file. Built as its own tsup entry
// (dist/spreadsheet-worker.js); under vitest the pool bundles this source on the fly.
import { parentPort } from 'node:worker_threads';
import { type SpreadsheetFormat, type SpreadsheetLimits, SpreadsheetReadError, type SpreadsheetReadOptions, readSpreadsheetBytes } from './spreadsheet-read.js';

export interface SpreadsheetTaskMessage {
  id: number;
  bytes: ArrayBuffer;
  format: SpreadsheetFormat;
  limits: SpreadsheetLimits;
  options?: SpreadsheetReadOptions;
}

const port = parentPort;
if (port) {
  port.on('message', async (task: SpreadsheetTaskMessage) => {
    try {
      const sheet = await readSpreadsheetBytes(new Uint8Array(task.bytes), task.format, task.limits, task.options);
      port.postMessage({ id: task.id, ok: true, sheet });
    } catch (err) {
      const error =
        err instanceof SpreadsheetReadError
          ? { status: err.status, code: err.code, message: err.message, fields: err.fields, stats: err.stats }
          : { status: 400, code: 'validation', message: 'Não foi possível ler a planilha: confira se o arquivo é um .csv ou .xlsx válido.' };
      port.postMessage({ id: task.id, ok: false, error });
    }
  });
}
