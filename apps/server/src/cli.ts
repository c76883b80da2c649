#!/usr/bin/env node
// compras-server [start|migrate|seed|create-admin|help]
import { type CliIo, readHiddenLine, runCli } from './commands.js';

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

runCli(process.argv.slice(2), io).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
