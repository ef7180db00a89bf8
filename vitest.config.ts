import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // the browser tests need Chromium: `npm run test:browser` (vitest.browser.config.ts)
    exclude: ['test/browser/**', '**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // two cores here: more workers only adds PGlite start-up contention
    maxWorkers: 2,
  },
});
