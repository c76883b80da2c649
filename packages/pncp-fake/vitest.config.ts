import { packageVitestConfig } from '../../vitest.shared.ts';

export default packageVitestConfig(new URL('.', import.meta.url));
