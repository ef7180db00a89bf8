// An archived offer or market product cannot be booked any more (checkout start, the options a
// visitor reads, the payment of a checkout already running: 404 offer_not_found, the contract's
// code for an offer that is not bookable), but every booking made before keeps working: the
// confirmation page, the console's booking page, the balance collection and the flight booking jobs.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, offer, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { CookieJar, clientInput, travelerInput } from '../../../test/support/checkout-jar.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { type PaidBooking, paidBooking } from '../../../test/support/paid-booking.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import { waitFor } from '../../../test/support/wait.js';
import { bookingBalances, bookings, offers } from '../../db/schema/index.js';
import { saveCardForBalance } from '../balance/service.js';
import { bookAllFlights } from '../bookings/flight-booking.js';
import { runImport } from './import.js';

let stripe: FakeStripe;
let t: TestApp;
let cat: CheckoutCatalog;
let productId = 0;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      ...stripe.env,
      IN_PROCESS_WORKERS: 'true',
      FLIGHTS_PROVIDER: 'sandbox',
      FRONTEND_URL: 'https://travel.example',
    },
  });
  cat = await seedCheckoutCatalog(t.database);
  const [model] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
  productId = model.marketProductId;
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

let n = 0;
/** A new Active offer of the es/es product, departing in 60 days. */
async function freshOffer() {
  return offer(t.database.db, { code: `ARCH-${++n}`, marketProductId: productId, departureInDays: 60 }, cat.today);
}

/** The console editor's archive: an import of the status, announced to the app's caches. */
async function setStatus(product: string | undefined, offerStatuses: { code: string; status: string }[] = []) {
  const doc = {
    market_products: [
      {
        template: 'japan-essentials',
        market: 'es',
        language: 'es',
        ...(product ? { status: product } : {}),
        ...(offerStatuses.length ? { offers: offerStatuses } : {}),
      },
    ],
  };
  const result = await runImport(t.database, doc, { today: cat.today, events: t.app.ctx.events });
  expect(result.ok, JSON.stringify(result)).toBe(true);
}

const expectOfferNotFound = (res: { statusCode: number; json(): { error: string } }, what: string) => {
  expect(res.statusCode, what).toBe(404);
  expect(res.json().error, what).toBe('offer_not_found');
};

describe('checkout of an archived offer', () => {
  it('cannot start, read the options of or pay for an archived offer', async () => {
    const o = await freshOffer();
    const running = await freshOffer();
    const jar = new CookieJar(() => t.app, '203.0.113.71');
    expect((await jar.call('POST', `/api/es/es/checkout/${running.id}`, {})).statusCode).toBe(201);
    expect((await jar.call('PUT', '/api/es/es/checkout/contact', { client: clientInput })).statusCode).toBe(200);
    const travelers = [travelerInput('Ana', 'A1'), travelerInput('Luis', 'A2')];
    expect((await jar.call('PUT', '/api/es/es/checkout/travelers', { travelers })).statusCode).toBe(200);

    await setStatus(undefined, [
      { code: o.code, status: 'Archived' },
      { code: running.code, status: 'Archived' },
    ]);
    const visitor = new CookieJar(() => t.app, '203.0.113.72');
    expectOfferNotFound(await visitor.call('POST', `/api/es/es/checkout/${o.id}`, {}), 'start');
    expectOfferNotFound(await visitor.call('GET', `/api/es/es/checkout/${o.id}/contact`), 'summary');
    expectOfferNotFound(await visitor.call('GET', `/api/es/es/checkout/${o.id}/hotels`), 'hotel options');
    expectOfferNotFound(await jar.call('POST', '/api/es/es/checkout/payment/intent'), 'payment of a running checkout');
    expect(stripe.requests.filter((r) => r.path === '/v1/payment_intents')).toEqual([]);

    // restored: bookable again
    await setStatus(undefined, [{ code: o.code, status: 'Active' }]);
    expect((await visitor.call('POST', `/api/es/es/checkout/${o.id}`, {})).statusCode).toBe(201);
  });
});

describe('bookings of an archived product and offer', () => {
  let b: PaidBooking;
  let flights: { id: number; reference: string };

  beforeAll(async () => {
    b = await paidBooking(t, cat, { departureInDays: 120, stripe });
    await saveCardForBalance(t.database.db, {
      bookingId: b.bookingId,
      gatewayCode: 'stripe',
      customerId: `cus_${b.bookingId}`,
      paymentMethodId: 'pm_card_visa',
    });
    flights = await insertPaidBooking(t.database);
    await t.database.db.update(bookings).set({ offerId: b.offerId }).where(eq(bookings.id, flights.id));
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, b.offerId));
    await setStatus('archived', [{ code: o.code, status: 'Archived' }]);
  });

  it('no longer sells the product: an Active offer of an archived product cannot be started', async () => {
    const o = await freshOffer();
    const visitor = new CookieJar(() => t.app, '203.0.113.73');
    expectOfferNotFound(await visitor.call('POST', `/api/es/es/checkout/${o.id}`, {}), 'start');
  });

  it('still shows the confirmation, without a link to the hidden trip page', async () => {
    const res = await t.app.inject({ url: `/api/es/es/checkout/confirmation/${b.reference}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      booking_reference: b.reference,
      tour_name: 'Japón esencial',
      duration_days: 5,
      status: 'pending_land_confirmation',
      amount_paid: b.deposit,
      trip_url: null,
    });
  });

  it('still shows the booking in the console', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const page = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: admin.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Booking ${b.reference}</h1>`);
    expect(page.body).toContain(`<dt>Offer</dt><dd>${b.offerId}</dd>`);
  });

  it('still collects the balance on its due date', async () => {
    const { code, lines } = await runTaskCommand(t, ['balance.collect', '--as-of=2026-08-14']);
    expect(code).toBe(0);
    expect(lines).toContain(`booking ${b.bookingId}: paid`);
    const [balance] = await t.database.db
      .select()
      .from(bookingBalances)
      .where(eq(bookingBalances.bookingId, b.bookingId));
    expect(balance).toMatchObject({ status: 'paid', remainingPrice: '0.00' });
  });

  it('still books its flights', async () => {
    const result = await bookAllFlights(t.app.ctx, flights.id);
    expect(result).toMatchObject({ booking_id: flights.id, queued_legs: [0, 1] });
    const statusOf = async () =>
      (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, flights.id)))[0].s;
    await waitFor(async () => (await statusOf()) === 'flights_confirmed', 20_000);
  });
});
