import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli, startServer } from '../src/commands.js';

function fakeIo(env: Record<string, string | undefined>, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  let shutdown: ((signal: string) => void) | undefined;
  const io: CliIo = {
    env: { ...env },
    cwd,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    onShutdown: (handler) => {
      shutdown = handler;
    },
    readPassword: async () => 'senha-forte-123',
  };
  return { io, out, err, signal: (name: string) => shutdown?.(name) };
}

describe('compras-server CLI', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'compras-cli-'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('migrates an embedded database in DATA_DIR (relative to the current directory), then reports it is up to date', async () => {
    const first = fakeIo({ DATA_DIR: 'dados' }, cwd);
    expect(await runCli(['migrate'], first.io)).toBe(0);
    expect(first.out.join('\n')).toMatch(/Migrações aplicadas: core\/0001_core\.sql, core\/0002_audit_log\.sql/);
    const again = fakeIo({ DATA_DIR: 'dados' }, cwd);
    expect(await runCli(['migrate'], again.io)).toBe(0);
    expect(again.out).toEqual(['Banco de dados já atualizado.']);
  });

  it('creates the first administrator (password from the prompt) and refuses a bad CNPJ', async () => {
    const bad = fakeIo({ DATA_DIR: 'dados' }, cwd);
    await expect(
      runCli(
        [
          'create-admin',
          '--login',
          'chefe',
          '--nome',
          'Chefe',
          '--email',
          'chefe@exemplo.gov.br',
          '--entidade-nome',
          'Prefeitura',
          '--entidade-cnpj',
          '11.111.111/0001-11',
        ],
        bad.io,
      ),
    ).rejects.toThrow(/CNPJ 11.111.111\/0001-11 is not valid/);
    const missing = fakeIo({ DATA_DIR: 'dados' }, cwd);
    expect(await runCli(['create-admin', '--login', 'x'], missing.io)).toBe(2);
    expect(missing.err[0]).toBe('create-admin: informe --nome, --email, --entidade-nome, --entidade-cnpj.');

    const ok = fakeIo({ DATA_DIR: 'dados' }, cwd);
    const code = await runCli(
      [
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
        '--municipio',
        'Jundiaí',
        '--uf',
        'sp',
      ],
      ok.io,
    );
    expect(ok.err).toEqual([]);
    expect(code).toBe(0);
    expect(ok.out.at(-1)).toMatch(/^Administrador 'chefe' criado na entidade Prefeitura Municipal de Teste/);
  });

  it('starts the server, answers HTTP, and stops on a shutdown signal', async () => {
    const run = fakeIo({ DATA_DIR: 'dados', PORT: '0' }, cwd);
    const exit = runCli(['start'], run.io);
    // wait for the "listening" line
    for (let i = 0; i < 200 && !run.out.some((l) => l.startsWith('Compras em ')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const line = run.out.find((l) => l.startsWith('Compras em '));
    expect(line).toMatch(/^Compras em http:\/\/localhost:\d+$/);
    const url = line!.slice('Compras em '.length);

    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('content-security-policy')).toContain("script-src 'self'");
    // the administrator created by create-admin signs in
    const signin = await fetch(`${url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'chefe', senha: 'senha-forte-123' }),
    });
    expect(signin.status).toBe(200);
    // no demo users (known password) are added to a database that already has a real user
    const demo = await fetch(`${url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'admin', senha: 'demo1234' }),
    });
    expect(demo.status).toBe(401);

    run.signal('SIGTERM');
    expect(await exit).toBe(0);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });

  it('refuses a port already in use with an error (and closes the database)', async () => {
    const first = await startServer(fakeIo({ DATA_DIR: 'outro', PORT: '0' }, cwd).io);
    try {
      await expect(startServer(fakeIo({ DATA_DIR: 'terceiro', PORT: String(first.port) }, cwd).io)).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });

  it('prints usage for help and an unknown command', async () => {
    const help = fakeIo({}, cwd);
    expect(await runCli(['help'], help.io)).toBe(0);
    expect(help.out[0]).toContain('create-admin');
    const unknown = fakeIo({}, cwd);
    expect(await runCli(['voar'], unknown.io)).toBe(2);
    expect(unknown.err[0]).toContain('Comando desconhecido: voar');
  });
});
