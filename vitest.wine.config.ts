// The Windows job (npm run test:wine): the built mcp-tap run by the Windows build of Node under Wine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/wine/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['./test/wine/wine-setup.ts'],
  },
});
