import { defineConfig } from 'tsup';
import { packageOptions } from '../../tsup.base';

export default defineConfig(
  packageOptions(process.cwd(), {
    // Every source file is an entry: with code splitting each component stays its own module, so an
    // app's bundler can leave what the first page does not use (DataTable, AppLayout…) to later chunks.
    entry: ['src/*.ts', 'src/*.tsx'],
    onSuccess: 'cp src/styles.css dist/styles.css',
  }),
);
