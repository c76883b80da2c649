// The embedded server's idle memory (issue 23; README, "Memory of the embedded server"): the JS heap
// given back once idle, and the embedded database's buffer pool.
import { describe, expect, it } from 'vitest';
import { createServer, openDatabase, silentLogger } from '../src/index.js';
import { EMBEDDED_SHARED_BUFFERS, embeddedSharedBuffers } from '../src/platform/db/open.js';
import { startHeapTrimmer, trimHeap } from '../src/platform/heap-trim.js';

const MiB = 1024 * 1024;

/** A trimmer on a hand-moved clock and RSS, counting its trims. */
function fakeTrimmer(idleMs = 1000) {
  const state = { now: 0, rss: 500 * MiB, trims: 0 };
  const trimmer = startHeapTrimmer({
    idleMs,
    now: () => state.now,
    rss: () => state.rss,
    trim: () => {
      state.trims++;
      state.rss = 350 * MiB;
    },
  });
  return { state, trimmer };
}

describe('idle heap trim', () => {
  it('trims once the server has been idle, and again only after the RSS grew', () => {
    const { state, trimmer } = fakeTrimmer();
    try {
      state.now = 999;
      expect(trimmer.check()).toBe(false); // not idle long enough since the start
      state.now = 1000;
      expect(trimmer.check()).toBe(true); // the start's garbage
      expect(state.trims).toBe(1);
      expect(trimmer.stats()).toMatchObject({ trims: 1, rssAfterLastTrim: 350 * MiB });

      state.now = 60_000;
      expect(trimmer.check()).toBe(false); // idle, but nothing grew: no pause for nothing
      state.rss = 350 * MiB + 31 * MiB;
      expect(trimmer.check()).toBe(false);
      state.rss = 350 * MiB + 40 * MiB;
      expect(trimmer.check()).toBe(true);
      expect(state.trims).toBe(2);
    } finally {
      trimmer.stop();
    }
  });

  it('never trims while a request is in progress, nor before it has been quiet for idleMs after it', () => {
    const { state, trimmer } = fakeTrimmer();
    try {
      state.now = 500;
      const end = trimmer.begin();
      state.now = 5000;
      expect(trimmer.check()).toBe(false); // a slow request: still running
      end();
      end(); // ending twice counts once
      state.now = 5999;
      expect(trimmer.check()).toBe(false);
      state.now = 6000;
      expect(trimmer.check()).toBe(true);
      expect(state.trims).toBe(1);
    } finally {
      trimmer.stop();
    }
  });

  it('idleMs 0 never trims (HEAP_TRIM_IDLE_SECONDS=0)', () => {
    const { state, trimmer } = fakeTrimmer(0);
    state.now = 1e9;
    expect(trimmer.check()).toBe(false);
    expect(state.trims).toBe(0);
    trimmer.stop();
  });

  it('trimHeap gives the emptied heap pages back to the system (a plain gc() keeps them pooled)', () => {
    // grow the young generation and the old one with short-lived objects, as a start or a big request does
    let keep: unknown[] = [];
    for (let i = 0; i < 3_000_000; i++) {
      keep.push({ i, s: `x${i}` });
      if (keep.length > 1_000_000) keep = [];
    }
    keep = [];
    const before = process.memoryUsage.rss();
    trimHeap();
    const after = process.memoryUsage.rss();
    expect(before - after).toBeGreaterThan(64 * MiB);
  });

  it('createServer trims after its requests, once idle', async () => {
    let trims = 0;
    let rss = 500 * MiB;
    const server = await createServer({
      plugins: [],
      dataDir: 'memory://',
      logger: silentLogger,
      seed: false,
      heapTrim: {
        idleMs: 200,
        rss: () => rss,
        trim: () => {
          trims++;
          rss = 300 * MiB;
        },
      },
    });
    try {
      await new Promise((r) => setTimeout(r, 600));
      expect(trims).toBe(1); // the start's garbage
      // a request that takes longer than idleMs (recover answers after 250 ms at least) holds the trim
      // off until it is over, and idleMs after
      const slow = server.app.request('/api/auth/recover', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'ninguem' }),
      });
      await new Promise((r) => setTimeout(r, 20));
      rss = 400 * MiB;
      await new Promise((r) => setTimeout(r, 150));
      expect(trims).toBe(1);
      expect((await slow).status).toBe(202);
      await new Promise((r) => setTimeout(r, 600));
      expect(trims).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('embedded database memory', () => {
  it(`starts PGlite with shared_buffers ${EMBEDDED_SHARED_BUFFERS}, not PostgreSQL's 128MB`, async () => {
    const database = await openDatabase({ dataDir: 'memory://', logger: silentLogger });
    try {
      const rows = await database.withRawClient((raw) => raw.query<{ shared_buffers: string }>('SHOW shared_buffers'));
      expect(rows[0]!.shared_buffers).toBe(EMBEDDED_SHARED_BUFFERS);
    } finally {
      await database.close();
    }
  });

  it('EMBEDDED_SHARED_BUFFERS sets it; a value that is not a size stops the start', () => {
    expect(embeddedSharedBuffers({})).toBe(EMBEDDED_SHARED_BUFFERS);
    expect(embeddedSharedBuffers({ EMBEDDED_SHARED_BUFFERS: '128MB' })).toBe('128MB');
    expect(embeddedSharedBuffers({ EMBEDDED_SHARED_BUFFERS: ' 512 kB ' })).toBe('512kB');
    expect(() => embeddedSharedBuffers({ EMBEDDED_SHARED_BUFFERS: '64' })).toThrow(/EMBEDDED_SHARED_BUFFERS/);
    expect(() => embeddedSharedBuffers({ EMBEDDED_SHARED_BUFFERS: '64kB' })).toThrow(/at least 128kB/);
    expect(() => embeddedSharedBuffers({ EMBEDDED_SHARED_BUFFERS: '1MB; DROP' })).toThrow(/EMBEDDED_SHARED_BUFFERS/);
  });
});
