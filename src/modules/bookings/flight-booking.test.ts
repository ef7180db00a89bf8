// Admin-driven flight booking: the real leg job run by the real pg-boss queue on the sandbox
// provider (happy path), and the job's outcomes for each failure cause (the sandbox's configured
// failures; Duffel's own failures are in flight-booking-duffel.test.ts).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking, paidSelection } from '../../../test/support/flight-booking.js';
import { waitFor } from '../../../test/support/wait.js';
import { bookings } from '../../db/schema/index.js';
import type { JobInfo } from '../../platform/queue.js';
import { flightJobs } from '../flights/jobs.js';
import { flightProvider } from '../flights/providers.js';
import * as flightRecords from '../flights/repository.js';
import type { SandboxFlightProvider } from '../flights/sandbox.js';
import * as notifications from '../notifications/service.js';
import { bookAllFlights } from './flight-booking.js';
import * as bookingRecords from './repository.js';

let t: TestApp;
let sandbox: SandboxFlightProvider;

beforeAll(async () => {
  t = await createTestApp({ env: { FLIGHTS_PROVIDER: 'sandbox', IN_PROCESS_WORKERS: 'true' } });
  sandbox = flightProvider(t.app.ctx) as SandboxFlightProvider;
});
afterAll(async () => {
  await t.close();
});

const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].s;
const job = (attempt: number): JobInfo => ({
  id: `test-${attempt}`,
  name: 'flights.book-leg',
  queue: 'flights',
  attempt,
  signal: new AbortController().signal,
});

describe('Book All Flights on the real queue', () => {
  it('books every leg, confirms the flights and notifies the admins', async () => {
    const b = await insertPaidBooking(t.database);
    const result = await bookAllFlights(t.app.ctx, b.id);
    expect(result).toMatchObject({ booking_id: b.id, queued_legs: [0, 1], booked_legs: [] });
    expect(['flight_booking_in_progress', 'flights_confirmed']).toContain(result.status);

    await waitFor(async () => (await statusOf(b.id)) === 'flights_confirmed', 20_000);
    const records = await flightRecords.flightBookingsOf(t.database.db, b.id);
    expect(records.map((r) => [r.legIndex, r.flightType, r.cabinClass, r.provider])).toEqual([
      [0, 'international', 'ECONOMY', 'sandbox'],
      [1, 'domestic', 'ECONOMY', 'sandbox'],
    ]);
    const selection = paidSelection();
    expect(records[0].flightNumbers).toEqual([
      ...selection.legs[0].flight_numbers.outbound,
      ...selection.legs[0].flight_numbers.inbound,
    ]);
    // the sandbox's reservation ids carry what was booked: the fare, our reference, 2 passengers
    for (const r of records) {
      const booked = JSON.parse(Buffer.from(r.reservationId.slice(5), 'base64url').toString());
      expect(booked).toMatchObject({ f: r.fareId, r: b.reference, n: 2 });
    }

    // the retrieval job stores the reservation details
    await waitFor(
      async () => (await flightRecords.flightBookingsOf(t.database.db, b.id)).every((r) => r.retrievedAt),
      20_000,
    );
    expect((await flightRecords.flightBookingsOf(t.database.db, b.id))[0].details).toMatchObject({
      legs: [{ flight_numbers: selection.legs[0].flight_numbers.outbound }, expect.any(Object)],
    });

    const transitions = await bookingRecords.transitionsOf(t.database.db, b.id);
    expect(transitions.map((x) => [x.fromStatus, x.toStatus])).toEqual([
      ['pending_flight_booking', 'flight_booking_in_progress'],
      ['flight_booking_in_progress', 'flights_confirmed'],
    ]);
    // legs booked one after the other give a progress notification first; two legs finishing at
    // the same moment both see every leg booked, and only one of them confirms
    const notes = await notifications.notificationsOf(t.database.db, b.id);
    expect(notes.filter((n) => n.type === 'flights_confirmed')).toHaveLength(1);
    expect(notes.at(-1)?.type).toBe('flights_confirmed');
    for (const n of notes.filter((x) => x.type === 'flight_leg_booked'))
      expect(n.message).toMatch(/1 of 2 legs booked/);
  });

  it('does not leave the booking waiting when every leg job is still locked by its unique key', async () => {
    const b = await insertPaidBooking(t.database);
    const { bookLeg } = flightJobs(t.app.ctx);
    // jobs of an earlier run hold both keys (delayed so they do not run during the test)
    for (const legIndex of [0, 1]) {
      const id = await t.app.ctx.queue.dispatch(
        bookLeg,
        { bookingId: b.id, legIndex },
        { uniqueKey: `checkout-flight:${b.id}:${legIndex}`, delaySeconds: 3600 },
      );
      expect(id).not.toBeNull();
    }
    await expect(bookAllFlights(t.app.ctx, b.id)).rejects.toMatchObject({ status: 409, code: 'flight_jobs_locked' });
    expect(await statusOf(b.id)).toBe('pending_flight_booking');
  });

  it('refuses a booking that is not waiting for flights, and an unknown booking', async () => {
    const b = await insertPaidBooking(t.database, { status: 'checkout' });
    await expect(bookAllFlights(t.app.ctx, b.id)).rejects.toMatchObject({
      status: 409,
      code: 'invalid_booking_status',
    });
    await expect(bookAllFlights(t.app.ctx, 999_999)).rejects.toMatchObject({ status: 404, code: 'booking_not_found' });
  });
});

