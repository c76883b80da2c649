import { defineConfig } from 'tsup';
import { packageOptions } from '../../tsup.base';

export default defineConfig(
  packageOptions(process.cwd(), { entry: ['src/cli.ts', 'src/app.ts'], platform: 'node', dts: false }),
);
