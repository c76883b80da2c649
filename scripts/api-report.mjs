// API report of the published package in the current directory: one etc/<name>[-<subpath>].api.md
// per export path of its package.json ('.' → etc/core.api.md, './testing' → etc/core-testing.api.md),
// read from the built .d.ts (API Extractor takes one entry point per run; the runs share one compiler
// pass). Without --local it fails when a report differs from the committed one (turbo task `api`,
// part of `pnpm test`); with --local it rewrites the reports (`pnpm api:update`).
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const local = process.argv.includes('--local');
const projectFolder = process.cwd();
const packageJsonFullPath = join(projectFolder, 'package.json');
const pkg = JSON.parse(readFileSync(packageJsonFullPath, 'utf8'));
const base = ExtractorConfig.loadFile(fileURLToPath(new URL('../api-extractor.base.json', import.meta.url)));
const unscoped = pkg.name.replace(/^@[^/]+\//, '');

const entries = Object.entries(pkg.exports ?? {})
  .filter(([, target]) => typeof target === 'object' && target.types)
  .map(([subpath, target]) => ({
    entry: resolve(projectFolder, target.types),
    reportFileName: subpath === '.' ? unscoped : `${unscoped}-${subpath.slice(2).replaceAll('/', '-')}`,
  }));
if (entries.length === 0) throw new Error(`${pkg.name}: no export with "types" in package.json`);

const configs = entries.map(({ entry, reportFileName }) =>
  ExtractorConfig.prepare({
    configObject: {
      ...base,
      projectFolder,
      mainEntryPointFilePath: entry,
      apiReport: { ...base.apiReport, reportFileName },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath,
  }),
);
if (local) mkdirSync(join(projectFolder, 'etc'), { recursive: true });
const compilerState = CompilerState.create(configs[0], { additionalEntryPoints: entries.map((e) => e.entry) });

let failed = false;
for (const config of configs) {
  const result = Extractor.invoke(config, {
    localBuild: local,
    compilerState,
    printApiReportDiff: !local,
    // 'Analysis will use the bundled TypeScript version …', once per entry point
    messageCallback: (message) => {
      if (message.messageId === 'console-preamble') message.handled = true;
    },
  });
  if (!result.succeeded) failed = true;
}
if (failed) {
  console.error(
    local
      ? `${pkg.name}: API Extractor reported errors (above).`
      : `${pkg.name}: API Extractor failed (above). When the public API changed on purpose, run \`pnpm api:update\` and commit etc/*.api.md.`,
  );
  process.exit(1);
}
