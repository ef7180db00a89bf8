// The session-store contract, run against the database store and (when reachable) Redis.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { TEST_REDIS_URL } from '../../../test/support/redis.js';
import { CheckoutSessions } from '../flights/checkout-session.js';
import { checkoutServiceOf } from './service.js';
import { DbSessionStore, RedisSessionStore, type SessionState, type SessionStore } from './session-store.js';

const REDIS_URL = TEST_REDIS_URL;

let t: TestApp;
let c: CheckoutCatalog;
let redis: Redis | undefined;

beforeAll(async () => {
  t = await createTestApp();
  c = await seedCheckoutCatalog(t.database);
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000 });
  probe.on('error', (err) => console.warn(`redis: ${err.message}`));
  try {
    await probe.connect();
    await probe.ping();
    redis = probe;
  } catch (err) {
    console.warn(`Redis session-store tests skipped: ${REDIS_URL} unreachable (${(err as Error).message})`);
    probe.disconnect();
  }
});
afterAll(async () => {
  await redis?.quit();
  await t.close();
});

async function bookingId(): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });
  return res.json().data.booking_id;
}

function state(booking: number): SessionState {
  return {
    offerId: c.offers.active,
    bookingId: booking,
    bookingReference: 'IT-TEST33',
    startedAt: new Date().toISOString(),
    marketCode: 'es',
    lang: 'es',
    currency: { code: 'EUR', symbol: '€' },
    paxCount: 2,
    actualPaxCount: 2,
    actualRoomType: '2A',
    isNonStandardPax: false,
    baseCents: 391000,
    offerFinalCents: 391000,
    flightSelection: null,
    hotelSelections: [],
    activitySelections: [],
    transferSelections: [],
    clientData: null,
    travelerData: null,
  };
}

const id = () => randomBytes(16).toString('hex');

function contract(name: string, make: () => SessionStore | undefined) {
  describe(`${name} session store`, () => {
    it('replaces the visitor session, patches keys and expires', async (ctx) => {
      const store = make();
      if (!store) {
        console.warn(`${name}: skipped, store unavailable`);
        ctx.skip();
        return;
      }
      const now = new Date();
      const later = new Date(now.getTime() + 60_000);
      const visitor = id();
      const [a, b] = [id(), id()];
      const booking = await bookingId();
      await store.replace({ id: a, visitorId: visitor, state: state(booking), expiresAt: later }, now);
      expect((await store.find(a, now))?.state.baseCents).toBe(391000);

      expect(
        await store.patch(
          a,
          { clientData: { first_name: 'A', last_name: 'Bc', email: 'a@b.co', phone: '1' } },
          later,
          now,
        ),
      ).toBe(true);
      const patched = await store.find(a, now);
      expect(patched?.state.clientData?.last_name).toBe('Bc');
      expect(patched?.state.baseCents).toBe(391000);
      expect(patched?.visitorId).toBe(visitor);

      await store.replace({ id: b, visitorId: visitor, state: state(booking), expiresAt: later }, now);
      expect(await store.find(a, now)).toBeNull();
      expect(await store.patch(a, { baseCents: 1 }, later, now)).toBe(false);
      expect((await store.find(b, now))?.state.clientData).toBeNull();

      // expiry follows the given clock
      expect(await store.find(b, new Date(later.getTime() + 1))).toBeNull();
    });

    it('keeps one live session when one visitor starts twice at once', async (ctx) => {
      const store = make();
      if (!store) {
        ctx.skip();
        return;
      }
      const now = new Date();
      const later = new Date(now.getTime() + 60_000);
      const visitor = id();
      const booking = await bookingId();
      const ids = [id(), id(), id(), id()];
      await Promise.all(
        ids.map((s) => store.replace({ id: s, visitorId: visitor, state: state(booking), expiresAt: later }, now)),
      );
      const live = (await Promise.all(ids.map((s) => store.find(s, now)))).filter(Boolean);
      expect(live).toHaveLength(1);
    });
  });
}

contract('database', () => new DbSessionStore(t.database));
contract('redis', () => (redis ? new RedisSessionStore(redis, t.database, `itinera-test:${id()}:`) : undefined));

describe('checkout over HTTP with the Redis store', () => {
  it('starts and reads a session through Redis, one store shared with the flight routes', async (ctx) => {
    if (!redis) {
      console.warn('Redis HTTP test skipped: Redis unreachable');
      ctx.skip();
      return;
    }
    const app = await createTestApp({ database: t.database, env: { REDIS_URL } });
    try {
      const start = await app.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });
      expect(start.statusCode).toBe(201);
      const cookie = (start.headers['set-cookie'] as string[]).map((s) => s.split(';')[0]).join('; ');
      const put = await app.app.inject({
        method: 'PUT',
        url: '/api/es/es/checkout/transfers',
        headers: { cookie },
        payload: { transfer_selections: [{ transfer_id: c.transfers.privateArrival, day_number: 1 }] },
      });
      expect(put.json().data.total_price).toBe(3990);
      const got = await app.app.inject({ method: 'GET', url: '/api/es/es/checkout', headers: { cookie } });
      expect(got.statusCode).toBe(200);
      expect(got.json().data).toEqual(put.json().data);
      // the flight routes read the same session from the same store: they get past the session check
      // (400 no_checkout_session otherwise) to the offer, which in this fixture has no flights
      const flights = await app.app.inject({
        method: 'PUT',
        url: '/api/es/es/checkout/flights',
        headers: { cookie },
        payload: { cabin_class: 'ECONOMY' },
      });
      expect(flights.json()).toMatchObject({ success: false, error: 'no_flights' });
      // ... and through the same service, so one store and one Redis connection serve them all
      expect(CheckoutSessions.of(app.app.ctx).checkout).toBe(checkoutServiceOf(app.app.ctx));
    } finally {
      await app.close();
    }
  });
});
