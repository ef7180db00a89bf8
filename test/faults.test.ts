// Faults of the outside services, injected by a TCP proxy (test/support/fault-proxy.ts) between the
// app and Redis or PostgreSQL: a service that stalls, drops or refuses connections mid-request gives
// a fast 503 service_unavailable with Retry-After, leaves no half-written rows, and the app recovers
// when the service is back. Deadlines are set to 1-2 s; every wait is bounded well above them.

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Database } from '../src/db/database.js';
import { dependencyUnavailable } from '../src/platform/dependency-errors.js';
import { postLogin, signIn, TEST_PASSWORD } from './support/admin.js';
import { createTestApp, type TestApp } from './support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from './support/checkout-fixture.js';
import { createTestDatabase } from './support/db.js';
import { FaultProxy } from './support/fault-proxy.js';
import { faultTally } from './support/fault-tally.js';
import { randomClientIp, redisUnavailable, TEST_REDIS_URL } from './support/redis.js';

const noRedis = await redisUnavailable();
if (noRedis) console.warn(`Redis fault tests skipped: ${noRedis}`);

async function count(database: Database, table: string): Promise<number> {
  const { rows } = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return Number(rows[0].n);
}

const tally = faultTally('faults');

/** a request made under a fault: one probe of the suite */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  tally.probes += 1;
  const t0 = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t0 };
}

/** Polls `fn` every 250 ms until it returns true, up to `ms`. */
async function eventually(fn: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** pg_terminate_backend on every connection to the database `database` uses (its whole pool) */
async function terminateAll(database: Database): Promise<number> {
  const [{ db }] = (await database.query<{ db: string }>('SELECT current_database() AS db')).rows;
  const admin = connectPostgres(process.env.DATABASE_URL!, 1);
  try {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [db],
    );
    tally.faults += Number(rows[0]!.n);
    return Number(rows[0]!.n);
  } finally {
    await admin.close();
  }
}

function expectUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toEqual({
    success: false,
    error: 'service_unavailable',
    message: 'A service this request needs is unavailable right now. Please try again shortly.',
  });
}

describe.skipIf(noRedis !== null)('Redis faults during checkout start (sessions in Redis)', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  let c: CheckoutCatalog;
  const start = () => t.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });

  beforeAll(async () => {
    const u = new URL(TEST_REDIS_URL);
    proxy = await FaultProxy.start({ host: u.hostname, port: Number(u.port || 6379) });
    t = await createTestApp({
      env: { REDIS_URL: proxy.via(TEST_REDIS_URL), REDIS_COMMAND_TIMEOUT_MS: '2000', REDIS_CONNECT_TIMEOUT_MS: '2000' },
    });
    c = await seedCheckoutCatalog(t.database);
    // on a very busy machine the embedded database can hold the event loop past the first command's
    // deadline: the warm-up start may need a second try
    expect(await eventually(async () => (await start()).statusCode === 201)).toBe(true);
  });
  afterAll(async () => {
    console.info(`Redis fault proxy: ${proxy.faults} connections faulted`);
    tally.faults += proxy.faults;
    await proxy.set('pass');
    await t.close();
    await proxy.close();
  });

  for (const mode of ['stall', 'drop', 'refuse'] as const) {
    it(`Redis that ${mode === 'stall' ? 'accepts but never answers' : mode === 'drop' ? 'drops connections' : 'refuses connections'}: a fast 503, no orphan booking, then recovery`, async () => {
      const bookings = await count(t.database, 'bookings');
      await proxy.set(mode);
      const { value: res, ms } = await timed(start);
      expectUnavailable(res);
      expect(ms).toBeLessThan(15_000); // the 2 s command time-out, plus a retry; never the 150 s hang
      expect(await count(t.database, 'bookings')).toBe(bookings);

      await proxy.set('pass');
      expect(await eventually(async () => (await start()).statusCode === 201)).toBe(true);
      expect(await count(t.database, 'bookings')).toBeGreaterThan(bookings);
    }, 60_000);
  }
});

describe.skipIf(noRedis !== null)('Redis faults during console sign-in (issue 26)', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  const email = `redis-fault-${Date.now()}-${process.pid}@example.com`;

  beforeAll(async () => {
    const u = new URL(TEST_REDIS_URL);
    proxy = await FaultProxy.start({ host: u.hostname, port: Number(u.port || 6379) });
    t = await createTestApp({
      env: { REDIS_URL: proxy.via(TEST_REDIS_URL), REDIS_COMMAND_TIMEOUT_MS: '1000', REDIS_CONNECT_TIMEOUT_MS: '1000' },
    });
    await signIn(t.app, { email });
  });
  afterAll(async () => {
    console.info(`Redis fault proxy (sign-in): ${proxy.faults} connections faulted`);
    tally.faults += proxy.faults;
    await proxy.set('pass');
    await t.close();
    await proxy.close();
  });

  const skipped = async () => {
    const text = (await t.app.inject('/metrics')).body;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('itinera_rate_limit_store_failures_total{limit="admin-login-ip"}'));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  for (const mode of ['stall', 'drop', 'refuse'] as const) {
    it(`Redis that ${mode === 'stall' ? 'accepts but never answers' : mode === 'drop' ? 'drops connections' : 'refuses connections'}: an operator still signs in (the limiter fails open, counted in /metrics)`, async () => {
      const before = await skipped();
      await proxy.set(mode);
      const { value: res, ms } = await timed(() => postLogin(t.app, email, TEST_PASSWORD));
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/admin');
      expect(ms).toBeLessThan(15_000);
      const wrong = await postLogin(t.app, email, 'not the password');
      expect(wrong.statusCode).toBe(401);
      expect(await skipped()).toBeGreaterThan(before);
      await proxy.set('pass');
    }, 60_000);
  }
});

