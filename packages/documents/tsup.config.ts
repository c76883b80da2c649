import { defineConfig } from 'tsup';
import { packageOptions } from '../../tsup.base';

// One module per source file: the schemas (zod) stay out of what a page that only formats loads.
export default defineConfig(packageOptions(process.cwd(), { entry: ['src/index.ts', 'src/decimal.ts', 'src/flow.ts', 'src/numbering.ts', 'src/schemas.ts'] }));
