// A throwaway npm registry on loopback for the publish test: verdaccio (root devDependency) in a
// child process, storage and config in a temporary folder, no uplinks (it serves only what is
// published to it), and one user created for the run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./verdaccio-child.mjs', import.meta.url));

/**
 * Starts the registry with its files under `dir`. Resolves to { url, host, token, stop() } once it
 * answers and the user exists; `url` ends with '/', `host` is '127.0.0.1:<port>' (for .npmrc auth).
 */
export async function startLocalRegistry(dir, { startTimeoutMs = 60_000 } = {}) {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const configFile = join(dir, 'config.yaml');
  // JSON is YAML
  const config = {
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1 } },
    uplinks: {},
    packages: {
      '@*/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
    },
    web: { enable: false },
    max_body_size: '100mb',
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
  writeFileSync(configFile, JSON.stringify(config, null, 2));

  const child = spawn(process.execPath, [CHILD, configFile], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`verdaccio did not start in ${startTimeoutMs} ms:\n${log}`)), startTimeoutMs);
    const onData = (chunk) => {
      log += chunk;
      const match = log.match(/VERDACCIO_PORT=(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`verdaccio exited (${code}) before listening:\n${log}`));
    });
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const host = `127.0.0.1:${port}`;
    const url = `http://${host}/`;
    const name = 'compras-ci';
    const res = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, password: randomBytes(18).toString('base64url'), type: 'user', roles: [], date: new Date().toISOString() }),
    });
    const body = await res.json().catch(() => ({}));
    if (res.status !== 201 || typeof body.token !== 'string') throw new Error(`creating the registry user answered ${res.status}: ${JSON.stringify(body)}`);
    return { url, host, token: body.token, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
