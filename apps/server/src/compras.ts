// The commands of compras-server (cli.ts runs them): those of commands.ts plus verify-audit,
// audit-checkpoint and outbox.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AUDIT_ROW_HASH_SQL,
  type Database,
  auditAnchorFromEnv,
  auditAnchorSummary,
  auditCheckpointProblem,
  listOutbox,
  openDatabase,
  silentLogger,
  verifyAuditChain,
  writeAuditCheckpoint,
} from '@app/server-core';
import { sql } from '@app/server-core/orm';
import { type CliIo, USAGE, readHiddenLine, runCli } from './commands.js';

const EXTRA_USAGE = `  verify-audit          confere a cadeia de hashes da trilha de auditoria e os pontos de controle
                        assinados (AUDIT_CHECKPOINT_KEY); sai com 1 se adulterada
  audit-checkpoint      grava agora um ponto de controle assinado da trilha (AUDIT_CHECKPOINT_KEY)
  outbox [--limite N]   mostra os últimos e-mails guardados na caixa de saída (sem SMTP configurado)
`;

/** USAGE of commands.ts with the commands of this file listed before 'help'. */
export const FULL_USAGE = USAGE.replace(/^ {2}help /m, `${EXTRA_USAGE}  help `);

/** Opens the existing database (these commands never create one). */
async function withDatabase<T>(io: CliIo, fn: (database: Database) => Promise<T>): Promise<T> {
  const databaseUrl = io.env.DATABASE_URL || undefined;
  const dataDir = resolve(io.cwd, io.env.DATA_DIR || '.data');
  if (!databaseUrl && !existsSync(dataDir)) throw new Error(`Banco de dados não encontrado em ${dataDir} (DATA_DIR).`);
  const database = await openDatabase({ databaseUrl, dataDir, logger: silentLogger });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** A query failed because a table does not exist (database never migrated); drizzle wraps the driver's error. */
function isMissingTable(err: unknown): boolean {
  for (let current = err, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === '42P01' || /relation "[^"]+" does not exist/.test(String(message ?? ''))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * verify-audit: recomputes the audit_log hash chain and checks it against the signed checkpoints
 * (AUDIT_CHECKPOINT_KEY, AUDIT_CHECKPOINT_FILE); 1 and the first broken row when tampered with.
 */
async function verifyAudit(io: CliIo): Promise<number> {
  const anchor = auditAnchorFromEnv(io.env, io.cwd) ?? null;
  return withDatabase(io, async (database) => {
    const result = await verifyAuditChain(database.db, { anchor }).catch((err: unknown) => {
      if (isMissingTable(err)) throw new Error('verify-audit: o banco de dados não tem a trilha de auditoria (rode "migrate").');
      throw err;
    });
    if (result.ok) {
      io.out(`Trilha de auditoria íntegra: ${result.checked} registro(s) conferido(s).`);
      io.out(auditAnchorSummary(result));
      return 0;
    }
    const reason =
      auditCheckpointProblem(result)?.replace(/\.$/, '') ??
      (result.reason === 'hash_mismatch' ? 'conteúdo alterado (hash não confere)' : 'encadeamento rompido (registro removido ou inserido)');
    io.err(`TRILHA DE AUDITORIA ADULTERADA no registro ${result.brokenAt}: ${reason}. ${result.checked} registro(s) anteriores conferem.`);
    const { rows } = await database.db.execute<Record<string, unknown>>(sql`
      SELECT id, at, usuario_id, entidade_id, plugin, registro, acao, antes, depois, ip, prev_hash, hash,
             ${AUDIT_ROW_HASH_SQL} AS hash_esperado
        FROM audit_log WHERE id = ${result.brokenAt}`);
    io.err(JSON.stringify(rows[0] ?? { id: result.brokenAt }, null, 2));
    return 1;
  });
}

/** audit-checkpoint: signs and stores a checkpoint of the chain now (in the database and AUDIT_CHECKPOINT_FILE). */
async function auditCheckpoint(io: CliIo): Promise<number> {
  const anchor = auditAnchorFromEnv(io.env, io.cwd);
  if (!anchor) {
    io.err('audit-checkpoint: defina AUDIT_CHECKPOINT_KEY (ou AUDIT_CHECKPOINT_KEY_FILE) com a chave que assina os pontos de controle.');
    return 2;
  }
  return withDatabase(io, async (database) => {
    const written = await writeAuditCheckpoint(database.db, anchor).catch((err: unknown) => {
      if (isMissingTable(err)) throw new Error('audit-checkpoint: o banco de dados não tem a trilha de auditoria (rode "migrate").');
      throw err;
    });
    io.out(
      written
        ? `Ponto de controle gravado: registro nº ${written.lastId}, ${written.rowCount} registro(s)${anchor.file ? `, também em ${anchor.file}` : ''}.`
        : 'Nada a gravar: o último registro já tem ponto de controle (ou a trilha está vazia).',
    );
    return 0;
  });
}

/** outbox: the newest e-mails kept in the outbox table, newest first. */
async function printOutbox(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { limite: { type: 'string', short: 'n' } }, strict: true });
  const limit = values.limite === undefined ? 10 : Number(values.limite);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    io.err('outbox: --limite deve ser um número de 1 a 200.');
    return 2;
  }
  return withDatabase(io, async (database) => {
    const page = await listOutbox(database.db, { pageSize: limit }).catch((err: unknown) => {
      if (isMissingTable(err)) return null;
      throw err;
    });
    if (!page || page.total === 0) {
      io.out('Caixa de saída vazia.');
      return 0;
    }
    io.out(`Caixa de saída: ${page.items.length} de ${page.total} mensagem(ns), mais novas primeiro.`);
    for (const message of page.items) {
      io.out('');
      io.out(`#${message.id}  ${message.createdAt}`);
      io.out(`Para: ${message.to}`);
      io.out(`Assunto: ${message.subject}`);
      io.out('');
      io.out(message.body);
      io.out('-'.repeat(72));
    }
    return 0;
  });
}

/** runCli (commands.ts) plus verify-audit and outbox. */
export async function runCompras(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'verify-audit':
      return verifyAudit(io);
    case 'audit-checkpoint':
      return auditCheckpoint(io);
    case 'outbox':
      return printOutbox(args, io);
    case 'help':
    case '--help':
    case '-h':
      io.out(FULL_USAGE);
      return 0;
    default: {
      const err = io.err;
      // an unknown command prints the usage: the full one
      return runCli(argv, { ...io, err: (line) => err(line.replace(USAGE, FULL_USAGE)) });
    }
  }
}

/** Runs the command of process.argv with the process's environment and exits with its code. */
export function main(): void {
  const io: CliIo = {
    env: process.env,
    cwd: process.cwd(),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    onShutdown: (handler) => {
      process.once('SIGINT', () => handler('SIGINT'));
      process.once('SIGTERM', () => handler('SIGTERM'));
    },
    readPassword: readHiddenLine,
  };

  runCompras(process.argv.slice(2), io).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
