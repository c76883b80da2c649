import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, outboxMailer, systemClock } from '@app/server-core';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_USAGE, runCompras } from '../src/cli.js';
import type { CliIo } from '../src/commands.js';

function fakeIo(env: Record<string, string | undefined>, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    env: { ...env },
    cwd,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    onShutdown: () => undefined,
    readPassword: async () => 'senha-forte-123',
  };
  return { io, out, err };
}

describe('compras-server verify-audit and outbox', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'compras-cli-audit-'));
  const env = { DATA_DIR: 'dados' };
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('lists the new commands in the help', async () => {
    const help = fakeIo({}, cwd);
    expect(await runCompras(['help'], help.io)).toBe(0);
    expect(help.out[0]).toBe(FULL_USAGE);
    expect(FULL_USAGE).toMatch(/verify-audit .*\n {2}outbox .*\n {2}help /);
    const unknown = fakeIo({}, cwd);
    expect(await runCompras(['voar'], unknown.io)).toBe(2);
    expect(unknown.err[0]).toContain('verify-audit');
  });

  it('refuses a missing database and explains a database that was never migrated', async () => {
    await expect(runCompras(['verify-audit'], fakeIo({ DATA_DIR: 'nao-existe' }, cwd).io)).rejects.toThrow(/Banco de dados não encontrado em .*nao-existe/);
    const database = await openDatabase({ dataDir: join(cwd, 'vazio') });
    await database.close();
    await expect(runCompras(['verify-audit'], fakeIo({ DATA_DIR: 'vazio' }, cwd).io)).rejects.toThrow(/não tem a trilha de auditoria \(rode "migrate"\)/);
    const outbox = fakeIo({ DATA_DIR: 'vazio' }, cwd);
    expect(await runCompras(['outbox'], outbox.io)).toBe(0);
    expect(outbox.out).toEqual(['Caixa de saída vazia.']);
  });

  it('verify-audit answers 0 on an intact chain and 1 with the broken row once a row is edited', async () => {
    expect(await runCompras(['seed'], fakeIo(env, cwd).io)).toBe(0);
    const ok = fakeIo(env, cwd);
    expect(await runCompras(['verify-audit'], ok.io)).toBe(0);
    expect(ok.out).toEqual([expect.stringMatching(/^Trilha de auditoria íntegra: \d+ registro\(s\) conferido\(s\)\.$/)]);

    // a superuser edits a row with the append-only triggers disabled
    const database = await openDatabase({ dataDir: join(cwd, 'dados') });
    try {
      await database.withRawClient(async (raw) => {
        await raw.exec('BEGIN');
        await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
        await raw.exec(`UPDATE audit_log SET acao = 'adulterado' WHERE id = (SELECT min(id) FROM audit_log)`);
        await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
        await raw.exec('COMMIT');
      });
    } finally {
      await database.close();
    }
    const broken = fakeIo(env, cwd);
    expect(await runCompras(['verify-audit'], broken.io)).toBe(1);
    expect(broken.err[0]).toMatch(/^TRILHA DE AUDITORIA ADULTERADA no registro 1: conteúdo alterado \(hash não confere\)\./);
    const row = JSON.parse(broken.err[1]!) as { id: number | string; acao: string; hash: string; hash_esperado: string };
    expect(Number(row.id)).toBe(1);
    expect(row.acao).toBe('adulterado');
    expect(row.hash).not.toBe(row.hash_esperado);
  });

  it('outbox prints the newest messages first, up to --limite', async () => {
    const empty = fakeIo(env, cwd);
    expect(await runCompras(['outbox'], empty.io)).toBe(0);
    expect(empty.out).toEqual(['Caixa de saída vazia.']);

    const database = await openDatabase({ dataDir: join(cwd, 'dados') });
    try {
      const mailer = outboxMailer(database.db, systemClock);
      await mailer.send({ to: 'primeiro@exemplo.gov.br', subject: 'Primeiro', text: 'corpo 1' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await mailer.send({ to: 'segundo@exemplo.gov.br', subject: 'Segundo', text: 'corpo 2\nhttp://localhost/recoveryPass?token=abc' });
    } finally {
      await database.close();
    }
    const all = fakeIo(env, cwd);
    expect(await runCompras(['outbox'], all.io)).toBe(0);
    const text = all.out.join('\n');
    expect(all.out[0]).toBe('Caixa de saída: 2 de 2 mensagem(ns), mais novas primeiro.');
    expect(text.indexOf('Para: segundo@exemplo.gov.br')).toBeLessThan(text.indexOf('Para: primeiro@exemplo.gov.br'));
    expect(text).toContain('Assunto: Segundo');
    expect(text).toContain('http://localhost/recoveryPass?token=abc');

    const one = fakeIo(env, cwd);
    expect(await runCompras(['outbox', '--limite', '1'], one.io)).toBe(0);
    expect(one.out[0]).toBe('Caixa de saída: 1 de 2 mensagem(ns), mais novas primeiro.');
    expect(one.out.join('\n')).not.toContain('primeiro@');

    const bad = fakeIo(env, cwd);
    expect(await runCompras(['outbox', '--limite', 'x'], bad.io)).toBe(2);
  });
});
