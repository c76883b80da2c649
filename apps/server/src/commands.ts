import type { Server } from 'node:http';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { type ComposedServer, type Logger, auditAnchorFromEnv, composePlugins, createAdmin, openDatabase, runMigrations, seedDemo } from '@app/server-core';
import { createComprasServer, serverPlugins } from './app.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** Directory DATA_DIR is relative to (the current directory when started). */
  cwd: string;
  out(line: string): void;
  err(line: string): void;
  /** Registers the shutdown handler (SIGINT/SIGTERM in the real process). */
  onShutdown(handler: (signal: string) => void): void;
  /** Reads the admin password when ADMIN_PASSWORD is not set. */
  readPassword(prompt: string): Promise<string>;
}

export const USAGE = `Uso: compras-server [comando]

Comandos:
  start                 inicia o servidor (padrão): PORT (3000), DATABASE_URL ou DATA_DIR (.data)
  migrate               aplica as migrações do núcleo e dos plugins (como MIGRATION_DATABASE_URL, se definida)
  seed                  cria os dados de demonstração (uma única vez)
  create-admin --login X --nome Y --email Z --entidade-nome N --entidade-cnpj C
               [--municipio M] [--uf SP] [--telefone T]
                        cria o primeiro administrador (senha: ADMIN_PASSWORD ou digitada)
  help                  mostra esta ajuda`;

function loggerFor(io: CliIo): Logger {
  return {
    info: (message) => io.out(message),
    warn: (message) => io.err(`aviso: ${message}`),
    error: (message, ...details) => io.err([message, ...details.map((d) => (d instanceof Error ? (d.stack ?? d.message) : String(d)))].join(' ')),
  };
}

function databaseOptions(io: CliIo) {
  const databaseUrl = io.env.DATABASE_URL || undefined;
  return { databaseUrl, dataDir: resolve(io.cwd, io.env.DATA_DIR || '.data') };
}

/** The CLI's logger without the per-migration lines (commands print their own summary). */
function quietInfo(io: CliIo): Logger {
  return { ...loggerFor(io), info: () => undefined };
}

/** PostgreSQL: migrations run as this owner role, which grants the app role (DATABASE_URL) what it needs. */
function migrationOptions(io: CliIo) {
  return { migrationDatabaseUrl: io.env.MIGRATION_DATABASE_URL || undefined };
}

export interface RunningServer {
  url: string;
  port: number;
  server: ComposedServer;
  /** Stops accepting connections, finishes the open ones, closes the database. */
  stop(): Promise<void>;
}

/** Opens the database (migrates, seeds on first embedded run) and listens on PORT. */
export async function startServer(io: CliIo): Promise<RunningServer> {
  const port = io.env.PORT === undefined || io.env.PORT === '' ? 3000 : Number(io.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number (got '${io.env.PORT}').`);
  const server = await createComprasServer({
    ...databaseOptions(io),
    ...migrationOptions(io),
    auditAnchor: auditAnchorFromEnv(io.env, io.cwd) ?? null,
    logger: loggerFor(io),
  });
  let http: Server;
  const listening = await new Promise<number>((resolveListen, rejectListen) => {
    http = serve({ fetch: server.app.fetch, port, hostname: io.env.HOST || undefined }, (info) => resolveListen(info.port)) as Server;
    http.once('error', rejectListen);
  }).catch(async (err: unknown) => {
    await server.close();
    throw err;
  });
  let stopping: Promise<void> | undefined;
  return {
    url: `http://localhost:${listening}`,
    port: listening,
    server,
    stop: () => {
      stopping ??= new Promise<void>((resolveStop) => {
        http.close(() => resolveStop());
        http.closeIdleConnections();
        // Requests still running after 10 s are cut (a load balancer retries them elsewhere).
        setTimeout(() => http.closeAllConnections(), 10_000).unref();
      }).then(() => server.close());
      return stopping;
    },
  };
}

