// The embedded default end to end (sandbox flight provider, sandbox payment gateway), upsell
// records, finalization idempotency, seats checked before money and non-standard pax re-pricing.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { CookieJar, clientInput, travelerInput } from '../../../test/support/checkout-jar.js';
import { waitFor } from '../../../test/support/wait.js';
import { airports, airportTranslations, bookingPassengers, bookings, offers } from '../../db/schema/index.js';
import { addDays } from '../../platform/clock.js';
import { centsToNumber, toCents } from '../../platform/money.js';
import { finalizeBooking } from '../bookings/finalization.js';
import * as bookingRecords from '../bookings/repository.js';
import { createApiToken } from '../checkout/service.js';
import * as flightRecords from '../flights/repository.js';
import * as notifications from '../notifications/service.js';
import { paymentsOf } from './repository.js';

let t: TestApp;
let cat: CheckoutCatalog;
const base = '/api/es/es/checkout';
// one client address per run: rate-limit counters in Redis outlive a test run
const clientIp = `198.19.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** a browser of this file's client address, on this file's app */
class Jar extends CookieJar {
  constructor() {
    super(() => t.app, clientIp);
  }
}
const traveler = travelerInput;
const client = clientInput;

beforeAll(async () => {
  // the embedded default: sandbox flights, no Stripe key (sandbox gateway), in-process workers
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'true' } });
  cat = await seedCheckoutCatalog(t.database);
  const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
  const seg = (from: string, to: string, date: string) => ({
    departure_date: date,
    departure_time: '10:00',
    arrival_time: '18:00',
    departure_airport: from,
    arrival_airport: to,
    flight_numbers: [],
    airlines: [],
    stops: 0,
    stopover_airports: [],
  });
  await t.database.db
    .update(offers)
    .set({
      flightData: {
        outbound: seg('MAD', 'NRT', o.departureDate),
        inbound: seg('NRT', 'MAD', o.returnDate!),
        legs: [
          {
            leg_index: 1,
            type: 'domestic',
            route: 'NRT-KIX',
            cabin_class: 'ECONOMY',
            fare_price: 90,
            flight_numbers: { outbound: [], inbound: [] },
            origin: 'NRT',
            destination: 'KIX',
            departure_date: addDays(o.departureDate, 2),
          },
        ],
      },
    })
    .where(eq(offers.id, cat.offers.active));
  // airport texts for the booking's flight_selection (an es/es booking: es, then English)
  await t.database.db.insert(airports).values([
    { iataCode: 'NRT', name: 'Narita International', city: 'Tokyo', country: 'Japan' },
    { iataCode: 'KIX', name: 'Kansai International', city: 'Osaka', country: 'Japan' },
  ]);
  await t.database.db.insert(airportTranslations).values([
    { iataCode: 'MAD', language: 'es', name: 'Aeropuerto Adolfo Suárez Madrid-Barajas', country: 'España' },
    { iataCode: 'NRT', language: 'es', name: 'Aeropuerto Internacional de Narita', city: 'Tokio', country: 'Japón' },
    { iataCode: 'NRT', language: 'de', name: 'Flughafen Narita', city: 'Tokio', country: 'Japan' },
    { iataCode: 'KIX', language: 'en', name: 'Kansai International Airport' },
    { iataCode: 'KIX', language: 'fr', name: 'Aéroport international du Kansai' },
  ]);
});
afterAll(() => t.close());

describe('embedded default: sandbox flights and sandbox payments', () => {
  it('books an economy tour with extras end to end, then its flights', async () => {
    const jar = new Jar();
    expect((await jar.call('POST', `${base}/${cat.offers.active}`, {})).statusCode).toBe(201);
    const search = await jar.call('POST', `${base}/${cat.offers.active}/search-economy-flights`);
    expect(search.json().data).toMatchObject({ has_flights: true });
    const selected = await jar.call('PUT', `${base}/flights`, { cabin_class: 'ECONOMY' });
    expect(selected.statusCode).toBe(200);
    expect(selected.json().data.flight_selection).toMatchObject({
      cabin_class: 'ECONOMY',
      business_extra_price_per_person: null,
    });
    expect(selected.json().data.extras_price).toBe(0);
    const [afterFlights] = await t.database.db.select().from(bookings).where(eq(bookings.offerId, cat.offers.active));
    expect(afterFlights.checkoutStep).toBe('hotels');

    expect(
      (
        await jar.call('PUT', `${base}/hotels`, {
          hotel_selections: [{ upgrade_hotel_id: cat.hotels.tokyoLuxury, nights_start: 1, nights_end: 3 }],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await jar.call('PUT', `${base}/activities`, {
          activity_selections: [{ activity_id: cat.activities.sushi, day_number: 2 }],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await jar.call('PUT', `${base}/transfers`, {
          transfer_selections: [{ transfer_id: cat.transfers.privateArrival, day_number: 1 }],
        })
      ).statusCode,
    ).toBe(200);
    await jar.call('PUT', `${base}/contact`, { client });
    await jar.call('PUT', `${base}/travelers`, { travelers: [traveler('Ana', 'P1'), traveler('Luis', 'P2')] });
    const session = (await jar.call('GET', base)).json().data;

    const intent = (await jar.call('POST', `${base}/payment/intent`)).json().data;
    expect(intent.payment_gateway).toBe('sandbox');
    expect(intent.total_price).toBe(session.total_price);

    const done = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.status).toBe('pending_flight_booking');

    const db = t.database.db;
    const upsells = await bookingRecords.upsellsOf(db, session.booking_id);
    expect(upsells.map((u) => [u.type, u.quantity, u.totalPrice])).toEqual([
      ['hotel_upgrade', 1, session.hotel_selections[0].price_difference.toFixed(2)],
      ['activity', 2, (session.activity_selections[0].price * 2).toFixed(2)],
      ['transfer', 1, session.transfer_selections[0].price.toFixed(2)],
    ]);
    const [b] = await db.select().from(bookings).where(eq(bookings.id, session.booking_id));
    expect(b).toMatchObject({ paymentGatewayCode: 'sandbox', paymentMethodCode: 'card' });
    // the airports named in the booking's language, field by field: Spanish, then English, then the base row
    const fs = b.flightSelection as Record<string, any>;
    expect(fs.outbound.departure_airport_info).toEqual({
      iata_code: 'MAD',
      name: 'Aeropuerto Adolfo Suárez Madrid-Barajas',
      city: 'Madrid',
      country: 'España',
    });
    expect(fs.outbound.arrival_airport_info).toEqual({
      iata_code: 'NRT',
      name: 'Aeropuerto Internacional de Narita',
      city: 'Tokio',
      country: 'Japón',
    });
    expect(fs.legs.find((l: { type: string }) => l.type === 'domestic').destination_airport).toEqual({
      iata_code: 'KIX',
      name: 'Kansai International Airport',
      city: 'Osaka',
      country: 'Japan',
    });

    // a second finalization of the intent (webhook, reconciliation) answers what the first stored
    const again = await finalizeBooking(t.app.ctx, {
      intentId: intent.payment_intent_id,
      amountCents: toCents(intent.amount),
      source: 'reconciliation',
    });
    expect(again).toMatchObject({ finalized: false, status: 'pending_flight_booking', confirmation: done.json().data });
    const count = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(bookingPassengers)
      .where(eq(bookingPassengers.bookingId, session.booking_id));
    expect(Number(count[0].n)).toBe(2);
    expect((await bookingRecords.upsellsOf(db, session.booking_id)).length).toBe(3);

    const admin = await createApiToken(db, 'admin', ['*']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${session.booking_id}/book-flights`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(202);
    await waitFor(async () => {
      const [x] = await db.select().from(bookings).where(eq(bookings.id, session.booking_id));
      return x.status === 'flights_confirmed';
    }, 20_000);
    const records = await flightRecords.flightBookingsOf(db, session.booking_id);
    expect(records.map((r) => [r.legIndex, r.flightType, r.provider])).toEqual([
      [0, 'international', 'sandbox'],
      [1, 'domestic', 'sandbox'],
    ]);
  });

  it('checks the seats before money moves: offer_sold_out, no intent, never allotment_exceeded', async () => {
    const db = t.database.db;
    const jar = new Jar();
    const start = await jar.call('POST', `${base}/${cat.offers.active}`, {});
    await jar.call('POST', `${base}/${cat.offers.active}/search-economy-flights`);
    await jar.call('PUT', `${base}/flights`, { cabin_class: 'ECONOMY' });
    await jar.call('PUT', `${base}/contact`, { client });
    await jar.call('PUT', `${base}/travelers`, { travelers: [traveler('Eva', 'P3'), traveler('Jon', 'P4')] });
    const [o] = await db.select().from(offers).where(eq(offers.id, cat.offers.active));
    // one seat left for a party of two
    await db
      .update(offers)
      .set({ allotmentUsed: o.allotment - 1 })
      .where(eq(offers.id, cat.offers.active));
    const refused = await jar.call('POST', `${base}/payment/intent`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, error: 'offer_sold_out' });
    const bookingId = start.json().data.booking_id;
    expect(await paymentsOf(db, bookingId)).toEqual([]);

    // two seats again: the intent holds them, the payment takes them, nobody is over-sold
    await db
      .update(offers)
      .set({ allotmentUsed: o.allotment - 2 })
      .where(eq(offers.id, cat.offers.active));
    const intent = (await jar.call('POST', `${base}/payment/intent`)).json().data;
    const done = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(done.statusCode).toBe(200);
    const [after] = await db.select().from(offers).where(eq(offers.id, cat.offers.active));
    expect(after.allotmentUsed).toBe(after.allotment);
    expect((await notifications.notificationsOf(db, bookingId)).map((n) => n.type)).toEqual([]);
    await db.update(offers).set({ allotmentUsed: o.allotmentUsed }).where(eq(offers.id, cat.offers.active));
  });
});

