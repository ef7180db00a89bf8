// kill -9 of the API in the middle of a checkout and of a payment, and of a worker in the middle of
// a flight-leg job and of a balance charge, each followed by a restart:
// nothing the API acknowledged is lost, nothing is half-written, and nothing is done twice. And
// SIGTERM to a worker in the middle of a job: the job finishes before the process exits.
// Real processes of the built bundle on PostgreSQL (the test reads the database while the server
// runs, which the embedded database does not allow), so this runs in the PostgreSQL pass.
import { execFileSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPostgres, type Database } from '../src/db/database.js';
import { saveCardForBalance } from '../src/modules/balance/service.js';
import { bookAllFlights } from '../src/modules/bookings/flight-booking.js';
import { DuffelFlightProvider } from '../src/modules/flights/duffel.js';
import { projectRoot } from '../src/platform/paths.js';
import { FakeActiveCampaign } from './fakes/activecampaign.js';
import { type FakeDuffel, startFakeDuffel } from './fakes/duffel.js';
import { type FakeStripe, startFakeStripe } from './fakes/stripe.js';
import { createTestApp, TEST_NOW, type TestApp } from './support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from './support/checkout-fixture.js';
import { clientInput, travelerInput } from './support/checkout-jar.js';
import { copyTemplateDatabase } from './support/db.js';
import { faultTally } from './support/fault-tally.js';
import { insertPaidBooking, liveSelection } from './support/flight-booking.js';
import { paidBooking } from './support/paid-booking.js';
import { type ServerProcess, startServer } from './support/server-process.js';
import { waitFor } from './support/wait.js';

const url = process.env.DATABASE_URL;
const tally = faultTally('crash');
// each scenario (a kill, then the checks) is one probe
beforeEach(() => {
  tally.probes += 1;
});

type TemplateCopy = Awaited<ReturnType<typeof copyTemplateDatabase>>;

/** The built bundle, and a database of the suite's template for the processes of one describe. */
async function processDatabase(): Promise<TemplateCopy> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot });
  return copyTemplateDatabase(url!);
}

