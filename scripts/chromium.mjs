// Where the browser tests' Chromium lives. Shared by ensure-chromium.mjs (pnpm test) and the
// Playwright config, so both agree on one binary.
import { existsSync } from 'node:fs';

export const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
];

/** Path of an installed Chromium, or undefined (then Playwright's own download is used). */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p));
}

/** Flags that keep headless Chromium quiet on a machine without outside network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
