import { defineConfig } from 'tsup';
import { packageOptions } from '../../tsup.base';

export default defineConfig(packageOptions(process.cwd(), { entry: ['src/index.ts'], platform: 'node' }));