async function migrate(io: CliIo): Promise<number> {
  const plugins = composePlugins(serverPlugins);
  const database = await openDatabase({ ...databaseOptions(io), logger: loggerFor(io) });
  try {
    const { applied } = await runMigrations(database, plugins, quietInfo(io), migrationOptions(io));
    io.out(applied.length ? `Migrações aplicadas: ${applied.join(', ')}` : 'Banco de dados já atualizado.');
    return 0;
  } finally {
    await database.close();
  }
}

async function seed(io: CliIo): Promise<number> {
  const plugins = composePlugins(serverPlugins);
  const database = await openDatabase({ ...databaseOptions(io), logger: loggerFor(io) });
  try {
    await runMigrations(database, plugins, quietInfo(io), migrationOptions(io));
    const result = await seedDemo(database, plugins, { logger: loggerFor(io) });
    if (!result.core && result.plugins.length === 0) io.out('Os dados de demonstração já existem.');
    return 0;
  } finally {
    await database.close();
  }
}

async function createAdminCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      login: { type: 'string' },
      nome: { type: 'string' },
      email: { type: 'string' },
      'entidade-nome': { type: 'string' },
      'entidade-cnpj': { type: 'string' },
      municipio: { type: 'string' },
      uf: { type: 'string' },
      telefone: { type: 'string' },
    },
    strict: true,
  });
  const required = ['login', 'nome', 'email', 'entidade-nome', 'entidade-cnpj'] as const;
  const missing = required.filter((key) => !values[key]);
  if (missing.length) {
    io.err(`create-admin: informe ${missing.map((m) => `--${m}`).join(', ')}.`);
    return 2;
  }
  let senha = io.env.ADMIN_PASSWORD ?? '';
  if (!senha) {
    senha = await io.readPassword('Senha do administrador: ');
    const again = await io.readPassword('Repita a senha: ');
    if (senha !== again) {
      io.err('create-admin: as senhas não conferem.');
      return 2;
    }
  }
  const plugins = composePlugins(serverPlugins);
  const database = await openDatabase({ ...databaseOptions(io), logger: loggerFor(io) });
  try {
    await runMigrations(database, plugins, quietInfo(io), migrationOptions(io));
    const created = await createAdmin(database, plugins, {
      login: values.login!,
      nome: values.nome!,
      email: values.email!,
      senha,
      entidadeNome: values['entidade-nome']!,
      entidadeCnpj: values['entidade-cnpj']!,
      municipio: values.municipio,
      uf: values.uf?.toUpperCase(),
      telefoneSuporte: values.telefone,
    });
    io.out(`Administrador '${values.login}' criado na entidade ${values['entidade-nome']} (${created.entidadeId}).`);
    return 0;
  } finally {
    await database.close();
  }
}

/** Runs one command; `start` resolves when the server has stopped after SIGINT/SIGTERM. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command = 'start', ...args] = argv;
  switch (command) {
    case 'start': {
      const running = await startServer(io);
      io.out(`Compras em ${running.url}`);
      return new Promise<number>((resolveExit) => {
        io.onShutdown((signal) => {
          io.out(`${signal}: encerrando…`);
          running.stop().then(
            () => resolveExit(0),
            (err: unknown) => {
              io.err(`falha ao encerrar: ${(err as Error).message}`);
              resolveExit(1);
            },
          );
        });
      });
    }
    case 'migrate':
      return migrate(io);
    case 'seed':
      return seed(io);
    case 'create-admin':
      return createAdminCommand(args, io);
    case 'help':
    case '--help':
    case '-h':
      io.out(USAGE);
      return 0;
    default:
      io.err(`Comando desconhecido: ${command}\n\n${USAGE}`);
      return 2;
  }
}

/** Reads a line without echoing it on a terminal (plain line read when stdin is piped). */
export function readHiddenLine(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stdout.write(prompt);
  if (!stdin.isTTY) {
    return new Promise((resolveLine, rejectLine) => {
      const rl = createInterface({ input: stdin });
      rl.once('line', (line) => {
        rl.close();
        resolveLine(line);
      });
      rl.once('close', () => rejectLine(new Error('no password given on standard input')));
    });
  }
  return new Promise((resolveLine, rejectLine) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
      if (error) rejectLine(error);
      else resolveLine(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new Error('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    stdin.on('data', onData);
  });
}