describe.runIf(url)('kill -9 of the API mid-checkout and mid-payment, then a restart', () => {
  let db: TemplateCopy;
  let database: Database;
  let cat: CheckoutCatalog;
  let server: ServerProcess | undefined;
  const env = () => ({ DATABASE_URL: db.url, IN_PROCESS_WORKERS: 'false' });
  const cookies = new Map<string, string>();
  const base = '/api/es/es/checkout';

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${server!.base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Sends the head and half the body of a request, so it is in flight when the process dies. */
  async function halfSent(method: string, path: string, body: unknown): Promise<void> {
    const text = JSON.stringify(body);
    const socket = createConnection(server!.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((r) => socket.once('connect', r));
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, 20)}`,
    );
    await new Promise((r) => setTimeout(r, 1_000));
  }

  async function restart(): Promise<void> {
    if (server) {
      server.child.kill('SIGKILL');
      tally.faults += 1;
      expect(await server.exited(10_000)).toBe('SIGKILL');
    }
    server = await startServer(env());
    expect(await server.healthy(90_000), server.stderr()).toBe(true);
  }

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await database.query<{ n: number }>(sql, params)).rows[0].n);

  beforeAll(async () => {
    db = await processDatabase();
    database = connectPostgres(db.url, 2);
    cat = await seedCheckoutCatalog(database);
    // the fixture's dates are relative to the suite's fixed clock; the server runs on the real one
    const shift = Math.round((Date.now() - new Date(TEST_NOW).getTime()) / 86_400_000);
    await database.exec(
      `UPDATE offers SET departure_date = departure_date + ${shift}, return_date = return_date + ${shift}`,
    );
    await restart();
  }, 150_000);

  afterAll(async () => {
    await server?.kill();
    await database?.close();
    await db?.drop();
  });

  it('keeps every acknowledged checkout step across a kill -9, and a step cut off mid-request writes nothing', async () => {
    const started = await call('POST', `${base}/${cat.offers.active}`, {});
    expect(started.status).toBe(201);
    const bookingId = started.body.data.booking_id;
    const client = clientInput;
    expect((await call('PUT', `${base}/contact`, { client })).status).toBe(200);

    // a transfers step in flight when the API dies
    await halfSent('PUT', `${base}/transfers`, {
      transfer_selections: [{ transfer_id: cat.transfers.privateArrival, day_number: 1 }],
    });
    await restart();

    const session = await call('GET', base);
    expect(session.status).toBe(200);
    expect(session.body.data.booking_id).toBe(bookingId);
    expect(session.body.data.client_data).toMatchObject(client);
    expect(session.body.data.transfer_selections).toEqual([]);
    expect(await count('SELECT count(*)::int AS n FROM bookings')).toBe(1);
    expect(
      await count(
        'SELECT count(*)::int AS n FROM bookings b WHERE NOT EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.booking_id = b.id)',
      ),
    ).toBe(0);
  }, 150_000);

  it('a payment cut off by a kill -9 is paid once when the visitor tries again; a repeat does nothing', async () => {
    const traveler = travelerInput;
    expect(
      (await call('PUT', `${base}/travelers`, { travelers: [traveler('Ana', 'P1'), traveler('Luis', 'P2')] })).status,
    ).toBe(200);
    const intent = await call('POST', `${base}/payment/intent`);
    expect(intent.status).toBe(200);
    const intentId = intent.body.data.payment_intent_id;
    const bookingId = (await call('GET', base)).body.data.booking_id;

    await halfSent('POST', `${base}/payment/confirm`, { payment_intent_id: intentId });
    await restart();
    expect(await count('SELECT count(*)::int AS n FROM booking_passengers WHERE booking_id = $1', [bookingId])).toBe(0);

    const paid = await call('POST', `${base}/payment/confirm`, { payment_intent_id: intentId });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const reference = paid.body.data.booking_reference;

    // acknowledged: survives another kill -9
    await restart();
    const confirmation = await call('GET', `${base}/confirmation/${reference}`);
    expect(confirmation.status).toBe(200);
    const again = await call('POST', `${base}/payment/confirm`, { payment_intent_id: intentId });
    // a repeat is refused (the session was cleared) or answers the same confirmation: never a second payment
    if (again.status === 200) expect(again.body.data.booking_reference).toBe(reference);
    else expect(again.status).toBeGreaterThanOrEqual(400);
    expect(await count('SELECT count(*)::int AS n FROM booking_passengers WHERE booking_id = $1', [bookingId])).toBe(2);
    // paid once: one payment, and no status entered twice
    expect(await count('SELECT count(*)::int AS n FROM booking_payments WHERE booking_id = $1', [bookingId])).toBe(1);
    expect(
      await count(
        'SELECT (count(*) - count(DISTINCT to_status))::int AS n FROM booking_status_transitions WHERE booking_id = $1',
        [bookingId],
      ),
    ).toBe(0);
  }, 200_000);
});

describe.runIf(url)('SIGTERM to a worker in the middle of a job', () => {
  let db: TemplateCopy;
  let ac: FakeActiveCampaign;
  let t: TestApp;
  let worker: ServerProcess | undefined;

  beforeAll(async () => {
    db = await processDatabase();
    ac = await FakeActiveCampaign.start();
    ac.latencyMs = 1_500; // each ActiveCampaign call takes 1.5 s: the sync runs for several seconds
  }, 60_000);

  afterAll(async () => {
    await worker?.kill();
    await t?.close();
    await ac?.close();
    await db?.drop();
  });

  it('lets the running job finish, then exits 0', async () => {
    const marketing = { MARKETING_API_URL: ac.url, MARKETING_API_TOKEN: ac.token, MARKETING_LIST_ID: '7' };
    worker = await startServer(
      { DATABASE_URL: db.url, SHUTDOWN_GRACE_SECONDS: '60', LOG_LEVEL: 'info', ...marketing },
      { command: 'worker' },
    );
    // the API side, in this process: the sign-up and its jobs go into the shared database
    t = await createTestApp({
      database: connectPostgres(db.url, 2),
      env: { ...marketing, IN_PROCESS_WORKERS: 'false', DNS_SERVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '100' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { email: 'drain@example.com', name: 'Ana', consent: true },
    });
    expect(res.statusCode, res.body).toBe(201);

    // the worker has taken the job: its first ActiveCampaign call arrived
    const deadline = Date.now() + 60_000;
    while (ac.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(ac.requests.length, worker.stderr()).toBeGreaterThan(0);

    worker.child.kill('SIGTERM');
    expect(await worker.exited(60_000), worker.stderr()).toBe(0);
    const { rows } = await t.database.query<{ marketing_contact_id: number | null }>(
      "SELECT marketing_contact_id FROM newsletter_subscribers WHERE email = 'drain@example.com'",
    );
    expect(rows[0].marketing_contact_id).not.toBeNull(); // the job ran to its end before the exit
    const jobs = await t.database.query<{ state: string }>(
      "SELECT state FROM pgboss.job WHERE name = 'marketing-sync'",
    );
    expect(jobs.rows.map((j) => j.state)).toEqual(['completed']);
  }, 150_000);
});

// A worker killed while Duffel has created a leg's order and not yet answered. pg-boss notices a
// dead worker's job only when the job's time-out (420 s) plus a margin has passed since it
// started; the test moves that start back an hour instead of waiting, and lets the retry's backoff
// pass the same way. The restarted worker then runs the retry through the real queue.
describe.runIf(url)('kill -9 of a worker in the middle of a flight-leg job, then a restart', () => {
  let db: TemplateCopy;
  let fake: FakeDuffel;
  let t: TestApp;
  let worker: ServerProcess | undefined;

  beforeAll(async () => {
    db = await processDatabase();
    fake = await startFakeDuffel();
  }, 60_000);

  afterAll(async () => {
    await worker?.kill();
    await t?.close();
    await fake?.close();
    await db?.drop();
  });

  it('books each leg once: the order made before the kill is found, not made again', async () => {
    const duffel = { FLIGHTS_PROVIDER: 'duffel', DUFFEL_API_URL: fake.url, DUFFEL_API_TOKEN: fake.token };
    const workerEnv = {
      ...duffel,
      DATABASE_URL: db.url,
      QUEUE_MAINTENANCE_SECONDS: '1',
      QUEUE_POLL_INTERVAL_MS: '500',
    };
    t = await createTestApp({
      database: connectPostgres(db.url, 2),
      env: { ...duffel, IN_PROCESS_WORKERS: 'false' },
    });
    const selection = await liveSelection(
      new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token }),
      '2027-03-01',
    );
    const b = await insertPaidBooking(t.database, { selection });
    const mine = () => fake.orders.filter((o) => o.metadata.itinera_booking === b.reference);
    const sql = (text: string, params: unknown[] = []) => t.database.query<any>(text, params);

    worker = await startServer(workerEnv, { command: 'worker' });
    // the first order Duffel creates is never answered, and the worker dies while it waits
    fake.failNext('create_order', { afterCreate: true, never: true });
    fake.onOrderCreated = () => {
      fake.onOrderCreated = undefined;
      worker?.child.kill('SIGKILL');
      tally.faults += 1;
    };
    expect((await bookAllFlights(t.app.ctx, b.id)).queued_legs).toEqual([0, 1]);
    expect(await worker.exited(90_000), worker.stderr()).toBe('SIGKILL');
    expect(mine().length).toBeGreaterThanOrEqual(1);

    // the dead worker's jobs: their time-out passes (pg-boss measures it on the database clock)
    await sql("UPDATE pgboss.job SET started_on = started_on - interval '1 hour' WHERE state = 'active'");
    worker = await startServer(workerEnv, { command: 'worker' });

    const deadline = Date.now() + 120_000;
    let records: { leg_index: number; reservation_id: string }[] = [];
    while (Date.now() < deadline) {
      // a retry's backoff (120 s) passes at once
      await sql("UPDATE pgboss.job SET start_after = now() WHERE state = 'retry' AND name = 'flights'");
      records = (
        await sql('SELECT leg_index, reservation_id FROM flight_bookings WHERE booking_id = $1 ORDER BY leg_index', [
          b.id,
        ])
      ).rows;
      if (records.length === 2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(
      records.map((r) => r.leg_index),
      worker.stderr(),
    ).toEqual([0, 1]);
    // one order per leg at Duffel, each stored once
    expect(mine()).toHaveLength(2);
    expect(records.map((r) => r.reservation_id).sort()).toEqual(
      mine()
        .map((o) => o.id)
        .sort(),
    );
    // the killed try came back through the queue's expiry and retry (retry_count), not through this test
    const legJobs = async () =>
      (
        await sql(
          "SELECT state, retry_count FROM pgboss.job WHERE name = 'flights' AND data->>'job' = 'flights.book-leg'",
        )
      ).rows as { state: string; retry_count: number }[];
    // pg-boss marks a job completed just after its handler returns
    await waitFor(async () => (await legJobs()).every((j) => j.state !== 'active'), 30_000);
    expect((await legJobs()).map((j) => j.state)).toEqual(['completed', 'completed']);
    expect((await legJobs()).some((j) => j.retry_count > 0)).toBe(true);
    const { rows } = await sql('SELECT status FROM bookings WHERE id = $1', [b.id]);
    expect(rows[0].status).toBe('flights_confirmed');
  }, 240_000);
});

// A process collecting balances killed while Stripe has made the off-session charge and not yet
// answered (what `balance.collect` does hourly in the workers; here its command, the same code).
// The balance's lease (`charging_until`) is moved into the past instead of waiting it out; the
// next run asks Stripe again with the same idempotency key and records the one charge once.
describe.runIf(url)('kill -9 of a process in the middle of a balance charge, then a run again', () => {
  let db: TemplateCopy;
  let stripe: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    db = await processDatabase();
    stripe = await startFakeStripe();
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await db?.drop();
  });

  /** `node dist/main.js task balance.collect --as-of=...`, as `npm run task -- ...` runs it */
  const collect = () =>
    startServer(
      { ...stripe.env, DATABASE_URL: db.url },
      { command: ['task', 'balance.collect', '--as-of=2026-08-14'] },
    );

  it('charges the card once and records the payment once', async () => {
    t = await createTestApp({
      database: connectPostgres(db.url, 2),
      env: { ...stripe.env, IN_PROCESS_WORKERS: 'false' },
    });
    const cat = await seedCheckoutCatalog(t.database);
    t.clock.set('2026-06-15T10:00:00Z');
    // departs 2026-10-13: the balance is due 60 days before, on 2026-08-14
    const b = await paidBooking(t, cat, { departureInDays: 120, stripe });
    await saveCardForBalance(t.database.db, {
      bookingId: b.bookingId,
      gatewayCode: 'stripe',
      customerId: `cus_${b.bookingId}`,
      paymentMethodId: 'pm_card_visa',
    });
    const sql = (text: string) => t.database.query<any>(text, [b.bookingId]);

    stripe.offSession.holdResponses(1);
    const first = await collect();
    stripe.offSession.onCharged = () => {
      stripe.offSession.onCharged = undefined;
      first.child.kill('SIGKILL');
      tally.faults += 1;
    };
    expect(await first.exited(90_000), first.stderr()).toBe('SIGKILL');
    expect(stripe.offSession.chargesFor(b.bookingId)).toHaveLength(1);
    const [held] = (await sql('SELECT status, charging_until FROM booking_balances WHERE booking_id = $1')).rows;
    expect(held.status).toBe('scheduled');
    expect(held.charging_until).not.toBeNull(); // the dead run's lease

    // the lease runs out (moved back rather than waited for), and the hourly run comes again
    await sql("UPDATE booking_balances SET charging_until = now() - interval '1 minute' WHERE booking_id = $1");
    const second = await collect();
    expect(await second.exited(90_000), second.stderr()).toBe(0);

    const charges = stripe.offSession.chargesFor(b.bookingId);
    expect(charges).toHaveLength(1);
    const keys = stripe.requests
      .filter((r) => r.path === '/v1/payment_intents' && r.form['metadata[booking_id]'] === String(b.bookingId))
      .filter((r) => r.form.off_session === 'true')
      .map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([`balance-${b.bookingId}-1`, `balance-${b.bookingId}-1`]);
    const [balance] = (await sql('SELECT status, attempts FROM booking_balances WHERE booking_id = $1')).rows;
    expect(balance).toEqual({ status: 'paid', attempts: 1 });
    const payments = await sql('SELECT intent_id FROM booking_payments WHERE booking_id = $1');
    expect(payments.rows.filter((p: { intent_id: string }) => p.intent_id === charges[0].id)).toHaveLength(1);
  }, 180_000);
});
