import { defineConfig } from 'tsup';
import { packageOptions } from '../../tsup.base';

// One module per source file: a page that only masks or formats dates never loads the zod schemas.
export default defineConfig(
  packageOptions(process.cwd(), { entry: ['src/index.ts', 'src/busca.ts', 'src/dates.ts', 'src/documents.ts', 'src/mask.ts', 'src/schemas.ts', 'src/time.ts'] }),
);
