// Fails when a package that must be a singleton at run time resolves to more than one copy.
// Under pnpm each distinct entry in the lockfile's `snapshots:` (version + peer set) is a separate
// directory, hence a separate module instance: two of them means two Reacts / two jotai stores.
import { readFileSync } from 'node:fs';

const SINGLETONS = ['react', 'react-dom', 'jotai', 'wouter', 'ky', '@tanstack/react-query', 'zod', '@app/core', '@app/ui'];
const lock = readFileSync(new URL('../pnpm-lock.yaml', import.meta.url), 'utf8');

const snapshots = lock.split(/^snapshots:\s*$/m)[1] ?? '';
const keys = [...snapshots.matchAll(/^ {2}'?((?:@[^/\s]+\/)?[^@\s']+)@([^:'\s]+)'?:/gm)].map((m) => ({
  name: m[1],
  key: `${m[1]}@${m[2]}`,
}));

let failed = false;
for (const name of SINGLETONS) {
  const copies = keys.filter((k) => k.name === name).map((k) => k.key);
  if (name.startsWith('@app/')) {
    // Workspace packages must always be linked, never installed from a registry.
    if (copies.length > 0) {
      console.error(`✗ ${name}: installed from a registry besides the workspace: ${copies.join(', ')}`);
      failed = true;
    } else console.log(`✓ ${name}: workspace link only`);
    continue;
  }
  if (copies.length > 1) {
    console.error(`✗ ${name} resolves to ${copies.length} copies:\n    ${copies.join('\n    ')}`);
    failed = true;
  } else if (copies.length === 1) {
    console.log(`✓ ${name}: one copy (${copies[0]})`);
  } else {
    console.log(`- ${name}: not installed`);
  }
}
if (failed) {
  console.error('\nDuplicate singletons break hooks and context. Align versions/peers (pnpm why -r <name>).');
  process.exit(1);
}
