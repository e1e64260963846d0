import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '.data/**', '.tools/**', '.cache/**', '**/dist/**'];

export default defineConfig({
  test: {
    reporters: ['default', './infra/local/src/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/test/**/*.unit.test.ts'], exclude } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/test/**/*.int.test.ts'],
          exclude,
          globalSetup: ['infra/local/src/test-setup.ts'],
          // Two cores, and every file shares one set of servers.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          // Chromium against the whole platform (e2e/setup.ts starts it as `npm start` does, on free ports).
          include: ['e2e/**/*.e2e.test.ts'],
          exclude,
          globalSetup: ['e2e/setup.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
