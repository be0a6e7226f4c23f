import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
          // a few property tests walk thousands of dates: seconds on a busy machine
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          // One database per worker, shared by the files it runs (PGlite takes seconds to create).
          isolate: false,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 120_000,
          env: { NODE_ENV: 'test' },
        },
      },
    ],
  },
});
