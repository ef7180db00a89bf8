// Builds the real app on a fresh test database. Configuration comes from loadConfig with test
// defaults, so a test states only the settings it is about.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { type Clock, fixedClock } from '../../src/platform/clock.js';
import { createTestDatabase } from './db.js';
import { TEST_REDIS_URL } from './redis.js';

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  clock: ReturnType<typeof fixedClock>;
  close(): Promise<void>;
}

export const TEST_NOW = '2026-06-15T10:00:00Z';

/**
 * Tests run many checkouts from one address on a frozen clock, where a per-minute window never
 * ends: the public-write limits are lifted unless a test sets them (test/hardening/abuse.test.ts).
 */
const UNLIMITED = {
  RATE_LIMIT_CHECKOUT_STARTS_PER_IP: '1000000',
  RATE_LIMIT_CHECKOUT_STARTS_PER_VISITOR: '1000000',
  RATE_LIMIT_PUBLIC_WRITES: '1000000',
  RATE_LIMIT_SIGNED_LINKS: '1000000',
  RATE_LIMIT_CONFIRMATION_LOOKUPS: '1000000',
};

/** A complete production configuration (config.ts refuses production without each of these). */
export const PRODUCTION_ENV: Record<string, string> = {
  APP_ENV: 'production',
  APP_KEY: 'k'.repeat(40),
  STRIPE_SECRET_KEY: 'sk_test_production_checks',
  FLIGHTS_PROVIDER: 'duffel',
  DUFFEL_API_TOKEN: 'duffel_test_production_checks',
  DUFFEL_API_URL: 'http://127.0.0.1:9',
  DASHBOARD_USER: 'ops',
  DASHBOARD_PASSWORD: 'correct horse battery',
};

/**
 * The suite's second pass sets REDIS_URL: every test app then keeps its sessions and rate limits in
 * that Redis (a test that is about the in-process stores passes REDIS_URL: ''), each app under a
 * key prefix of its own, as each test file has a database of its own.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    APP_ENV: 'test',
    LOG_LEVEL: 'silent',
    APP_URL: 'http://api.test',
    // the tests play a local reverse proxy that sets X-Forwarded-For (the default trusts none)
    TRUSTED_PROXIES: '127.0.0.1,::1',
    // the storefront on the API's site (same-site: SameSite=Lax cookies); a test about another
    // site sets CORS_ORIGINS
    FRONTEND_URL: 'http://www.api.test',
    ...UNLIMITED,
    // a generous command deadline: in-process PGlite can hold the event loop long enough on a busy
    // machine for a 2 s timer to fire before Redis's answer is read (the fault tests set their own)
    ...(process.env.REDIS_URL ? { REDIS_URL: TEST_REDIS_URL, REDIS_COMMAND_TIMEOUT_MS: '10000' } : {}),
    REDIS_KEY_PREFIX: `itinera-test:${randomBytes(6).toString('hex')}:`,
    // uploads of a test app go to a directory of its own, never into the project's var/media
    MEDIA_DIR: join(tmpdir(), `itinera-media-${process.pid}-${randomBytes(6).toString('hex')}`),
    ...env,
  });
}

export async function createTestApp(
  opts: { env?: Record<string, string>; database?: Database; clock?: Clock; now?: string } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const clock = fixedClock(opts.now ?? TEST_NOW);
  const config = testConfig(opts.env);
  const app = await buildApp({ config, database, clock: opts.clock ?? clock });
  await app.ready();
  return {
    app,
    database,
    config,
    clock,
    async close() {
      await app.close();
      if (!opts.database) await database.close();
    },
  };
}
