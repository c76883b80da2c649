import { defineConfig } from 'tsup';
import { packageOptions } from '../../../tsup.base';

// shared and server only for now; the web entry ('.') comes with the web half
export default defineConfig([
  packageOptions(process.cwd(), { entry: { 'server/index': 'src/server/index.ts', 'shared/index': 'src/shared/index.ts' }, outDir: 'dist', clean: false, platform: 'node' }),
]);
