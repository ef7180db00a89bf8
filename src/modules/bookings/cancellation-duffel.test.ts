// A flights-confirmed booking cancelled by the traveller and by the organiser, against the fake
// Duffel (its orders cancelled through an order cancellation quote, then its confirmation) and the
// Stripe fake (the card refunded: what we sent). The booking (test support insertPaidBooking):
// total 4,140.00 EUR on the fixture's O-ACTIVE offer departing 2026-08-14, deposit 30 % =
// 1,242.00 paid by card, balance 2,898.00.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDuffel, startFakeDuffel } from '../../../test/fakes/duffel.js';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { insertPaidBooking, liveSelection } from '../../../test/support/flight-booking.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import { waitFor } from '../../../test/support/wait.js';
import { bookings } from '../../db/schema/index.js';
import { scheduleBalance } from '../balance/service.js';
import { createApiToken } from '../checkout/service.js';
import { DuffelFlightProvider } from '../flights/duffel.js';
import * as flights from '../flights/repository.js';
import * as notifications from '../notifications/service.js';
import * as paymentRecords from '../payments/repository.js';
import { paymentSettlementOf } from '../payments/settlement.js';
import { bookAllFlights } from './flight-booking.js';
import { transition } from './status.js';

let duffel: FakeDuffel;
let stripe: FakeStripe;
let t: TestApp;
let cat: CheckoutCatalog;
let token: string;

beforeAll(async () => {
  duffel = await startFakeDuffel();
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      ...stripe.env,
      FLIGHTS_PROVIDER: 'duffel',
      DUFFEL_API_URL: duffel.url,
      DUFFEL_API_TOKEN: duffel.token,
      IN_PROCESS_WORKERS: 'true',
    },
  });
  cat = await seedCheckoutCatalog(t.database);
  token = (await createApiToken(t.database.db, 'ops', ['admin:bookings'])).token;
});
afterAll(async () => {
  await t.close();
  await duffel.close();
  await stripe.close();
});

const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].s;

/** a booking on O-ACTIVE whose deposit (1,242.00) was paid by card and whose flights are booked at Duffel */
async function flightsConfirmed() {
  t.clock.set('2026-06-15T10:00:00Z');
  const provider = new DuffelFlightProvider({ baseUrl: duffel.url, token: duffel.token });
  const b = await insertPaidBooking(t.database, { selection: await liveSelection(provider, '2026-09-01') });
  await t.database.db.update(bookings).set({ offerId: cat.offers.active }).where(eq(bookings.id, b.id));
  const gateway = paymentSettlementOf(t.app.ctx).gateway!;
  const intent = await gateway.createIntent({
    amountCents: 124200,
    currency: 'EUR',
    bookingReference: b.reference,
    bookingId: b.id,
    customer: { email: 'ana@example.com', name: 'Ana Garcia' },
    idempotencyKey: `deposit-${b.id}`,
  });
  stripe.succeed(intent.id);
  await paymentRecords.insertPayment(t.database.db, {
    bookingId: b.id,
    intentId: intent.id,
    gatewayCode: 'stripe',
    methodCode: 'card',
    amount: '1242.00',
    totalPrice: '4140.00',
    currency: 'EUR',
    status: 'Succeeded',
  });
  await t.database.db.transaction((tx) => scheduleBalance(tx, t.app.ctx, b.id, 124200));
  await bookAllFlights(t.app.ctx, b.id);
  await waitFor(async () => (await statusOf(b.id)) === 'flights_confirmed', 20_000);
  const orders = duffel.orders.filter((o) => o.metadata.itinera_booking === b.reference);
  expect(orders).toHaveLength(2);
  return { ...b, intentId: intent.id, orders };
}

