// Starts the built product for the browser tests: a fresh embedded database and a private copy of
// the built SPA (so the update-notice test can ship a "new build" without touching apps/web/dist).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const work = join(tmpdir(), `compras-e2e-${process.pid}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const webDist = join(work, 'web');
cpSync(join(root, 'apps', 'web', 'dist'), webDist, { recursive: true });
writeFileSync(join(here, '.state.json'), JSON.stringify({ webDist, dataDir: join(work, 'data') }));

const child = spawn(process.execPath, [join(root, 'apps', 'server', 'dist', 'cli.js'), 'start'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.env.E2E_PORT ?? '4310',
    DATA_DIR: join(work, 'data'),
    WEB_DIST: webDist,
    DATABASE_URL: '',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  rmSync(work, { recursive: true, force: true });
  process.exit(code ?? 0);
});
