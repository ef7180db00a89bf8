// The compose.yaml topology without containers: the same commands (`node dist/main.js migrate`,
// two `serve` and a `worker`) on the machine's PostgreSQL and Redis. A checkout started on one API
// process is paid on the other, the sign-up rate limit is shared, the worker runs the flight jobs,
// and a worker stopped by SIGTERM mid-way loses no job. Needs PostgreSQL (it creates its own
// database: DATABASE_URL's server, or 127.0.0.1:5432) and Redis; .ci/run's PostgreSQL pass runs it.
import { execFileSync } from 'node:child_process';
import { carryCheckoutSession, createItineraClient, type ItineraClient, type Middleware } from '@itinera/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Database } from '../src/db/database.js';
import { bookings } from '../src/db/schema/index.js';
import { createApiToken } from '../src/modules/checkout/service.js';
import { projectRoot } from '../src/platform/paths.js';
import { withDatabase } from './global-setup.js';
import { type CheckoutCatalog, cacheFlightsOf, seedCheckoutCatalog } from './support/checkout-fixture.js';
import { postgresUnavailable, TEST_DATABASE_SERVER, testDatabaseName } from './support/postgres.js';
import { randomClientIp, redisUnavailable, TEST_REDIS_URL } from './support/redis.js';
import { type CapturedProcess, freePort, spawnCaptured } from './support/server-process.js';
import { waitFor } from './support/wait.js';

const SERVER = TEST_DATABASE_SERVER;

const unavailable = (await postgresUnavailable()) ?? (await redisUnavailable());
if (unavailable) console.warn(`topology test skipped: ${unavailable}`);

type Proc = CapturedProcess;

