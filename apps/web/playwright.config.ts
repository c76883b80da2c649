import { TIME_ZONE } from '@app/br';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 4310);

export default defineConfig({
  testDir: 'e2e',
  // One server, one embedded database: tests run one after the other, never flaky on 2 cores.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'pt-BR',
    // the browser runs on the application's clock, so the e2e see what a person in Brasília sees
    timezoneId: TIME_ZONE,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
