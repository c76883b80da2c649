import { describe, expect, it, vi } from 'vitest';
import { CONSOLE_LOG_LIMIT, clearConsoleLog, getConsoleLog, installConsoleCapture } from '../src/runtime/console';
import { VERSION_POLL_MS, resolveVersionPollMs, startVersionPoll } from '../src/runtime/versionPoll';

describe('console silencing', () => {
  it('production: console.* go to a bounded in-memory log, nothing printed', () => {
    clearConsoleLog();
    const printed = vi.fn();
    const original = console.log;
    console.log = printed;
    const restore = installConsoleCapture({ silence: true });
    try {
      console.log('olá', { a: 1 });
      console.error(new Error('quebrou'));
      console.warn('aviso');
      console.info('info');
      console.debug('debug');
      expect(printed).not.toHaveBeenCalled();
      expect(getConsoleLog().map((e) => [e.level, e.message])).toEqual([
        ['log', 'olá {"a":1}'],
        ['error', 'Error: quebrou'],
        ['warn', 'aviso'],
        ['info', 'info'],
        ['debug', 'debug'],
      ]);
      for (let i = 0; i < 150; i++) console.log(`linha ${i}`);
      const log = getConsoleLog();
      expect(log).toHaveLength(CONSOLE_LOG_LIMIT);
      expect(log.at(-1)?.message).toBe('linha 149');
      expect(log[0]?.message).toBe('linha 50');
    } finally {
      restore();
      expect(console.log).toBe(printed);
      console.log = original;
    }
  });

  it('development: still forwards to the real console', () => {
    clearConsoleLog();
    const printed = vi.fn();
    const original = console.info;
    console.info = printed;
    const restore = installConsoleCapture({ silence: false });
    console.info('visível');
    restore();
    console.info = original;
    expect(printed).toHaveBeenCalledWith('visível');
    expect(getConsoleLog().map((e) => e.message)).toEqual(['visível']);
  });
});

describe('update notice poll', () => {
  it('interval: option, then window.__COMPRAS_VERSION_POLL_MS__, then 60 s', () => {
    expect(resolveVersionPollMs(undefined)).toBe(VERSION_POLL_MS);
    window.__COMPRAS_VERSION_POLL_MS__ = 1000;
    expect(resolveVersionPollMs(undefined)).toBe(1000);
    expect(resolveVersionPollMs(5000)).toBe(5000);
    delete window.__COMPRAS_VERSION_POLL_MS__;
  });

  it('baseline at start; a different buildId notifies once; focus/visibility check again', async () => {
    vi.useFakeTimers();
    let buildId = 'b1';
    const fetchBuildId = vi.fn(async () => buildId);
    const onUpdate = vi.fn();
    const stop = startVersionPoll({ fetchBuildId, onUpdate, intervalMs: 60_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchBuildId).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchBuildId).toHaveBeenCalledTimes(2);
    expect(onUpdate).not.toHaveBeenCalled();

    buildId = 'b2';
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onUpdate).toHaveBeenCalledWith('b2');

    await vi.advanceTimersByTimeAsync(180_000);
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onUpdate).toHaveBeenCalledTimes(1);
    stop();
  });

  it('network failures are ignored', async () => {
    vi.useFakeTimers();
    const fetchBuildId = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('b1');
    const onUpdate = vi.fn();
    const stop = startVersionPoll({ fetchBuildId, onUpdate, intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetchBuildId).toHaveBeenCalledTimes(4);
    expect(onUpdate).not.toHaveBeenCalled();
    stop();
  });
});
