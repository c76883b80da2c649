// A PostgreSQL restart while requests run transactions. The test starts its own PostgreSQL cluster
// (initdb in a temporary folder, 127.0.0.1 and a unix socket in that folder only), spawns the real
// server process (`node dist/cli.js start`), keeps ~12 writes in flight, restarts PostgreSQL with a
// fast shutdown (backends end with 57P01 admin_shutdown) and checks: the process is still alive,
// every answer is 2xx or the pt-BR 503 `database_unavailable` with Retry-After (no 500, no reset
// connection), writes succeed again once PostgreSQL is back, and every acknowledged write is stored.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase, silentLogger, verifyAuditChain } from '@app/server-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(APP_DIR, 'dist', 'cli.js');
const PASSWORD = 'senha-forte-123';
const UNAVAILABLE_MESSAGE = 'O banco de dados está indisponível no momento. Tente novamente em instantes.';

/** Folder with initdb, pg_ctl and postgres: PG_BINDIR, else the newest /usr/lib/postgresql/N/bin, else pg_config --bindir. */
async function findPgBin(): Promise<string | undefined> {
  const has = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)));
  const candidates: string[] = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  try {
    candidates.push((await run('pg_config', ['--bindir'])).stdout.trim());
  } catch {
    // no pg_config on the PATH
  }
  return candidates.find(has);
}

/** A port nobody listens on right now (127.0.0.1). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, rejectPort) => {
    const server = createServer();
    server.once('error', rejectPort);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it is true; false after `limitMs`. */
async function waitFor(check: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(100);
  }
  return check();
}

interface WriteResult {
  nome: string;
  status: number;
  /** The request started after PostgreSQL was back. */
  afterRestart: boolean;
  code?: string;
  message?: string;
  retryAfter?: string | null;
  /** fetch itself failed (connection reset, refused, timeout). */
  error?: string;
}

