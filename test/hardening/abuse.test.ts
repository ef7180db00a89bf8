// Abuse limits (issue 20, item 5): checkout starts per IP and per visitor, every public write,
// the monitoring login, and abandoned checkout bookings marked and pruned by a scheduled task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTasks, runTask } from '../../src/tasks.js';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../support/checkout-fixture.js';
import { createTestDatabase } from '../support/db.js';
import { randomClientIp } from '../support/redis.js';

const ES = '/api/es/es/checkout';
const LIMITS = {
  RATE_LIMIT_CHECKOUT_STARTS_PER_IP: '5',
  RATE_LIMIT_CHECKOUT_STARTS_PER_VISITOR: '3',
  RATE_LIMIT_PUBLIC_WRITES: '8',
};

let t: TestApp;
let c: CheckoutCatalog;
beforeAll(async () => {
  const database = await createTestDatabase();
  c = await seedCheckoutCatalog(database);
  t = await createTestApp({ database, env: LIMITS });
});
afterAll(async () => {
  await t.close();
  await t.database.close();
});

const bookingCount = async () =>
  (await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings')).rows[0]!.n;

function start(remoteAddress: string, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: `${ES}/${c.offers.active}`,
    remoteAddress,
    headers: cookie ? { cookie } : {},
  });
}

function visitorCookie(res: { cookies: unknown }): string {
  const v = (res.cookies as { name: string; value: string }[]).find((k) => k.name.includes('visitor'))!;
  return `${v.name}=${v.value}`;
}

describe('checkout start limits', () => {
  it('refuses a sixth start a minute from one IP with 429, writing no booking', async () => {
    // random addresses: a run sharing a Redis store with an earlier one never shares its counters
    const ip = randomClientIp();
    for (let i = 0; i < 5; i++) expect((await start(ip)).statusCode).toBe(201);
    const before = await bookingCount();
    const refused = await start(ip);
    expect(refused.statusCode).toBe(429);
    // the window's rest: 60 s in process, the key's real time-to-live with Redis (less on a loaded machine)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(55);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ success: false, error: 'too_many_requests' });
    expect(await bookingCount()).toBe(before);
    expect((await start(randomClientIp())).statusCode).toBe(201);
  });

  it('refuses more than three starts a minute carrying one visitor cookie, whatever the addresses', async () => {
    // the first start makes the visitor; the next three carry its cookie
    const first = await start(randomClientIp());
    expect(first.statusCode).toBe(201);
    const cookie = visitorCookie(first);
    for (let i = 0; i < 3; i++) expect((await start(randomClientIp(), cookie)).statusCode).toBe(201);
    const refused = await start(randomClientIp(), cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('too_many_requests');
  });

  it('documents the 429 of checkout start in the OpenAPI document', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/{market}/{lang}/checkout/{offerId}'].post.responses)).toContain('429');
  });
});

describe('public writes', () => {
  it('limits every write under /api/:market/:lang per IP, reads not counted', async () => {
    const ip = randomClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `${ES}/contact`,
        remoteAddress: ip,
        payload: { client: { first_name: 'Ana' } },
      });
      statuses.push(res.statusCode);
      // a read between writes does not count
      await t.app.inject({ method: 'GET', url: '/api/es/es/cms/home', remoteAddress: ip });
    }
    expect(statuses.slice(0, 8).every((s) => s !== 429)).toBe(true);
    expect(statuses[8]).toBe(429);
  });
});

describe('monitoring login', () => {
  it('/metrics (HTTP Basic): 429 after 10 wrong passwords, even to the right one, until the window ends', async () => {
    const prod = await createTestApp({
      database: t.database,
      env: {
        ...PRODUCTION_ENV,
        DASHBOARD_PASSWORD: 'right-password',
        ...LIMITS,
        // the lock-out's end is read from the test's clock: the in-memory store follows it
        REDIS_URL: '',
      },
    });
    const basic = (p: string) => `Basic ${Buffer.from(`ops:${p}`).toString('base64')}`;
    const pulse = (password: string, remoteAddress = '203.0.113.50') =>
      prod.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { authorization: basic(password) } });
    try {
      // a browser's first request has no credentials: not a failure
      for (let i = 0; i < 12; i++) {
        expect((await prod.app.inject({ url: '/metrics', remoteAddress: '203.0.113.50' })).statusCode).toBe(401);
      }
      expect((await pulse('right-password')).statusCode).toBe(200);
      for (let i = 0; i < 10; i++) expect((await pulse(`guess-${i}`)).statusCode).toBe(401);
      const locked = await pulse('right-password');
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['retry-after']).toBe('900');
      expect(locked.json()).toMatchObject({ success: false, error: 'too_many_requests' });
      // another address is not locked out
      expect((await pulse('right-password', '203.0.113.51')).statusCode).toBe(200);
      prod.clock.advance(15 * 60_000);
      expect((await pulse('right-password')).statusCode).toBe(200);
    } finally {
      await prod.close();
    }
  });
});

describe('abandoned checkout bookings', () => {
  it('marks them abandoned after the session expired, keeps them for the retention, then deletes them', async () => {
    const s = await createTestApp({
      database: t.database,
      env: { CHECKOUT_SESSION_TTL_MINUTES: '120', CHECKOUT_ABANDONED_RETENTION_DAYS: '90' },
    });
    const task = allTasks(s.app.ctx).find((k) => k.name === 'checkout.abandon')!;
    const run = () =>
      runTask(s.app.ctx, task, { asOf: s.clock.now(), trigger: 'schedule', options: {}, out: () => {} });
    const statusOf = async (id: number) =>
      (await t.database.query<{ status: string }>('SELECT status FROM bookings WHERE id = $1', [id])).rows[0]?.status;
    try {
      await t.database.query('DELETE FROM bookings');
      const res = await s.app.inject({ method: 'POST', url: `${ES}/${c.offers.active}`, remoteAddress: '192.0.2.90' });
      expect(res.statusCode).toBe(201);
      const [{ id }] = (await t.database.query<{ id: number }>('SELECT id FROM bookings')).rows as [{ id: number }];
      // the row's timestamps come from the database's clock; the test's clock is frozen at TEST_NOW
      await t.database.query('UPDATE bookings SET created_at = $1, updated_at = $1', [s.clock.now()]);

      s.clock.advance(119 * 60_000);
      expect(await run()).toEqual({
        ok: true,
        message: '0 checkout bookings marked abandoned, 0 abandoned bookings deleted',
      });
      expect(await statusOf(id)).toBe('checkout');

      s.clock.advance(2 * 60_000); // 121 minutes: the session has expired
      expect((await run()).message).toBe('1 checkout bookings marked abandoned, 0 abandoned bookings deleted');
      expect(await statusOf(id)).toBe('abandoned');
      const transitions = await t.database.query<{ from_status: string; to_status: string }>(
        'SELECT from_status, to_status FROM booking_status_transitions WHERE booking_id = $1',
        [id],
      );
      expect(transitions.rows).toEqual([{ from_status: 'checkout', to_status: 'abandoned' }]);

      s.clock.advance(89 * 86_400_000);
      expect((await run()).message).toBe('0 checkout bookings marked abandoned, 0 abandoned bookings deleted');
      s.clock.advance(1 * 86_400_000 + 60_000);
      expect((await run()).message).toBe('0 checkout bookings marked abandoned, 1 abandoned bookings deleted');
      expect(await statusOf(id)).toBeUndefined();
      expect(task.cron).toBe('23 * * * *');
    } finally {
      await s.close();
    }
  });
});
