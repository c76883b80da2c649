// Runs before every package's tests (see vitest.shared.ts). A busy 2-core CI machine runs several
// suites at once: Testing Library's async queries wait generously instead of the 1 s default.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const requireFromPackage = createRequire(join(process.cwd(), 'package.json'));
let testingLibrary: string | undefined;
try {
  testingLibrary = requireFromPackage.resolve('@testing-library/react');
} catch {
  // a package without DOM tests
}
if (testingLibrary) {
  const { configure } = (await import(pathToFileURL(testingLibrary).href)) as typeof import('@testing-library/react');
  configure({ asyncUtilTimeout: 15_000 });
}
