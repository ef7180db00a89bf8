// Admin re-booking of a leg that could not be matched, through the admin HTTP API, on Duffel
// (the fake): search again for the leg, pick a fare, book it; the transition records the new
// fare and the price difference; the other legs get their jobs; refusals have their codes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDuffel, startFakeDuffel } from '../../../test/fakes/duffel.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking, liveSelection } from '../../../test/support/flight-booking.js';
import { waitFor } from '../../../test/support/wait.js';
import { bookings } from '../../db/schema/index.js';
import { createApiToken } from '../checkout/service.js';
import { DuffelFlightProvider } from '../flights/duffel.js';
import type { StoredFlightSelection } from '../flights/jobs.js';
import * as flightRecords from '../flights/repository.js';
import * as bookingRecords from './repository.js';

let fake: FakeDuffel;
let t: TestApp;
let auth: { authorization: string };

beforeAll(async () => {
  fake = await startFakeDuffel();
  t = await createTestApp({
    env: {
      FLIGHTS_PROVIDER: 'duffel',
      DUFFEL_API_URL: fake.url,
      DUFFEL_API_TOKEN: fake.token,
      IN_PROCESS_WORKERS: 'true',
    },
  });
  const { token } = await createApiToken(t.database.db, 'ops', ['admin:bookings']);
  auth = { authorization: `Bearer ${token}` };
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A selection whose international fare no longer exists at that price (the fare moved by 5.00 a person). */
async function movedSelection(): Promise<StoredFlightSelection> {
  const selection = await liveSelection(
    new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token }),
    '2026-10-01',
  );
  selection.legs[0].fare_price = Math.round((selection.legs[0].fare_price - 5) * 100) / 100;
  selection.legs[0].fare_total_cents = selection.legs[0].fare_total_cents! - 1_000;
  return selection;
}

const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].s;

