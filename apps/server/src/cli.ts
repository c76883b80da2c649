#!/usr/bin/env node
// compras-server [start|migrate|seed|create-admin|verify-audit|outbox|help] (the commands: compras.ts).
// `start` may first restart itself with the allocator's settings (malloc-env.ts), before the server's
// code loads: so that code is imported only after that.
import { restartWithMallocEnv } from './malloc-env.js';

restartWithMallocEnv();
const { main } = await import('./compras.js');
main();