describe.skipIf(unavailable !== null)('the compose topology without containers', () => {
  const name = testDatabaseName('topology');
  const url = withDatabase(SERVER, name);
  const admin = connectPostgres(SERVER, 1);
  let db: Database;
  let cat: CheckoutCatalog;
  const procs: Proc[] = [];
  const ports: number[] = [];
  const env = {
    ...process.env,
    APP_ENV: 'development',
    LOG_LEVEL: 'warn',
    APP_KEY: 'topology-test-key-with-more-than-32-characters',
    DATABASE_URL: url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `itinera-test:${name}:`,
    IN_PROCESS_WORKERS: 'false',
    LOAD_DEMO_DATA: 'false',
    HOST: '127.0.0.1',
    // the test plays a local proxy that sets X-Forwarded-For (the default trusts none)
    TRUSTED_PROXIES: '127.0.0.1,::1',
    QUEUE_POLL_INTERVAL_MS: '500',
    DATABASE_POOL_SIZE: '4',
  };

  function start(command: string, extra: Record<string, string> = {}): Proc {
    const proc = spawnCaptured(process.execPath, ['dist/main.js', command], {
      cwd: projectRoot,
      env: { ...env, ...extra },
    });
    procs.push(proc);
    return proc;
  }

  async function ready(port: number, proc: Proc): Promise<void> {
    await waitFor(
      async () =>
        fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
      250,
    ).catch(() => {
      throw new Error(`API on ${port} did not become ready:\n${proc.output()}`);
    });
  }

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot });
    await admin.exec(`CREATE DATABASE ${name}`);
    // the one-shot migration, as compose's migrate service runs it
    execFileSync(process.execPath, ['dist/main.js', 'migrate'], { cwd: projectRoot, env });
    db = connectPostgres(url, 2);
    cat = await seedCheckoutCatalog(db, new Date().toISOString()); // the processes run on the real clock
    await cacheFlightsOf(db, cat.offers.active);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      ports.push(port);
      const proc = start('serve', { PORT: String(port) });
      await ready(port, proc);
    }
  }, 180_000);

  afterAll(async () => {
    for (const p of procs) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    }
    await db?.close();
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.close();
  }, 60_000);

  it('shares the sign-up rate limit between the API processes', async () => {
    const ip = randomClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/api/newsletter/subscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email: `topo${i}@example.com`, consent: true }),
      });
      statuses.push(res.status);
    }
    // 5 a minute per client, counted across both processes: the sixth is refused
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it('pays on one process a checkout started on the other; the worker books the flights across a SIGTERM', async () => {
    const ip = randomClientIp();
    // one visitor on both processes: its client address and its checkout session (header)
    const visitor: Middleware = {
      onRequest({ request }) {
        request.headers.set('x-forwarded-for', ip);
        return request;
      },
    };
    const session = carryCheckoutSession();
    const [one, two]: ItineraClient[] = ports.map((p) => {
      const c = createItineraClient({ baseUrl: `http://127.0.0.1:${p}` });
      c.use(visitor, session);
      return c;
    });
    const path = { market: 'es', lang: 'es' };

    const started = await one.POST('/api/{market}/{lang}/checkout/{offerId}', {
      params: { path: { ...path, offerId: String(cat.offers.active) } },
      body: {},
    });
    expect(started.response.status).toBe(201);
    const reference = started.data!.data.booking_reference;
    const bookingId = started.data!.data.booking_id;

    // live economy pricing (the sandbox provider): the selection then names fares it can book
    const search = await one.POST('/api/{market}/{lang}/checkout/{offerId}/search-economy-flights', {
      params: { path: { ...path, offerId: String(cat.offers.active) } },
    });
    expect(search.data!.data).toMatchObject({ has_flights: true });
    const chosen = await two.PUT('/api/{market}/{lang}/checkout/flights', {
      params: { path },
      body: { cabin_class: 'ECONOMY' },
    });
    expect(chosen.response.status).toBe(200);
    await one.PUT('/api/{market}/{lang}/checkout/contact', {
      params: { path },
      body: { client: { first_name: 'Ana', last_name: 'Garcia', email: 'ana@example.com', phone: '+34600000000' } },
    });
    const traveler = (first_name: string, passport_number: string) => ({
      first_name,
      last_name: 'Garcia',
      nationality: 'ES',
      passport_number,
      passport_expiry: '2031-01-01',
      birth_date: '1980-02-03',
      phone: '+34600000000',
      email: 'ana@example.com',
    });
    const travelers = await two.PUT('/api/{market}/{lang}/checkout/travelers', {
      params: { path },
      body: { travelers: [traveler('Ana', 'X1234567'), traveler('Luis', 'X7654321')] },
    });
    expect(travelers.response.status).toBe(200);

    const intent = await one.POST('/api/{market}/{lang}/checkout/payment/intent', { params: { path } });
    expect(intent.response.status).toBe(200);
    const paid = await two.POST('/api/{market}/{lang}/checkout/payment/confirm', {
      params: { path },
      body: { payment_intent_id: intent.data!.data.payment_intent_id },
    });
    expect(paid.data!.data).toMatchObject({ booking_reference: reference, status: 'pending_flight_booking' });

    // the flight jobs are queued by an API process and run by the worker (no in-process workers)
    const token = (await createApiToken(db.db, 'topology-admin', ['admin:bookings'])).token;
    const worker = start('worker', { LOG_LEVEL: 'info' });
    await waitFor(() => worker.output().includes('queue workers started'), 60_000, 100);
    const queued = await fetch(`http://127.0.0.1:${ports[1]}/api/internal/bookings/${bookingId}/book-flights`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(queued.status).toBe(202);
    // stopped once it has taken the work: it finishes its running jobs (the rest stay queued), exits 0
    await waitFor(
      async () => {
        const [b] = await db.db.select().from(bookings).where(eq(bookings.id, bookingId));
        return b.status !== 'pending_flight_booking';
      },
      60_000,
      50,
    );
    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.output()).toBe(0);

    const second = start('worker');
    await waitFor(
      async () => {
        const [b] = await db.db.select().from(bookings).where(eq(bookings.id, bookingId));
        return b.status === 'flights_confirmed';
      },
      60_000,
      250,
    ).catch(async (err) => {
      const [b] = await db.db.select().from(bookings).where(eq(bookings.id, bookingId));
      const jobs = await db.query('SELECT name, state, retry_count, output FROM pgboss.job ORDER BY created_on');
      throw new Error(
        `${err.message}: booking ${b.status}; jobs ${JSON.stringify(jobs.rows)}\n${worker.output()}\n${second.output()}`,
      );
    });
    const { rows } = await db.query<{ state: string; n: number }>(
      "SELECT state, count(*)::int AS n FROM pgboss.job WHERE state IN ('failed', 'cancelled') GROUP BY state",
    );
    expect(rows).toEqual([]);
  }, 180_000);
});
