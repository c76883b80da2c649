import { defineConfig } from 'tsup';
import { external, packageOptions } from '../../tsup.base';

export default defineConfig(
  packageOptions(process.cwd(), {
    // spreadsheet-worker: the worker thread that reads import files (spreadsheet-pool.ts loads
    // dist/spreadsheet-worker.js next to the chunk that holds the pool); pdf-worker: the one that
    // renders PDFs (pdf.ts, same pool); xlsx-worker: the one that writes XLSX workbooks (same pool).
    entry: ['src/index.ts', 'src/testing.ts', 'src/orm.ts', 'src/pg-core.ts', 'src/spreadsheet-worker.ts', 'src/pdf-worker.ts', 'src/xlsx-worker.ts'],
    platform: 'node',
    // vitest is only needed by the testing entry, and must be the consumer's own copy.
    // nodemailer is loaded at run time, only when SMTP_URL is set.
    external: [...external, 'vitest', /^vitest\//, 'nodemailer'],
  }),
);
