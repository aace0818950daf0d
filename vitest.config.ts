import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** Unit test files that mock a module (vi.mock): they need a module registry of their own. */
const MOCKING = ['test/unit/tail-from-end.test.ts', 'test/unit/head-bytes-js.test.ts'];

export default defineConfig({
  test: {
    // the real hosts and the Windows job have their own steps (npm run test:hosts, npm run test:wine)
    exclude: [...configDefaults.exclude, 'test/e2e-hosts/**', 'test/wine/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a worker per core: vitest's default leaves one core free (one worker on two cores), but most files
    // wait on the processes they start, so a second worker roughly halves the run on two cores
    maxWorkers: Math.max(2, availableParallelism()),
    globalSetup: ['./test/helpers/build-pages.ts'],
    // projects run in name order: the end-to-end files (the long ones) first, so they overlap and the
    // short unit files fill the workers at the end instead of one long file running on alone
    projects: [
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      {
        extends: true,
        // pure code in one process per worker: a fresh process and module registry per file cost more
        // than most unit files' tests (each file still sets up and tears down its own state)
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts'], exclude: [...configDefaults.exclude, ...MOCKING], isolate: false },
      },
      { extends: true, test: { name: 'unit-mocks', include: MOCKING } },
    ],
  },
});
