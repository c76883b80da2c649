import { defineConfig } from 'tsup';
import { packageOptions } from '../../tsup.base';

export default defineConfig(packageOptions(process.cwd(), { entry: { index: 'src/index.ts', testing: 'src/test-kit.ts' } }));