describe('leg job outcomes', () => {
  /** a booking already moved to in progress, with no job queued (the test runs the handler) */
  async function inProgress(opts: Parameters<typeof insertPaidBooking>[1] = {}) {
    const b = await insertPaidBooking(t.database, { ...opts, status: 'flight_booking_in_progress' });
    return b;
  }

  it('releases a leg without a matching fare for 300 s once, then fails it with the metadata', async () => {
    const selection = paidSelection();
    selection.legs[0].fare_price += 5; // the visitor's price no longer exists
    selection.legs[0].fare_total_cents! += 1_000;
    const b = await inProgress({ selection });
    const { bookLeg } = flightJobs(t.app.ctx);
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1))).toMatchObject({
      kind: 'release',
      seconds: 300,
    });
    expect(await statusOf(b.id)).toBe('flight_booking_in_progress');
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'fail' });
    expect(await statusOf(b.id)).toBe('flight_booking_failed');
    const last = (await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!;
    expect(last.metadata).toEqual({
      message: expect.stringContaining('No matching ECONOMY fare for leg 0'),
      sub_type: 'no_matching_fare',
      flight_numbers: [...selection.legs[0].flight_numbers.outbound, ...selection.legs[0].flight_numbers.inbound],
      cabin_class: 'ECONOMY',
      total_fares_searched: 6,
      expected_price: Number(((selection.legs[0].fare_price * 100 * 2) / 100).toFixed(2)),
      leg_type: 'international',
      leg_index: 0,
    });
    expect((await notifications.notificationsOf(t.database.db, b.id)).map((n) => n.type)).toEqual([
      'flight_booking_failed',
    ]);
  });

  it('retries search failures and fails on the last try with the provider errors', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    sandbox.setFailure('search', 'api_error');
    try {
      expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1))).toMatchObject({ kind: 'retry' });
      expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(2))).toMatchObject({ kind: 'retry' });
      expect(await statusOf(b.id)).toBe('flight_booking_in_progress');
      expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(3))).toMatchObject({ kind: 'fail' });
    } finally {
      sandbox.setFailure('search', undefined);
    }
    expect(await statusOf(b.id)).toBe('flight_booking_failed');
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toEqual({
      message: 'Sandbox search failure (api_error)',
      sub_type: 'api_error',
      leg_index: 1,
      provider_errors: [{ code: 'SANDBOX', message: 'configured search failure' }],
    });
  });

  it('a traveler named Pricechange shows a price change at booking, as a demo selects it', async () => {
    const b = await inProgress({ lastNames: ['Garcia', 'Pricechange'] });
    const { bookLeg } = flightJobs(t.app.ctx);
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(3))).toMatchObject({ kind: 'fail' });
    expect(await statusOf(b.id)).toBe('flight_booking_failed');
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'price_change',
      percentage_change: 10,
      leg_index: 0,
    });
  });

  it('records verify and booking failures with the fare id; validation fails at once', async () => {
    const { bookLeg } = flightJobs(t.app.ctx);
    const b1 = await inProgress();
    // the sandbox raises the price by a tenth at the verify step
    sandbox.setFailure('verify', 'price_change');
    try {
      expect(await bookLeg.handler({ bookingId: b1.id, legIndex: 1 }, job(3))).toMatchObject({ kind: 'fail' });
    } finally {
      sandbox.setFailure('verify', undefined);
    }
    const paid = paidSelection().legs[1].fare_price * 2;
    const meta = (await bookingRecords.transitionsOf(t.database.db, b1.id)).at(-1)!.metadata as Record<string, number>;
    expect(meta).toMatchObject({
      sub_type: 'price_change',
      fare_id: expect.stringMatching(/^SBX\./),
      currency: 'EUR',
      leg_index: 1,
    });
    expect(Math.abs(meta.original_price - paid)).toBeLessThanOrEqual(0.01);
    expect(meta.percentage_change).toBeCloseTo(10, 1);

    const b2 = await inProgress();
    sandbox.setFailure('book', 'validation');
    try {
      expect(await bookLeg.handler({ bookingId: b2.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'fail' });
    } finally {
      sandbox.setFailure('book', undefined);
    }
    expect((await bookingRecords.transitionsOf(t.database.db, b2.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'validation',
      validation_errors: [{ field: 'passengers', message: 'configured validation failure' }],
      leg_index: 0,
    });
  });

  it('is idempotent per leg and tolerates the concurrent duplicate confirmation', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    const [r0, r1] = await Promise.all([
      bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1)),
      bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1)),
    ]);
    expect([r0.kind, r1.kind]).toEqual(['done', 'done']);
    // a repeated job for a booked leg does not book again
    const before = await flightRecords.flightBookingsOf(t.database.db, b.id);
    sandbox.setFailure('search', 'api_error'); // a repeated job must not even search
    try {
      expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'done' });
    } finally {
      sandbox.setFailure('search', undefined);
    }
    expect(await flightRecords.flightBookingsOf(t.database.db, b.id)).toEqual(before);
    expect(await statusOf(b.id)).toBe('flights_confirmed');
    const confirmations = (await bookingRecords.transitionsOf(t.database.db, b.id)).filter(
      (x) => x.toStatus === 'flights_confirmed',
    );
    expect(confirmations).toHaveLength(1);
    expect((await flightRecords.flightBookingsOf(t.database.db, b.id)).length).toBe(2);
  });

  it('retries only the unbooked legs after a failure', async () => {
    const b = await inProgress();
    const { bookLeg } = flightJobs(t.app.ctx);
    expect(await bookLeg.handler({ bookingId: b.id, legIndex: 0 }, job(1))).toMatchObject({ kind: 'done' });
    sandbox.setFailure('book', 'validation');
    try {
      expect(await bookLeg.handler({ bookingId: b.id, legIndex: 1 }, job(1))).toMatchObject({ kind: 'fail' });
    } finally {
      sandbox.setFailure('book', undefined);
    }
    expect(await statusOf(b.id)).toBe('flight_booking_failed');

    const retry = await bookAllFlights(t.app.ctx, b.id);
    expect(retry).toMatchObject({ queued_legs: [1], booked_legs: [0] });
    await waitFor(async () => (await statusOf(b.id)) === 'flights_confirmed', 20_000);
    const moves = (await bookingRecords.transitionsOf(t.database.db, b.id)).map((x) => [x.fromStatus, x.toStatus]);
    expect(moves.slice(-2)).toEqual([
      ['flight_booking_failed', 'flight_booking_in_progress'],
      ['flight_booking_in_progress', 'flights_confirmed'],
    ]);
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-2)!.metadata).toMatchObject({
      action: 'retry',
      legs: [1],
    });
  });
});
