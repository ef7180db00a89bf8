// `npm run test:browser`: the console in headless Chromium (test/browser). Kept out of `npm test`
// so the unit and HTTP suite runs on machines without a browser; `.ci/run` runs both.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
