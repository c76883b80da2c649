// Runs before the tests: makes sure a Chromium is there for the browser tests and says what it did.
// Order: $CHROMIUM_PATH or an installed Chromium (Debian's /usr/bin/chromium) → Debian's `chromium`
// package when apt-get runs as root → Playwright's own download. Never skips silently: exits 1.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { findChromium } from './chromium.mjs';

const log = (msg) => console.log(`[chromium] ${msg}`);

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function version(path) {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'versão desconhecida';
  }
}

let found = findChromium();
if (found) {
  log(`using the installed ${found} (${version(found)})`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (process.platform === 'linux' && isRoot && existsSync('/usr/bin/apt-get')) {
  log("no Chromium found: installing Debian's chromium package with apt-get");
  try {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  } catch (err) {
    log(`apt-get failed: ${err.message}`);
  }
  found = findChromium();
  if (found) {
    log(`installed ${found} (${version(found)})`);
    process.exit(0);
  }
}

log("no system Chromium: downloading Playwright's Chromium (npx playwright install chromium)");
try {
  const require = createRequire(new URL('../apps/web/package.json', import.meta.url));
  const cli = require.resolve('@playwright/test/cli');
  run(process.execPath, [cli, 'install', 'chromium']);
  log("Playwright's Chromium installed");
  process.exit(0);
} catch (err) {
  console.error(`[chromium] could not get a Chromium for the browser tests: ${err.message}`);
  console.error('[chromium] install one (e.g. apt-get install chromium) or set CHROMIUM_PATH.');
  process.exit(1);
}
