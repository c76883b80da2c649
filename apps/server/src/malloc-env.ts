// The allocator settings the server runs with (issue 23; server-core README, "Memory of the embedded
// server"). V8 compiles PGlite's WASM in background threads with up to ~580 MiB of compiler memory, and
// glibc keeps the freed blocks in its arenas for good: ~70 MiB of an idle embedded server's RSS. With
// MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ at 128 KiB, large blocks are mapped and unmapped
// instead (idle 284 → 215 MiB). glibc reads them only when a process starts, so `compras-server start`
// (what `pnpm start` runs) replaces itself, before it loads anything, with the same program, arguments and
// pid and those two variables added (process.execve, Node ≥ 22.15). Set either variable yourself to
// choose other values: it is then left as it is. Elsewhere than Linux, on an older Node, or for the
// other commands (short-lived) nothing happens.

/** What the server starts with when the environment says nothing (bytes, as glibc reads them). */
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' } as const;

/**
 * The environment to restart `cli.js` with, or null to go on as it is: only for `start` (also the
 * default command) on Linux when neither variable is set.
 */
export function mallocEnvFor(argv: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform): NodeJS.ProcessEnv | null {
  const command = argv[2] ?? 'start';
  if (platform !== 'linux' || command !== 'start') return null;
  if (env.MALLOC_MMAP_THRESHOLD_ !== undefined || env.MALLOC_TRIM_THRESHOLD_ !== undefined) return null;
  return { ...env, ...MALLOC_ENV };
}

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/**
 * cli.ts, before it loads the server: replaces the process (same pid, program and arguments) with one
 * whose environment has MALLOC_ENV when mallocEnvFor says so; otherwise returns.
 */
export function restartWithMallocEnv(): void {
  const execve = (process as { execve?: Execve }).execve;
  if (typeof execve !== 'function') return; // Node < 22.15
  const env = mallocEnvFor(process.argv, process.env, process.platform);
  if (env) execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}
