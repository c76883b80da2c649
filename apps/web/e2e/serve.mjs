// Starts the built product for the browser tests: a fresh embedded database and a private copy of
// the built SPA (so the update-notice test can ship a "new build" without touching apps/web/dist).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakePncp } from '@app/pncp-fake';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const work = join(tmpdir(), `compras-e2e-${process.pid}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const webDist = join(work, 'web');
cpSync(join(root, 'apps', 'web', 'dist'), webDist, { recursive: true });
// A PNCP that behaves like the real one (@app/pncp-fake), for the publication and price-source tests; the
// tests queue its faults and add its published contratações through a small control endpoint
// (POST /fault with a FakeFault, POST /contratacao with a FakeContratacao, as JSON).
const pncp = await startFakePncp();
const control = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/fault') pncp.fault(JSON.parse(body));
    if (req.method === 'POST' && req.url === '/contratacao') pncp.addContratacao(JSON.parse(body));
    res.end('ok');
  });
}).listen(0, '127.0.0.1');
await new Promise((resolve) => control.once('listening', resolve));
const pncpControl = `http://127.0.0.1:${control.address().port}`;
writeFileSync(join(here, '.state.json'), JSON.stringify({ webDist, dataDir: join(work, 'data'), pncpControl }));

const child = spawn(process.execPath, [join(root, 'apps', 'server', 'dist', 'cli.js'), 'start'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.env.E2E_PORT ?? '4310',
    DATA_DIR: join(work, 'data'),
    WEB_DIST: webDist,
    DATABASE_URL: '',
    PNCP_API_URL: `${pncp.url}/api/pncp`,
    PNCP_CONSULTA_URL: `${pncp.url}/api/consulta`,
    PNCP_CREDENCIAIS_KEY: 'chave-das-credenciais-do-pncp-nos-testes-e2e',
    // a report over 30 rows is made in the background (10 000 in production): relatorios.spec's job test
    // needs no 10 000 rows; the other reports it previews have fewer (one row per demo requisição)
    RELATORIOS_MAX_LINHAS: '30',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  control.close();
  void pncp.close();
  rmSync(work, { recursive: true, force: true });
  process.exit(code ?? 0);
});
