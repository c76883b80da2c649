import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type RawClient, openDatabase, outboxMailer, silentLogger, systemClock } from '@app/server-core';
import { testEngines } from '@app/server-core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_USAGE, runCompras } from '../src/compras.js';
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
    expect(FULL_USAGE).toMatch(/verify-audit .*\n.*\n {2}audit-checkpoint .*\n {2}outbox .*\n {2}help /);
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
    const seeded = fakeIo(env, cwd);
    expect(await runCompras(['seed'], seeded.io)).toBe(0);
    // the seed names every demo user, the plugins' too, and their password
    expect(seeded.out.find((l) => l.startsWith('dados de demonstração criados: usuários '))).toMatch(
      /^dados de demonstração criados: usuários (?=.*\badmin\b)(?=.*\bcomprador\b)(?=.*\bautoridade\b)(?=.*\brequisitante\b).* — senha demo1234$/,
    );
    const ok = fakeIo(env, cwd);
    expect(await runCompras(['verify-audit'], ok.io)).toBe(0);
    expect(ok.out).toEqual([
      expect.stringMatching(/^Trilha de auditoria íntegra: \d+ registro\(s\) conferido\(s\)\.$/),
      expect.stringMatching(/^Sem âncora externa \(AUDIT_CHECKPOINT_KEY não configurada\): /),
    ]);

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

/**
 * The two attacks the hash chain alone cannot see, done directly in the database as a superuser would:
 * (a) deleting the newest rows, (b) editing a row and recomputing the chain from it with the database's
 * own audit_log_hash(). verify-audit catches both once a signed checkpoint covered the rows.
 */