describe('admin re-booking of a leg', () => {
  it('shows no difference for the very fare the visitor paid when its total has an odd cent', async () => {
    // Duffel totals need not split evenly: every offer costs 0.01 more than the fake's round price
    fake.onOffers = (offers) => {
      for (const o of offers) o.total_amount = (Number(o.total_amount) + 0.01).toFixed(2);
    };
    try {
      const selection = await liveSelection(
        new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token }),
        '2026-10-07',
      );
      // e.g. 1451.59 for two: 725.795 a person, shown as 725.80
      expect(selection.legs[0].fare_total_cents! % 2).toBe(1);
      const b = await insertPaidBooking(t.database, { status: 'flight_booking_failed', selection });
      const searched = await t.app.inject({
        method: 'POST',
        url: `/api/internal/bookings/${b.id}/legs/0/search`,
        headers: auth,
      });
      expect(searched.statusCode, searched.body).toBe(200);
      const same = searched.json().data.fares[0];
      expect(same.flights[0].flight_numbers).toEqual(selection.legs[0].flight_numbers.outbound);
      expect(same.total_price).toBe(selection.legs[0].fare_total_cents! / 100);
      expect(same.price_difference).toBe(0);
    } finally {
      fake.onOffers = undefined;
    }
  });

  it('searches the leg again, books the picked fare, records the new fare and the price difference', async () => {
    const selection = await movedSelection();
    const b = await insertPaidBooking(t.database, { status: 'flight_booking_failed', selection });

    const searched = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.id}/legs/0/search`,
      headers: auth,
    });
    expect(searched.statusCode).toBe(200);
    const data = searched.json().data;
    expect(data.leg).toMatchObject({
      type: 'international',
      route: 'MAD-NRT/NRT-MAD',
      fare_price: selection.legs[0].fare_price,
    });
    expect(data.fares).toHaveLength(3);
    // the fare the visitor saw, 5.00 a person dearer now: 10.00 for the two passengers
    const same = data.fares[0];
    expect(same.price_difference).toBe(10);
    expect(same.flights.map((f: { flight_numbers: string[] }) => f.flight_numbers)).toEqual([
      selection.legs[0].flight_numbers.outbound,
      selection.legs[0].flight_numbers.inbound,
    ]);
    expect(data.fares[1].price_difference).toBe(10 + 75);

    const booked = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.id}/legs/0/rebook`,
      headers: auth,
      payload: { fare_id: same.fare_id },
    });
    expect(booked.statusCode).toBe(200);
    expect(booked.json().data).toMatchObject({
      booking_id: b.id,
      leg_index: 0,
      fare_id: same.fare_id,
      reservation_id: expect.stringMatching(/^ord_/),
      price_difference: 10,
      currency: 'EUR',
      queued_legs: [1],
    });
    const order = fake.orders.find((o) => o.metadata.itinera_booking === b.reference && o.metadata.itinera_leg === '0');
    expect(order.total_amount).toBe(same.total_price.toFixed(2));

    const moves = await bookingRecords.transitionsOf(t.database.db, b.id);
    expect(moves.at(0)).toMatchObject({ fromStatus: 'flight_booking_failed', toStatus: 'flight_booking_in_progress' });
    expect(moves.at(0)!.metadata).toEqual({
      action: 'rebook_leg',
      actor: 'admin',
      leg_index: 0,
      fare_id: same.fare_id,
      flight_numbers: [...selection.legs[0].flight_numbers.outbound, ...selection.legs[0].flight_numbers.inbound],
      previous_flight_numbers: [
        ...selection.legs[0].flight_numbers.outbound,
        ...selection.legs[0].flight_numbers.inbound,
      ],
      previous_total_price: Math.round(selection.legs[0].fare_price * 2 * 100) / 100,
      new_total_price: same.total_price,
      price_difference: 10,
      currency: 'EUR',
    });
    // the domestic leg's job books it and the booking is confirmed
    await waitFor(async () => (await statusOf(b.id)) === 'flights_confirmed', 20_000);
    expect((await flightRecords.flightBookingsOf(t.database.db, b.id)).map((r) => r.legIndex)).toEqual([0, 1]);

    // a booked leg cannot be re-booked
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.id}/legs/0/search`,
      headers: auth,
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a fare that is not in the last search, a booked leg, a wrong status, and no token', async () => {
    const b = await insertPaidBooking(t.database, {
      status: 'flight_booking_failed',
      selection: await movedSelection(),
    });
    const rebook = (fareId: string, leg = 0, headers = auth) =>
      t.app.inject({
        method: 'POST',
        url: `/api/internal/bookings/${b.id}/legs/${leg}/rebook`,
        headers,
        payload: { fare_id: fareId },
      });
    const missing = await rebook('off_unknown');
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ success: false, error: 'fare_not_found' });
    expect((await rebook('off_x', 7)).json()).toMatchObject({ error: 'leg_not_found' });
    expect((await rebook('off_x', 0, { authorization: 'Bearer nope' })).statusCode).toBe(401);

    const done = await insertPaidBooking(t.database, { status: 'flights_confirmed' });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${done.id}/legs/0/search`,
      headers: auth,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('invalid_booking_status');
  });

  it('moves the booking back to failed with the spec metadata when the picked fare is gone', async () => {
    const b = await insertPaidBooking(t.database, {
      status: 'flight_booking_failed',
      selection: await movedSelection(),
    });
    const searched = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.id}/legs/0/search`,
      headers: auth,
    });
    const fareId = searched.json().data.fares[1].fare_id;
    fake.expireOffer(fareId);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.id}/legs/0/rebook`,
      headers: auth,
      payload: { fare_id: fareId },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, error: 'fare_changed' });
    expect(await statusOf(b.id)).toBe('flight_booking_failed');
    expect((await bookingRecords.transitionsOf(t.database.db, b.id)).at(-1)!.metadata).toMatchObject({
      sub_type: 'fare_expired',
      fare_id: fareId,
      leg_index: 0,
      action: 'rebook_leg',
    });
  });

  it('documents both endpoints in OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/internal/bookings/{id}/legs/{leg}/search',
        '/api/internal/bookings/{id}/legs/{leg}/rebook',
      ]),
    );
  });
});