describe('economy flights booked as chosen', () => {
  it('stores the chosen economy card, charges a dearer one, refuses an unknown one, and books its flights', async () => {
    const db = t.database.db;
    const jar = new Jar();
    const start = (await jar.call('POST', `${base}/${cat.offers.active}`, {})).json().data;
    await jar.call('POST', `${base}/${cat.offers.active}/search-economy-flights`);
    const options = (await jar.call('GET', `${base}/${cat.offers.active}/flights`)).json().data;
    type Card = { fareId: string; extraPrice: number; flight_numbers: string[]; price: number };
    const cards = options.outbound_options as Card[];
    const inbound = options.inbound_options as Card[];
    const priced = cards.find((c) => c.extraPrice === 0)!;
    const dearer = cards.find((c) => c.extraPrice > 0)!;
    expect(priced).toBeDefined();
    expect(dearer).toBeDefined();
    expect(dearer.price).toBeGreaterThan(priced.price);

    const unknown = await jar.call('PUT', `${base}/flights`, { cabin_class: 'ECONOMY', fare_id: 'SBX.not-a-card' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ success: false, error: 'fare_not_found' });

    const pick = await jar.call('PUT', `${base}/flights`, { cabin_class: 'ECONOMY', fare_id: dearer.fareId });
    expect(pick.statusCode).toBe(200);
    const s = pick.json().data;
    expect(s.flight_selection).toMatchObject({ cabin_class: 'ECONOMY', fare_id: dearer.fareId });
    expect(s.flight_selection.outbound.flight_numbers).toEqual(dearer.flight_numbers);
    expect(s.flight_selection.inbound.flight_numbers).toEqual(
      inbound.find((c) => c.fareId === dearer.fareId)!.flight_numbers,
    );
    // the card's extraPrice is for the whole party: per person times two
    expect(toCents(s.extras_price)).toBe(2 * Math.floor((toCents(dearer.extraPrice) + 1) / 2));
    expect(s.total_price).toBe(centsToNumber(toCents(s.base_price) + toCents(s.extras_price)));

    // a cheaper card than the priced one keeps the price
    const cheaper = cards.find((c) => c.extraPrice === 0 && c.fareId !== dearer.fareId)!;
    const kept = (await jar.call('PUT', `${base}/flights`, { cabin_class: 'ECONOMY', fare_id: cheaper.fareId })).json()
      .data;
    expect(kept.extras_price).toBe(0);
    expect(kept.flight_selection.outbound.flight_numbers).toEqual(cheaper.flight_numbers);

    // the dearer card again, then pay: the admin job books exactly its flight numbers
    await jar.call('PUT', `${base}/flights`, { cabin_class: 'ECONOMY', fare_id: dearer.fareId });
    await jar.call('PUT', `${base}/contact`, { client });
    await jar.call('PUT', `${base}/travelers`, { travelers: [traveler('Ana', 'P7'), traveler('Luis', 'P8')] });
    const intent = (await jar.call('POST', `${base}/payment/intent`)).json().data;
    expect(intent.total_price).toBe(centsToNumber(toCents(s.base_price) + toCents(s.extras_price)));
    expect(
      (await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id })).statusCode,
    ).toBe(200);
    const upsells = await bookingRecords.upsellsOf(db, start.booking_id);
    expect(upsells.map((u) => [u.type, u.quantity])).toEqual([['flight_fare', 2]]);
    const admin = await createApiToken(db, 'admin2', ['*']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${start.booking_id}/book-flights`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(202);
    await waitFor(async () => {
      const [x] = await db.select().from(bookings).where(eq(bookings.id, start.booking_id));
      return x.status === 'flights_confirmed';
    }, 20_000);
    const records = await flightRecords.flightBookingsOf(db, start.booking_id);
    const international = records.find((r) => r.legIndex === 0)!;
    expect(international.fareId).toBe(dearer.fareId);
    expect(international.flightNumbers).toEqual([
      ...dearer.flight_numbers,
      ...inbound.find((c) => c.fareId === dearer.fareId)!.flight_numbers,
    ]);
  });
});

describe('non-standard passengers', () => {
  it('re-prices the session base from live flights and the recalculated land price, not the offer', async () => {
    const db = t.database.db;
    const [before] = await db.select().from(offers).where(eq(offers.id, cat.offers.active));
    const jar = new Jar();
    const start = (await jar.call('POST', `${base}/${cat.offers.active}`, { actual_pax_count: 3 })).json().data;
    expect(start.is_non_standard_pax).toBe(true);
    const res = await jar.call('POST', `${base}/${cat.offers.active}/search-economy-flights`);
    const data = res.json().data;
    expect(data.original_price).toBe(start.base_price);
    const session = (await jar.call('GET', base)).json().data;
    expect(session.base_price).toBe(data.new_price);
    // 3 travellers in a 3A room. Land: (land 2,000.00 - 2A selection hotels 600.00 [Tokyo 3 nights
    // x 150.00 + Kyoto 24,000 JPY / 160 = 150.00]) / 2 x 3 = 2,100.00, plus the 3A hotels 800.00
    // [3 x 200.00 + 32,000 / 160 = 200.00] = 2,900.00. The sandbox fares for 3: international 2,852.76 + domestic 446.10 = 3,298.86; (2,900.00 +
    // 3,298.86) x 1.15 = 7,128.689 -> 7,128.69; / 3 = 2,376.23 -> 2,379.99; x 3 = 7,139.97
    // (priced with the 2A room it would be 6,899.97).
    expect(data).toMatchObject({ has_flights: true, new_price: 7139.97 });
    const [after] = await db.select().from(offers).where(eq(offers.id, cat.offers.active));
    expect(after.finalPrice).toBe(before.finalPrice);
  });
});
