import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password' };
export const E2E_CAPTCHA = 'e2e42';
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `kodi-e2e-${process.pid}-${Date.now()}`);

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  // a test takes 10–40 s on a quiet 2-core machine; the margin is for a busy one
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    screenshot: 'only-on-failure',
    // the users' own time zone (the companies' books are kept in Africa/Kampala): a browser's today is
    // the company's today even when UTC is still on yesterday (21:00–24:00 UTC)
    timezoneId: 'Africa/Kampala',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // the demo data is in its own company (issue 26): the administrator works in it before the specs
  projects: [
    { name: 'demo', testMatch: /demo\.setup\.ts/ },
    { name: 'chromium', use: { browserName: 'chromium' }, dependencies: ['demo'] },
  ],
  webServer: {
    command: 'node apps/server/dist/main.js',
    cwd: '..',
    url: `http://127.0.0.1:${E2E_PORT}/rentapi/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // PGlite under DATA_DIR unless E2E_DATABASE_URL names a PostgreSQL database (CI: scripts/test.sh)
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      DEMO_DATA: '1',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      CAPTCHA_TEST_ANSWER: E2E_CAPTCHA,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
    },
  },
});