describe.runIf(process.env.DATABASE_URL)('PostgreSQL faults', () => {
  let proxy: FaultProxy;
  let database: Database;
  let t: TestApp;
  let c: CheckoutCatalog;
  const catalog = () => t.app.inject({ method: 'GET', url: '/api/es/es/products' });
  const start = () => t.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });
  let leadSeq = 0;
  const lead = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/leads',
      remoteAddress: randomClientIp(),
      payload: { name: 'Ana', email: `fault-lead-${++leadSeq}@example.com`, phone: '+34 600 000 000', consent: true },
    });

  beforeAll(async () => {
    const u = new URL(process.env.DATABASE_URL!);
    proxy = await FaultProxy.start({ host: u.hostname, port: Number(u.port || 5432) });
    // the API process's deadlines (openDatabase 'requests'), short for the test
    database = await createTestDatabase({
      via: (url) => proxy.via(url),
      limits: { statementTimeoutMs: 2_000, idleInTransactionTimeoutMs: 2_000, acquireTimeoutMs: 1_000 },
    });
    c = await seedCheckoutCatalog(database);
    // no Redis here: sessions live in PostgreSQL, so start is one statement through the proxy
    t = await createTestApp({ database, env: { REDIS_URL: '' } });
    expect((await start()).statusCode).toBe(201);
  });
  afterAll(async () => {
    console.info(`PostgreSQL fault proxy: ${proxy.faults} connections faulted`);
    tally.faults += proxy.faults;
    await proxy.set('pass');
    await t.close();
    await database.close();
    await proxy.close();
  });

  it('PostgreSQL down (refusing connections): a fast 503, then recovery', async () => {
    await proxy.set('refuse');
    const { value: res, ms } = await timed(start);
    expectUnavailable(res);
    expect(ms).toBeLessThan(5_000);
    expectUnavailable(await catalog());
    await proxy.set('pass');
    expect(await eventually(async () => (await catalog()).statusCode === 200)).toBe(true);
  }, 60_000);

  it('PostgreSQL that stalls mid-request: a 503 within the deadlines, no half-written start, then recovery', async () => {
    const bookings = await count(database, 'bookings');
    await proxy.set('stall');
    const { value: res, ms } = await timed(start);
    expectUnavailable(res);
    // the 1 s acquisition time-out for a new connection, or the 2 s statement + 5 s read time-out
    expect(ms).toBeLessThan(12_000);
    await proxy.set('pass');
    expect(await eventually(async () => (await start()).statusCode === 201)).toBe(true);
    // the stalled start wrote nothing: exactly one more booking, the one that succeeded, with a session
    expect(await count(database, 'bookings')).toBe(bookings + 1);
    const { rows } = await database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM bookings b WHERE NOT EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.booking_id = b.id)',
    );
    expect(Number(rows[0].n)).toBe(0);
  }, 60_000);

  it('PostgreSQL that drops connections mid-request: a 503, then recovery', async () => {
    // a checkout start (the catalog may answer from its cache, whose revision check follows the
    // test's fixed clock, without touching the database)
    await proxy.set('drop');
    expectUnavailable(await start());
    await proxy.set('pass');
    expect(await eventually(async () => (await start()).statusCode === 201)).toBe(true);
  }, 60_000);

  it('a write whose COMMIT the network holds is answered 503 and rolled back, never committed later', async () => {
    const before = await count(database, 'leads');
    await proxy.stallOn('commit');
    const { value: res, ms } = await timed(lead);
    expectUnavailable(res);
    // the 2 s statement deadline plus the 1 s read margin (acquisition was immediate), with room
    // for a loaded machine; before issue 26 it was the statement deadline plus 5 s
    expect(ms).toBeLessThan(10_000);
    // the held COMMIT would reach the server now, had the connection been kept
    await proxy.set('pass');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await count(database, 'leads')).toBe(before);
    expect(await eventually(async () => (await lead()).statusCode === 201)).toBe(true);
    expect(await count(database, 'leads')).toBe(before + 1);
  }, 60_000);

  it('a connection terminated while checked out (mid-transaction) fails that work only; the process keeps serving', async () => {
    // before issue 26 pg emitted 'error' on the checked-out client with no listener: an uncaught
    // exception (vitest reports it and fails the run; a server process exited)
    const err = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        await terminateAll(database);
        await new Promise((r) => setTimeout(r, 500));
        await tx.execute(sql`SELECT 1`);
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    tally.probes += 1;
    expect(dependencyUnavailable(err)?.status).toBe(503);
    expect(await eventually(async () => (await start()).statusCode === 201)).toBe(true);
  }, 60_000);
});
