import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '.data/**', '.tools/**', '**/dist/**'];

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
    ],
  },
});
