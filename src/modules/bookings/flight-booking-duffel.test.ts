// Admin-driven flight booking on Duffel (FLIGHTS_PROVIDER=duffel) against the fake Duffel: the
// real queue books every leg as orders carrying our booking and leg; a run stopped between
// "order created" and "record stored" is followed by one that finds the order and does not book
// again; the job's signal stops provider calls; Duffel's failures become the spec's metadata.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDuffel, startFakeDuffel } from '../../../test/fakes/duffel.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking, liveSelection } from '../../../test/support/flight-booking.js';
import { waitFor } from '../../../test/support/wait.js';
import { bookings, exchangeRates } from '../../db/schema/index.js';
import type { JobInfo } from '../../platform/queue.js';
import { DuffelFlightProvider } from '../flights/duffel.js';
import { flightJobs, type StoredFlightSelection } from '../flights/jobs.js';
import * as flightRecords from '../flights/repository.js';
import { bookAllFlights } from './flight-booking.js';
import * as bookingRecords from './repository.js';

let fake: FakeDuffel;
let t: TestApp;
let duffel: DuffelFlightProvider;

beforeAll(async () => {
  fake = await startFakeDuffel();
  duffel = new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token });
  t = await createTestApp({
    env: {
      FLIGHTS_PROVIDER: 'duffel',
      DUFFEL_API_URL: fake.url,
      DUFFEL_API_TOKEN: fake.token,
      IN_PROCESS_WORKERS: 'true',
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** The selection a visitor made from Duffel's offers: a round trip and a domestic flight. */
const duffelSelection = () => liveSelection(duffel, '2026-09-01');

const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].s;
const job = (attempt: number, signal = new AbortController().signal): JobInfo => ({
  id: `test-${attempt}`,
  name: 'flights.book-leg',
  queue: 'flights',
  attempt,
  signal,
});
const ordersOf = (reference: string) => fake.orders.filter((o) => o.metadata.itinera_booking === reference);
const orderCalls = (reference: string) =>
  fake.requests.filter((r) => r.op === 'create_order' && r.body?.data?.metadata?.itinera_booking === reference);

describe('Book All Flights on Duffel', () => {
  it('books each leg as a Duffel order paid from the balance, with our booking and leg as metadata', async () => {
    const b = await insertPaidBooking(t.database, { selection: await duffelSelection() });
    const result = await bookAllFlights(t.app.ctx, b.id);
    expect(result.queued_legs).toEqual([0, 1]);
    await waitFor(async () => (await statusOf(b.id)) === 'flights_confirmed', 20_000);

    const orders = ordersOf(b.reference);
    expect(orders.map((o) => o.metadata).sort((x, y) => x.itinera_leg.localeCompare(y.itinera_leg))).toEqual([
      { itinera_booking: b.reference, itinera_leg: '0' },
      { itinera_booking: b.reference, itinera_leg: '1' },
    ]);
    const sent = orderCalls(b.reference)[0].body.data;
    expect(sent.type).toBe('instant');
    expect(sent.payments).toEqual([
      { type: 'balance', amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'EUR' },
    ]);
    expect(sent.passengers.map((p: any) => [p.title, p.gender, p.given_name, p.family_name])).toEqual([
      ['ms', 'f', 'Ana', 'Garcia'],
      ['mr', 'm', 'Traveler B', 'Garcia'],
    ]);

    const records = await flightRecords.flightBookingsOf(t.database.db, b.id);
    expect(records.map((r) => [r.legIndex, r.provider, r.reservationId.slice(0, 4)])).toEqual([
      [0, 'duffel', 'ord_'],
      [1, 'duffel', 'ord_'],
    ]);
    // the retrieval job stores the order's tickets
    await waitFor(
      async () => (await flightRecords.flightBookingsOf(t.database.db, b.id)).every((r) => r.retrievedAt),
      20_000,
    );
    const stored = (await flightRecords.flightBookingsOf(t.database.db, b.id))[0];
    expect(stored.status).toBe('TICKETED');
    expect((stored.details as { tickets: string[] }).tickets).toHaveLength(1);
  });
});

describe('leg job on Duffel', () => {
  const inProgress = async (selection?: StoredFlightSelection) =>
    insertPaidBooking(t.database, {
      status: 'flight_booking_in_progress',
      selection: selection ?? (await duffelSelection()),
    });

  it('after a run stopped between "order created" and "record stored", finds the order and books nothing more', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    // Duffel creates the order and its answer never arrives; the job's time-out stops the run
    const timeout = new AbortController();
    fake.failNext('create_order', { afterCreate: true, never: true });
    fake.onOrderCreated = () => setTimeout(() => timeout.abort(), 20);
    const first = await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1, timeout.signal));
    fake.onOrderCreated = undefined;
    expect(first).toMatchObject({ kind: 'retry', error: expect.stringMatching(/stopped by its deadline/) });
    expect(ordersOf(b.reference)).toHaveLength(1);
    expect(await flightRecords.flightBookingsOf(t.database.db, b.id)).toEqual([]);
    expect((await flightRecords.legAttempt(t.database.db, b.id, 0))?.lastError).toMatchObject({
      sub_type: 'timeout',
      outcome_unknown: true,
    });

    // the retry asks Duffel for an order of this booking and leg before anything else
    const calls = fake.requests.length;
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(2))).toMatchObject({ kind: 'done' });
    // (the reservation-details job queued after it may already fetch the order: get_order)
    expect(
      fake.requests
        .slice(calls)
        .map((r) => r.op)
        .filter((op) => op !== 'get_order'),
    ).toEqual(['list_orders']);
    expect(ordersOf(b.reference)).toHaveLength(1);
    expect(orderCalls(b.reference)).toHaveLength(1);
    const [record] = await flightRecords.flightBookingsOf(t.database.db, b.id);
    expect(record).toMatchObject({ legIndex: 0, reservationId: ordersOf(b.reference)[0].id, provider: 'duffel' });
    expect(record.flightNumbers).toHaveLength(2);
  });

  it('searches and books a baby as an infant on the adult’s lap, matched by its flights', async () => {
    // the checkout priced two adults; the second traveler turned out to be born on 2025-12-01
    const baby = await insertPaidBooking(t.database, {
      status: 'flight_booking_in_progress',
      selection: await duffelSelection(),
      birthDates: ['1985-05-05', '2025-12-01'],
    });
    const { bookLeg } = flightJobs(t.app.ctx);
    expect(await bookLeg.handler({ bookingId: baby.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'done' });
    const search = fake.requests.filter((r) => r.op === 'create_offer_request').at(-1)!;
    // 0 years old on the final slice's departure (2026-09-12)
    expect(search.body.data.passengers).toEqual([{ type: 'adult' }, { age: 0 }]);
    const sent = orderCalls(baby.reference)[0].body.data.passengers;
    expect(sent.map((p: any) => [p.given_name, p.born_on])).toEqual([
      ['Ana', '1985-05-05'],
      ['Traveler B', '2025-12-01'],
    ]);
    expect(sent[0].infant_passenger_id).toBe(sent[1].id);
    expect(ordersOf(baby.reference)[0].passengers.map((p: any) => p.type)).toEqual(['adult', 'infant_without_seat']);
  });

  it('books a USD market leg from EUR-billed offers and records both amounts, whatever the rate did since', async () => {
    // the visitor chose the fare when 1 EUR was 1.08 USD; today's rate is 1.10
    const atSale = new DuffelFlightProvider({
      baseUrl: fake.url,
      token: fake.token,
      rates: async () => new Map([['USD', '1.08']]),
    });
    const selection = await liveSelection(atSale, '2026-10-20', 0, 'USD');
    await t.database.db
      .insert(exchangeRates)
      .values({ currency: 'USD', ratePerEur: '1.10' })
      .onConflictDoUpdate({ target: exchangeRates.currency, set: { ratePerEur: '1.10' } });
    const b = await insertPaidBooking(t.database, {
      status: 'flight_booking_in_progress',
      selection,
      currency: 'USD',
    });
    const { bookLeg } = flightJobs(t.app.ctx);
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'done' });
    const [record] = await flightRecords.flightBookingsOf(t.database.db, b.id);
    // sold: 1344.06 EUR x 1.08 = 1451.5848 -> 1451.58 USD for the two travelers
    expect(selection.legs[0]).toMatchObject({
      fare_total_cents: 145158,
      billed_total_cents: 134406,
      billed_currency: 'EUR',
    });
    // booked today: 1344.06 EUR x 1.10 = 1478.466 -> 1478.47 USD, and what Duffel billed
    expect(record).toMatchObject({
      totalPrice: '1478.47',
      currency: 'USD',
      billedTotal: '1344.06',
      billedCurrency: 'EUR',
    });
    expect(orderCalls(b.reference)[0].body.data.payments).toEqual([
      { type: 'balance', amount: '1344.06', currency: 'EUR' },
    ]);
  });

  it('after a 502 on order creation, the retry finds the order Duffel made anyway', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    fake.failNext('create_order', { status: 502, rawBody: '<html>Bad gateway</html>', afterCreate: true });
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1))).toMatchObject({ kind: 'retry' });
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(2))).toMatchObject({ kind: 'done' });
    expect(orderCalls(b.reference)).toHaveLength(1);
    expect((await flightRecords.flightBookingsOf(t.database.db, b.id)).map((r) => r.legIndex)).toEqual([1]);
  });

  it('stops a hanging search when the job times out', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    const timeout = new AbortController();
    fake.failNext('create_offer_request', { never: true });
    setTimeout(() => timeout.abort(), 100);
    const result = await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1, timeout.signal));
    expect(result).toMatchObject({ kind: 'retry' });
    expect((await flightRecords.legAttempt(t.database.db, b.id, 1))?.lastError).toMatchObject({
      sub_type: 'timeout',
      leg_index: 1,
    });
  });

  it('records a price change found at the verify step, with both prices, on the last try', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    // every offer of the next search costs 10.00 more when fetched again
    fake.onOffers = (offers) => {
      for (const o of offers) fake.changePrice(o.id, (Number(o.total_amount) + 10).toFixed(2), { atFetch: true });
      fake.onOffers = undefined;
    };
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(3))).toMatchObject({ kind: 'fail' });
    const meta = (await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata as Record<string, number>;
    expect(meta).toMatchObject({ sub_type: 'price_change', currency: 'EUR', fare_id: expect.stringMatching(/^off_/) });
    expect(Math.round((meta.new_price - meta.original_price) * 100)).toBe(1_000);
    expect(meta.percentage_change).toBe(Math.round((1_000 * 10_000) / (meta.original_price * 100)) / 100);
    expect(orderCalls(b.reference)).toHaveLength(0);
  });

  it('maps offer_no_longer_available at order creation to fare_expired on the last try', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    fake.failNext('create_order', {
      status: 422,
      type: 'invalid_state_error',
      code: 'offer_no_longer_available',
      message: 'The offer is no longer available',
    });
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(3))).toMatchObject({ kind: 'fail' });
    expect(await statusOf(b.id)).toBe('flight_booking_failed');
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'fare_expired',
      fare_id: expect.stringMatching(/^off_/),
      expired_at: expect.stringMatching(/^\d{4}-/),
      leg_index: 1,
    });
  });

  it('fails at once on a validation_error, with the errors', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    fake.failNext('create_order', {
      status: 422,
      type: 'validation_error',
      code: 'invalid_phone_number',
      message: 'phone_number is invalid',
    });
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'fail' });
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'validation',
      validation_errors: [{ code: 'invalid_phone_number', message: 'phone_number is invalid' }],
    });
  });

  it('releases for the ratelimit-reset delay on 429 without using a try', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    fake.failNext('create_offer_request', {
      status: 429,
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      headers: { 'ratelimit-reset': new Date(Date.now() + 30_000).toUTCString() },
    });
    const result = await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(3));
    expect(result.kind).toBe('release');
    expect((result as { seconds: number }).seconds).toBeGreaterThanOrEqual(28);
    expect((result as { seconds: number }).seconds).toBeLessThanOrEqual(31);
    expect(await statusOf(b.id)).toBe('flight_booking_in_progress');
    expect((await flightRecords.legAttempt(t.database.db, b.id, 1))?.lastError).toMatchObject({
      sub_type: 'api_error',
      provider_errors: [{ code: 'rate_limit_exceeded' }],
    });
  });

  it('retries a 503 and fails on the last try with the provider errors', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    fake.failNext('create_offer_request', { status: 503, code: 'service_unavailable', message: 'down' });
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1))).toMatchObject({ kind: 'retry' });
    fake.failNext('create_offer_request', { status: 503, code: 'service_unavailable', message: 'down' });
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(3))).toMatchObject({ kind: 'fail' });
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'api_error',
      provider_errors: [{ type: 'api_error', code: 'service_unavailable', message: 'down' }],
    });
  });

  it('fails the leg at the second unclassified exception, apart from tries (max exceptions 2)', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    // an order our table cannot store (a booking reference longer than its column)
    fake.failNext('create_order', { orderOverrides: { booking_reference: 'X'.repeat(40) } });
    await expect(bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1))).rejects.toThrow();
    expect(await statusOf(b.id)).toBe('flight_booking_in_progress');
    // the second run finds that order, fails to store it again, and the leg fails on try 2 of 3
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(2))).toMatchObject({ kind: 'fail' });
    expect(await statusOf(b.id)).toBe('flight_booking_failed');
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'exception',
      exceptions: 2,
      leg_index: 1,
    });
    expect(orderCalls(b.reference)).toHaveLength(1);
  });
});
