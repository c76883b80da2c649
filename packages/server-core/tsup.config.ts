import { defineConfig } from 'tsup';
import { external, packageOptions } from '../../tsup.base';

export default defineConfig(
  packageOptions(process.cwd(), {
    // spreadsheet-worker: the worker thread that reads import files (spreadsheet-pool.ts loads
    // dist/spreadsheet-worker.js next to the chunk that holds the pool); pdf-worker: the one that
    // renders PDFs (pdf.ts, same pool); xlsx-worker: the one that writes XLSX workbooks (same pool).
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing.ts',
      orm: 'src/orm.ts',
      'pg-core': 'src/pg-core.ts',
      'spreadsheet-worker': 'src/formats/spreadsheet-worker.ts',
      'pdf-worker': 'src/formats/pdf-worker.ts',
      'xlsx-worker': 'src/formats/xlsx-worker.ts',
    },
    platform: 'node',
    // vitest is only needed by the testing entry, and must be the consumer's own copy.
    // nodemailer is loaded at run time, only when SMTP_URL is set.
    external: [...external, 'vitest', /^vitest\//, 'nodemailer'],
  }),
);
