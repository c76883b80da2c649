import { defineConfig } from 'tsup';
import { packageOptions } from '../../../tsup.base';

export default defineConfig([
  packageOptions(process.cwd(), { entry: { 'web/index': 'src/web/index.ts' }, outDir: 'dist', clean: false, platform: 'browser' }),
  packageOptions(process.cwd(), { entry: { 'server/index': 'src/server/index.ts', 'shared/index': 'src/shared/index.ts' }, outDir: 'dist', clean: false, platform: 'node' }),
]);