describe('PostgreSQL restarted while requests run transactions', () => {
  let pgBin: string | undefined;
  let dir = '';
  let dataDir = '';
  let databaseUrl = '';
  /** Runs a PostgreSQL binary as a non-root user (initdb refuses root). */
  let pgRun: (bin: string, args: string[]) => Promise<{ stdout: string; stderr: string }> = async () => {
    throw new Error('PostgreSQL not set up');
  };
  let server: ChildProcess | undefined;
  let serverExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const serverOutput: string[] = [];
  let url = '';
  let token = '';
  const createCargo = (nome: string) =>
    fetch(`${url}/api/registros/cargos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ nome, descricao: 'criado durante o reinício do PostgreSQL' }),
      signal: AbortSignal.timeout(45_000),
    });

  beforeAll(async () => {
    pgBin = await findPgBin();
    if (!pgBin) {
      throw new Error(
        `PostgreSQL binaries (initdb, pg_ctl, postgres) not found${process.env.CI ? ' on this CI machine' : ''}: ` +
          'install PostgreSQL (e.g. apt-get install postgresql) or set PG_BINDIR. This test cannot prove the server survives a PostgreSQL restart without them.',
      );
    }
    // the real server process: its build (turbo runs this package's build before its tests)
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "pnpm --filter @app/server build" first.`);

    dir = mkdtempSync(join(tmpdir(), 'compras-pg-restart-'));
    dataDir = join(dir, 'data');
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, `${PASSWORD}\n`);
    if (process.getuid?.() === 0) {
      // root: initdb refuses it, so the cluster belongs to the postgres user
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
      chownSync(dir, uid, gid);
      chownSync(pwfile, uid, gid);
      const hasRunuser = await run('runuser', ['--help']).then(
        () => true,
        () => false,
      );
      const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
      pgRun = (bin, args) =>
        hasRunuser
          ? run('runuser', ['-u', 'postgres', '--', join(pgBin!, bin), ...args], { cwd: dir, timeout: 90_000 })
          : run('su', ['postgres', '-s', '/bin/sh', '-c', [join(pgBin!, bin), ...args].map(quote).join(' ')], { cwd: dir, timeout: 90_000 });
    } else {
      pgRun = (bin, args) => run(join(pgBin!, bin), args, { cwd: dir, timeout: 90_000 });
    }
    await pgRun('initdb', ['-D', dataDir, '-U', 'compras', `--pwfile=${pwfile}`, '-A', 'scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    // only 127.0.0.1 and a socket inside the temporary folder; fsync off: a throwaway cluster
    // (a fast shutdown still writes a checkpoint, so committed rows survive the restart).
    // A free port can be taken between the probe and the start: then another one (the last `port` wins).
    for (let attempt = 1; !databaseUrl; attempt++) {
      const port = await freePort();
      appendFileSync(
        join(dataDir, 'postgresql.conf'),
        `\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = '${dir}'\nfsync = off\nfull_page_writes = off\n`,
      );
      try {
        await pgRun('pg_ctl', ['-D', dataDir, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
        databaseUrl = `postgres://compras:${PASSWORD}@127.0.0.1:${port}/postgres`;
      } catch (err) {
        if (attempt === 3) throw new Error(`PostgreSQL did not start:\n${readFileSync(join(dir, 'postgres.log'), 'utf8')}`, { cause: err });
      }
    }

    const env = { ...process.env, DATABASE_URL: databaseUrl, ADMIN_PASSWORD: PASSWORD, DATA_DIR: undefined };
    await run(
      process.execPath,
      [
        CLI,
        'create-admin',
        '--login',
        'chefe',
        '--nome',
        'Chefe de Compras',
        '--email',
        'chefe@exemplo.gov.br',
        '--entidade-nome',
        'Prefeitura Municipal de Teste',
        '--entidade-cnpj',
        '11.222.333/0001-81',
      ],
      { env, cwd: dir, timeout: 60_000 },
    );

    server = spawn(process.execPath, [CLI, 'start'], { env: { ...env, PORT: '0', HOST: '127.0.0.1' }, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    server.on('exit', (code, signal) => {
      serverExit = { code, signal };
    });
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => serverOutput.push(chunk));
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => serverOutput.push(chunk));
    const listening = () => /Compras em http:\/\/[^:]+:(\d+)/.exec(serverOutput.join(''));
    await waitFor(() => Boolean(listening()) || Boolean(serverExit), 60_000);
    const match = listening();
    if (!match) throw new Error(`the server did not start (${JSON.stringify(serverExit)}):\n${serverOutput.join('')}`);
    url = `http://127.0.0.1:${match[1]}`;
    const signin = await fetch(`${url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'chefe', senha: PASSWORD }),
    });
    if (signin.status !== 200) throw new Error(`sign-in answered ${signin.status}: ${await signin.text()}`);
    token = ((await signin.json()) as { token: string }).token;
  }, 150_000);

  afterAll(async () => {
    if (server && !serverExit) {
      server.kill('SIGTERM');
      if (!(await waitFor(() => Boolean(serverExit), 15_000))) server.kill('SIGKILL');
    }
    if (dataDir && existsSync(join(dataDir, 'postmaster.pid'))) {
      await pgRun('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {
        // pg_ctl failed: end the postmaster by its pid
        const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        if (pid > 0) process.kill(pid, 'SIGKILL');
      });
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('keeps the process alive, answers 503 in pt-BR meanwhile and loses no acknowledged write', async () => {
    const results: WriteResult[] = [];
    let stop = false;
    let restarted = false;
    let inFlight = 0;
    let seq = 0;
    const alive = () => !serverExit;

    const worker = async (w: number) => {
      while (!stop && alive()) {
        const nome = `Cargo ${w}-${++seq}`;
        const afterRestart = restarted;
        inFlight++;
        try {
          const res = await createCargo(nome);
          const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
          results.push({
            nome,
            status: res.status,
            afterRestart,
            code: body.error?.code,
            message: body.error?.message,
            retryAfter: res.headers.get('retry-after'),
          });
          if (res.status === 503) await sleep(200); // as Retry-After asks, a little
        } catch (err) {
          results.push({ nome, status: 0, afterRestart, error: `${(err as Error).message} ${String((err as Error).cause ?? '')}` });
          await sleep(200);
        } finally {
          inFlight--;
        }
      }
    };
    const workers = Array.from({ length: 12 }, (_, w) => worker(w));

    const ok = (r: WriteResult) => r.status >= 200 && r.status < 300;
    // writes flow, and many are in flight when PostgreSQL goes down
    expect(await waitFor(() => results.filter(ok).length >= 24 || !alive(), 30_000)).toBe(true);
    expect(await waitFor(() => inFlight >= 8 || !alive(), 10_000)).toBe(true);
    const inFlightAtRestart = inFlight;
    // -l: the new postmaster must not hold this process's pipes open
    await pgRun('pg_ctl', ['-D', dataDir, '-l', join(dir, 'postgres.log'), '-m', 'fast', '-w', '-t', '60', 'restart']);
    restarted = true;
    // writes started after PostgreSQL is back succeed (the pool opens new connections)
    await waitFor(() => results.filter((r) => r.afterRestart && ok(r)).length >= 12 || !alive(), 40_000);
    stop = true;
    await Promise.all(workers);

    const byStatus: Record<string, number> = {};
    for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const summary = `${results.length} writes (${inFlightAtRestart} in flight at the restart), by status: ${JSON.stringify(byStatus)}`;
    console.log(`[pg-restart] ${summary}`);
    // the process survived
    expect(serverExit, `server exited: ${summary}\n${serverOutput.join('').slice(-4000)}`).toBeUndefined();
    // every answer is a success or the pt-BR 503 (never a 500 or a broken connection)
    const unexpected = results.filter(
      (r) => !ok(r) && !(r.status === 503 && r.code === 'database_unavailable' && r.message === UNAVAILABLE_MESSAGE && Number(r.retryAfter) > 0),
    );
    expect(unexpected, summary).toEqual([]);
    expect(results.filter((r) => r.afterRestart && ok(r)).length, summary).toBeGreaterThanOrEqual(12);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);

    // every acknowledged write is committed, and the audit chain is intact
    const database = await openDatabase({ databaseUrl, logger: silentLogger });
    try {
      const stored = new Set((await database.withRawClient((raw) => raw.query<{ nome: string }>('SELECT nome FROM registros_cargos'))).map((r) => r.nome));
      expect(results.filter((r) => ok(r) && !stored.has(r.nome)).map((r) => r.nome)).toEqual([]);
      expect((await verifyAuditChain(database.db)).ok).toBe(true);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('while PostgreSQL is down: writes and /api/health answer 503, and work again once it is back', async () => {
    expect(serverExit).toBeUndefined();
    await pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    try {
      const write = await createCargo('Cargo com o banco parado');
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toBe('5');
      expect(await write.json()).toEqual({ error: { code: 'database_unavailable', message: UNAVAILABLE_MESSAGE } });
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe('5');
      expect(await health.json()).toEqual({ error: { code: 'database_unavailable', message: UNAVAILABLE_MESSAGE } });
      expect(serverExit).toBeUndefined();
    } finally {
      await pgRun('pg_ctl', ['-D', dataDir, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
    }
    // back: the pool opens new connections (no retry loop needed, but allow a slow start)
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 201; attempt++) {
      if (attempt > 0) await sleep(500);
      status = (await createCargo(`Cargo depois da volta ${attempt}`)).status;
    }
    expect(status).toBe(201);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(serverExit).toBeUndefined();
  }, 120_000);
});
