import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // the real hosts and the Windows job have their own steps (npm run test:hosts, npm run test:wine)
    exclude: [...configDefaults.exclude, 'test/e2e-hosts/**', 'test/wine/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./test/helpers/build-pages.ts'],
  },
});
