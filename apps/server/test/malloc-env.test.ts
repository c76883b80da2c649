// `compras-server start` restarts itself with glibc's allocator settings before the server loads
// (malloc-env.ts; idle RSS of the embedded server 284 → 215 MiB, server-core README). The real
// dist/cli.js runs here with a preload (--import) that prints its pid and MALLOC_TRIM_THRESHOLD_ each
// time the program starts, and an invalid PORT so that `start` ends at once, after the restart.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MALLOC_ENV, mallocEnvFor } from '../src/malloc-env.js';

const run = promisify(execFile);
const CLI = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'cli.js');
const PRELOAD = `data:text/javascript,console.log('inicio', process.pid, process.env.MALLOC_MMAP_THRESHOLD_ ?? '-', process.env.MALLOC_TRIM_THRESHOLD_ ?? '-')`;

/** The lines the preload printed, the rest of the output and the exit code. */
async function cli(args: string[], env: Record<string, string>) {
  const base = { ...process.env };
  delete base.MALLOC_MMAP_THRESHOLD_;
  delete base.MALLOC_TRIM_THRESHOLD_;
  const result = await run(process.execPath, ['--import', PRELOAD, CLI, ...args], { env: { ...base, ...env }, timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (err: { stdout: string; stderr: string; code: number }) => ({ stdout: err.stdout, stderr: err.stderr, code: err.code }),
  );
  const starts = result.stdout.split('\n').filter((line) => line.startsWith('inicio '));
  return { ...result, starts: starts.map((line) => line.split(' ').slice(1)) };
}

describe('the allocator settings of `start` (malloc-env.ts)', () => {
  it('mallocEnvFor: only `start` (or no command) on Linux, only when neither variable is set', () => {
    const env = { PATH: '/usr/bin' };
    expect(mallocEnvFor(['node', 'cli.js', 'start'], env, 'linux')).toEqual({ ...env, ...MALLOC_ENV });
    expect(mallocEnvFor(['node', 'cli.js'], env, 'linux')).toEqual({ ...env, ...MALLOC_ENV });
    expect(mallocEnvFor(['node', 'cli.js', 'migrate'], env, 'linux')).toBeNull();
    expect(mallocEnvFor(['node', 'cli.js', 'start'], env, 'darwin')).toBeNull();
    expect(mallocEnvFor(['node', 'cli.js', 'start'], { ...env, MALLOC_TRIM_THRESHOLD_: '0' }, 'linux')).toBeNull();
    expect(mallocEnvFor(['node', 'cli.js', 'start'], { ...env, MALLOC_MMAP_THRESHOLD_: '65536' }, 'linux')).toBeNull();
  });

  it.runIf(process.platform === 'linux' && typeof (process as { execve?: unknown }).execve === 'function')(
    'start runs again as the same process (pid, node options, arguments) with both variables, then goes on',
    async () => {
      const { starts, stderr, code } = await cli(['start'], { PORT: 'porta' });
      expect(starts).toHaveLength(2);
      const [first, second] = starts as [string[], string[]];
      expect(first).toEqual([first[0], '-', '-']);
      expect(second).toEqual([first[0], '131072', '131072']); // same pid: replaced, not a child
      expect(code).toBe(1);
      expect(stderr).toContain("PORT must be a port number (got 'porta')"); // the arguments and env reached `start`
    },
  );

  it('a variable set by the person, or another command: no restart', async () => {
    const own = await cli(['start'], { PORT: 'porta', MALLOC_TRIM_THRESHOLD_: '262144' });
    expect(own.starts).toEqual([[own.starts[0]?.[0], '-', '262144']]);
    expect(own.stderr).toContain("PORT must be a port number (got 'porta')");
    const help = await cli(['help'], {});
    expect(help.starts).toEqual([[help.starts[0]?.[0], '-', '-']]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('verify-audit');
  });
});
