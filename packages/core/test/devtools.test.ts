import { describe, expect, it, vi } from 'vitest';
import { DEVTOOLS_POLL_MS, looksLikeDevtoolsOpen, startDevtoolsDetection } from '../src/runtime/devtools';
import { applyDevtoolsPolicy, shouldReportDevtools } from '../src/runtime/devtoolsPolicy';
import { devtoolsOpenAtom, getCoreStore } from '../src/store';
import { json, makeToken, mockApi } from './helpers';

function setWindowSize(outerWidth: number, innerWidth: number, outerHeight: number, innerHeight: number) {
  for (const [key, value] of Object.entries({ outerWidth, innerWidth, outerHeight, innerHeight })) {
    Object.defineProperty(window, key, { configurable: true, value });
  }
}

describe('developer-tools detection', () => {
  it('heuristic: more than 160 px between outer and inner size', () => {
    expect(looksLikeDevtoolsOpen({ outerWidth: 1280, innerWidth: 1280, outerHeight: 800, innerHeight: 720 })).toBe(false);
    expect(looksLikeDevtoolsOpen({ outerWidth: 1280, innerWidth: 900, outerHeight: 800, innerHeight: 720 })).toBe(true);
    expect(looksLikeDevtoolsOpen({ outerWidth: 1280, innerWidth: 1280, outerHeight: 800, innerHeight: 400 })).toBe(true);
    expect(looksLikeDevtoolsOpen({ outerWidth: 0, innerWidth: 1280, outerHeight: 0, innerHeight: 720 })).toBe(false);
  });

  it('polls every 250 ms and keeps devtoolsOpenAtom current', () => {
    vi.useFakeTimers();
    expect(DEVTOOLS_POLL_MS).toBe(250);
    setWindowSize(1280, 1280, 800, 720);
    const store = getCoreStore();
    const stop = startDevtoolsDetection();
    expect(store.get(devtoolsOpenAtom)).toBe(false);

    setWindowSize(1280, 700, 800, 720); // docked to the side
    vi.advanceTimersByTime(249);
    expect(store.get(devtoolsOpenAtom)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.get(devtoolsOpenAtom)).toBe(true);

    setWindowSize(1280, 1280, 800, 720); // closed
    vi.advanceTimersByTime(250);
    expect(store.get(devtoolsOpenAtom)).toBe(false);

    stop();
    setWindowSize(1280, 700, 800, 720);
    vi.advanceTimersByTime(1000);
    expect(store.get(devtoolsOpenAtom)).toBe(false);
  });
});

describe('devtools policy', () => {
  it('pure decision', () => {
    const base = { open: true, policy: 'report' as const, sid: 's1', reportedSid: null };
    expect(shouldReportDevtools(base)).toBe(true);
    expect(shouldReportDevtools({ ...base, open: false })).toBe(false);
    expect(shouldReportDevtools({ ...base, policy: 'ignore' })).toBe(false);
    expect(shouldReportDevtools({ ...base, sid: null })).toBe(false);
    expect(shouldReportDevtools({ ...base, reportedSid: 's1' })).toBe(false);
    expect(shouldReportDevtools({ ...base, reportedSid: 'outra' })).toBe(true);
  });

  it("'report' POSTs /api/devtools once per session; 'ignore' never", async () => {
    const token = makeToken({ sid: 'sessao-1' });
    const bodies: unknown[] = [];
    mockApi({
      'POST /api/devtools': async (request) => {
        bodies.push(await request.json());
        return json(null, 204);
      },
    });
    expect(applyDevtoolsPolicy({ open: true, policy: 'ignore', token, route: '/x' })).toBe(false);
    expect(applyDevtoolsPolicy({ open: true, policy: 'report', token, route: '/memorando', pagina: 'Memorandos' })).toBe(true);
    expect(applyDevtoolsPolicy({ open: true, policy: 'report', token, route: '/memorando' })).toBe(false);
    await vi.waitFor(() => expect(bodies).toEqual([{ open: true, route: '/memorando', pagina: 'Memorandos' }]));
    // a new session reports again
    expect(applyDevtoolsPolicy({ open: true, policy: 'report', token: makeToken({ sid: 'sessao-2' }), route: '/' })).toBe(true);
  });
});
