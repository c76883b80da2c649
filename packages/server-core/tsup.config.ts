import { defineConfig } from 'tsup';
import { external, packageOptions } from '../../tsup.base';

export default defineConfig(
  packageOptions(process.cwd(), {
    entry: ['src/index.ts', 'src/testing.ts', 'src/orm.ts', 'src/pg-core.ts'],
    platform: 'node',
    // vitest is only needed by the testing entry, and must be the consumer's own copy.
    // nodemailer is loaded at run time, only when SMTP_URL is set.
    external: [...external, 'vitest', /^vitest\//, 'nodemailer'],
  }),
);