function cancel(id: number, by: 'traveller' | 'organiser', reason: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/internal/bookings/${id}/cancel`,
    payload: { by, reason },
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('cancelling a flights-confirmed booking', () => {
  it('by the traveller: Duffel orders cancelled (quote, then confirm), the card refunded less the fee', async () => {
    const b = await flightsConfirmed();
    // 2026-07-01 is 44 days before 2026-08-14: the 30 % step, fee 4,140.00 x 0.30 = 1,242.00, so
    // the whole deposit is kept and nothing is refunded
    t.clock.set('2026-07-01T10:00:00Z');
    const late = await t.app.inject({
      method: 'GET',
      url: `/api/internal/bookings/${b.id}/cancellation`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(late.json().data).toMatchObject({ fee: 1242, refund: 0, paid: 1242, days_before_departure: 44 });
    // on 2026-06-15 it is 60 days before: the 10 % step, fee 414.00, refund 1,242.00 - 414.00 = 828.00
    t.clock.set('2026-06-15T10:00:00Z');
    const res = await cancel(b.id, 'traveller', 'Changed plans');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      status: 'cancelled',
      fee: 414,
      refund: { amount: 828, currency: 'EUR', status: 'succeeded' },
    });
    const sent = stripe.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === b.intentId);
    expect(sent.map((r) => [r.headers['idempotency-key'], r.form.amount])).toEqual([[`refund-${b.id}-1`, '82800']]);

    // the job cancels each order: quote, then confirm
    await waitFor(
      async () => (await flights.flightBookingsOf(t.database.db, b.id)).every((l) => l.status === 'cancelled'),
      20_000,
    );
    for (const order of b.orders) {
      const calls = duffel.requests.filter(
        (r) =>
          (r.op === 'create_order_cancellation' && r.body?.data?.order_id === order.id) ||
          (r.op === 'confirm_order_cancellation' &&
            duffel.cancellations.some((c) => c.order_id === order.id && r.path.includes(c.id))),
      );
      expect(calls.map((r) => r.op)).toEqual(['create_order_cancellation', 'confirm_order_cancellation']);
      expect(order.cancelled_at).not.toBeNull();
    }
    const legs = await flights.flightBookingsOf(t.database.db, b.id);
    for (const [i, leg] of legs.entries()) {
      expect(leg.cancellation).toMatchObject({
        cancellation_id: expect.stringMatching(/^ore_/),
        airline_refund_amount: b.orders.find((o) => o.id === leg.reservationId).total_amount,
        airline_refund_currency: 'EUR',
        refund_to: 'balance',
      });
      expect(leg.legIndex).toBe(i);
    }
    const notes = await notifications.notificationsOf(t.database.db, b.id);
    expect(notes.filter((n) => n.type === 'flight_order_cancelled')).toHaveLength(2);
  });

  it('by the organiser: the whole deposit back, orders cancelled', async () => {
    const b = await flightsConfirmed();
    const res = await cancel(b.id, 'organiser', 'Tour operator cancelled the departure');
    expect(res.json().data).toEqual({
      status: 'cancelled',
      fee: 0,
      refund: { amount: 1242, currency: 'EUR', status: 'succeeded' },
    });
    const sent = stripe.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === b.intentId);
    expect(sent.map((r) => r.form.amount)).toEqual(['124200']);
    await waitFor(
      async () => (await flights.flightBookingsOf(t.database.db, b.id)).every((l) => l.status === 'cancelled'),
      20_000,
    );
    expect(b.orders.every((o) => o.cancelled_at)).toBe(true);
  });

  it('a process that died before queuing the order cancellation: the hourly task queues it again, once', async () => {
    const b = await flightsConfirmed();
    // what the cancel's transaction commits, without the job it queues after the commit
    expect(
      await transition(t.database.db, b.id, ['flights_confirmed'], 'cancelled', { cancelled_by: 'organiser' }),
    ).toBe(true);
    expect((await flights.flightBookingsOf(t.database.db, b.id)).map((l) => l.status)).not.toContain('cancelled');

    const run = await runTaskCommand(t, ['bookings.cancel-flight-orders']);
    expect(run.code).toBe(0);
    await waitFor(
      async () => (await flights.flightBookingsOf(t.database.db, b.id)).every((l) => l.status === 'cancelled'),
      20_000,
    );
    const creations = duffel.requests.filter(
      (r) => r.op === 'create_order_cancellation' && b.orders.some((o) => o.id === r.body?.data?.order_id),
    );
    expect(creations).toHaveLength(2);
    // nothing left to cancel: a second run queues nothing for this booking
    const again = await runTaskCommand(t, ['bookings.cancel-flight-orders']);
    expect(again.lines.join('\n')).toContain('0 booking(s) with flight orders still booked');
  });
});