for (const engine of testEngines()) {
  describe(`compras-server verify-audit against signed checkpoints [${engine}]`, () => {
    const cwd = mkdtempSync(join(tmpdir(), 'compras-cli-anchor-'));
    const key = randomBytes(32).toString('base64url');
    const created: string[] = [];
    afterAll(async () => {
      rmSync(cwd, { recursive: true, force: true });
      if (created.length === 0) return;
      const admin = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, logger: silentLogger });
      try {
        for (const name of created) await admin.withRawClient((raw) => raw.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      } finally {
        await admin.close();
      }
    });

    /** A migrated database with `rows` audit rows; the env of the CLI with (and without) the key. */
    async function trail(name: string, rows: number) {
      let where: Record<string, string>;
      if (engine === 'postgres') {
        const dbName = `compras_cli_anchor_${name}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
        const admin = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, logger: silentLogger });
        try {
          await admin.withRawClient((raw) => raw.exec(`CREATE DATABASE "${dbName}"`));
        } finally {
          await admin.close();
        }
        created.push(dbName);
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${dbName}`;
        where = { DATABASE_URL: url.toString() };
      } else {
        where = { DATA_DIR: name };
      }
      expect(await runCompras(['migrate'], fakeIo(where, cwd).io)).toBe(0);
      const database = await openDatabase({ databaseUrl: where.DATABASE_URL, dataDir: join(cwd, where.DATA_DIR ?? 'x'), logger: silentLogger });
      try {
        await database.withRawClient(async (raw) => {
          for (let i = 1; i <= rows; i++) await raw.query("INSERT INTO audit_log (plugin, acao, registro) VALUES ('core', 'criar', $1)", [String(i)]);
        });
      } finally {
        await database.close();
      }
      const signed = { ...where, AUDIT_CHECKPOINT_KEY: key, AUDIT_CHECKPOINT_FILE: `${name}-checkpoints.jsonl` };
      return { unsigned: where, signed };
    }

    async function asSuperuser(where: Record<string, string>, fn: (raw: RawClient) => Promise<void>) {
      const database = await openDatabase({ databaseUrl: where.DATABASE_URL, dataDir: join(cwd, where.DATA_DIR ?? 'x'), logger: silentLogger });
      try {
        await database.withRawClient(async (raw) => {
          await raw.exec('BEGIN');
          await raw.exec('ALTER TABLE audit_log DISABLE TRIGGER USER');
          await fn(raw);
          await raw.exec('ALTER TABLE audit_log ENABLE TRIGGER USER');
          await raw.exec('COMMIT');
        });
      } finally {
        await database.close();
      }
    }

    it('(a) the newest rows deleted: answers 1 once a checkpoint covered them', async () => {
      const env = await trail('apagados', 5);
      const checkpoint = fakeIo(env.signed, cwd);
      expect(await runCompras(['audit-checkpoint'], checkpoint.io)).toBe(0);
      expect(checkpoint.out).toEqual([`Ponto de controle gravado: registro nº 5, 5 registro(s), também em ${join(cwd, 'apagados-checkpoints.jsonl')}.`]);
      const intact = fakeIo(env.signed, cwd);
      expect(await runCompras(['verify-audit'], intact.io)).toBe(0);
      expect(intact.out[1]).toMatch(
        /^Âncora externa: 1 ponto\(s\) de controle assinado\(s\) conferido\(s\); o último, de .+, cobre até o registro nº 5 \(5 registros\)\.$/,
      );

      await asSuperuser(env.unsigned, (raw) => raw.exec('DELETE FROM audit_log WHERE id >= 4'));
      // without the key (what verify-audit did before the checkpoints) the shortened chain looks whole
      const blind = fakeIo(env.unsigned, cwd);
      expect(await runCompras(['verify-audit'], blind.io)).toBe(0);
      expect(blind.out[0]).toBe('Trilha de auditoria íntegra: 3 registro(s) conferido(s).');

      const caught = fakeIo(env.signed, cwd);
      expect(await runCompras(['verify-audit'], caught.io)).toBe(1);
      expect(caught.err[0]).toBe(
        'TRILHA DE AUDITORIA ADULTERADA no registro 5: registros removidos: um ponto de controle assinado registrou a trilha até o nº 5, ' +
          'mas faltam registros a partir do nº 4. 3 registro(s) anteriores conferem.',
      );
    });

    it('(b) a row edited and the chain recomputed with audit_log_hash(): answers 1 at the checkpoint', async () => {
      const env = await trail('recalculado', 5);
      expect(await runCompras(['audit-checkpoint'], fakeIo(env.signed, cwd).io)).toBe(0);
      await asSuperuser(env.unsigned, async (raw) => {
        await raw.exec(`UPDATE audit_log SET acao = 'adulterado' WHERE id = 3`);
        for (const id of [3, 4, 5]) {
          await raw.exec(`UPDATE audit_log SET prev_hash = (SELECT p.hash FROM audit_log p WHERE p.id < ${id} ORDER BY p.id DESC LIMIT 1) WHERE id = ${id}`);
          await raw.exec(
            `UPDATE audit_log SET hash = audit_log_hash(prev_hash, id, at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip) WHERE id = ${id}`,
          );
        }
      });
      const blind = fakeIo(env.unsigned, cwd);
      expect(await runCompras(['verify-audit'], blind.io)).toBe(0);

      const caught = fakeIo(env.signed, cwd);
      expect(await runCompras(['verify-audit'], caught.io)).toBe(1);
      expect(caught.err[0]).toBe(
        'TRILHA DE AUDITORIA ADULTERADA no registro 5: o registro nº 5 não tem o hash que o ponto de controle assinado registrou: ' +
          'a cadeia foi recalculada depois de editada, a partir de algum registro entre o nº 1 e o nº 5. 5 registro(s) anteriores conferem.',
      );
      const row = JSON.parse(caught.err.slice(1).join('\n')) as { acao: string; hash: string; hash_esperado: string };
      expect(row.hash).toBe(row.hash_esperado); // recomputed: the row alone looks right
    });

    it('audit-checkpoint needs the key', async () => {
      const none = fakeIo({ DATA_DIR: 'qualquer' }, cwd);
      expect(await runCompras(['audit-checkpoint'], none.io)).toBe(2);
      expect(none.err[0]).toMatch(/^audit-checkpoint: defina AUDIT_CHECKPOINT_KEY/);
    });
  });
}
