// The real-host tests (npm run test:hosts): hosts from test/hosts/package.json, installed into .cache/hosts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e-hosts/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    pool: 'forks',
    globalSetup: ['./test/helpers/real-hosts-setup.ts'],
  },
});
