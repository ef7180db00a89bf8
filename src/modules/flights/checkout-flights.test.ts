// The flight and payment steps of the checkout over HTTP (app.inject with a cookie jar) against
// the fake flight provider and the fake Stripe API, on the real database and queue.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDuffel, startFakeDuffel } from '../../../test/fakes/duffel.js';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, flightCacheFor, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { waitFor } from '../../../test/support/wait.js';
import { bookingPassengers, bookings, offers, passengers } from '../../db/schema/index.js';
import { addDays } from '../../platform/clock.js';
import { centsToNumber, toCents } from '../../platform/money.js';
import { allTasks, runTask } from '../../tasks.js';
import * as bookingRecords from '../bookings/repository.js';
import { createApiToken } from '../checkout/service.js';
import { findPayment } from '../payments/repository.js';
import { DuffelFlightProvider } from './duffel.js';
import type { FlightSearchRequest } from './provider.js';
import * as flightRecords from './repository.js';
import { domesticSearch, hasBothLegs, internationalLeg, perPerson, pickFare } from './rules.js';

let fake: FakeDuffel;
/** our Duffel adapter on the fake: what the provider answers (fake prices are deterministic) */
let duffel: DuffelFlightProvider;
const faresOf = async (req: FlightSearchRequest) => (await duffel.search(req)).fares;
let stripe: FakeStripe;
let t: TestApp;
let cat: CheckoutCatalog;
let departure: string;
let returnDate: string;

const base = '/api/es/es/checkout';
// one client address per run: rate-limit counters in Redis outlive a test run
const clientIp = `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

class Jar {
  cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: { cookies: { name: string; value: string }[] }) {
    for (const c of res.cookies) this.cookies.set(c.name, c.value);
  }
}

/** the address requests come from (the card tests run after the rate-limit test used this one up) */
let ip = clientIp;

async function call(jar: Jar | null, method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    payload: payload as object,
    headers: { 'x-forwarded-for': ip, ...(jar ? { cookie: jar.header() } : {}) },
  });
  jar?.take(res);
  return res;
}

const cacheFor = (inboundFrom = 'NRT') => flightCacheFor(departure, returnDate, inboundFrom);

const travelers = [
  {
    title: 'ms',
    gender: 'f',
    first_name: 'Ana',
    last_name: 'Garcia',
    nationality: 'ES',
    passport_number: 'X1234567',
    passport_expiry: '2031-01-01',
    birth_date: '1980-02-03',
    phone: '+34600000000',
    email: 'ana@example.com',
  },
  {
    title: 'mr',
    gender: 'm',
    first_name: 'Luis',
    last_name: 'Perez',
    nationality: 'ES',
    passport_number: 'X7654321',
    passport_expiry: '2030-05-01',
    birth_date: '1978-07-09',
    phone: '+34600000001',
    email: 'luis@example.com',
  },
];
const client = { first_name: 'María', last_name: 'Núñez', email: 'Maria@Example.com', phone: '+34911111111' };

beforeAll(async () => {
  fake = await startFakeDuffel();
  duffel = new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token });
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      FLIGHTS_PROVIDER: 'duffel',
      DUFFEL_API_URL: fake.url,
      DUFFEL_API_TOKEN: fake.token,
      IN_PROCESS_WORKERS: 'true',
      ...stripe.env,
    },
  });
  cat = await seedCheckoutCatalog(t.database);
  const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
  departure = o.departureDate;
  returnDate = o.returnDate!;
  await t.database.db.update(offers).set({ flightData: cacheFor() }).where(eq(offers.id, cat.offers.active));
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await stripe.close();
});

/** The economy flight total the provider will answer for 2 pax (international + domestic). */
async function expectedEconomyCents(pax = 2) {
  const intl: FlightSearchRequest = {
    tripType: 'ROUND_TRIP',
    cabin: 'ECONOMY',
    pax,
    currency: 'EUR',
    legs: [
      { origin: 'MAD', destination: 'NRT', date: departure },
      { origin: 'NRT', destination: 'MAD', date: returnDate },
    ],
  };
  const fare = pickFare((await faresOf(intl)).filter(hasBothLegs))!;
  const dom = pickFare(
    await faresOf(
      domesticSearch(
        { origin: 'NRT', destination: 'KIX', departure_date: addDays(departure, 2) },
        'ECONOMY',
        pax,
        'EUR',
      ),
    ),
  )!;
  return { fare, total: fare.totalCents + dom.totalCents };
}

describe('economy re-pricing and cached options', () => {
  it('re-prices the offer from the live search and refreshes the cache', async () => {
    let offersChanged = 0;
    const count = () => offersChanged++;
    t.app.ctx.events.on('offers:changed', count);
    const res = await call(null, 'POST', `${base}/${cat.offers.active}/search-economy-flights`);
    t.app.ctx.events.off('offers:changed', count);
    expect(res.statusCode).toBe(200);
    expect(offersChanged).toBe(1); // the catalog shows the new price at once
    const { fare, total } = await expectedEconomyCents();
    // the fake's fares for 2: international 1,582.44 + domestic 946.42 = 2,528.86
    expect([fare.totalCents, total]).toEqual([158_244, 252_886]);
    // (land 2,000.00 + flights 2,528.86) x 1.15 = 5,208.189 -> 5,208.19; per person 2,604.095 ->
    // 2,604.10, marketing-rounded up to the next 5 units minus 1 cent: 2,604.99; x 2 = 5,209.98
    const next = 520_998;
    expect(res.json()).toEqual({
      success: true,
      data: {
        has_flights: true,
        price_changed: true,
        original_price: 3910,
        new_price: 5209.98,
      },
    });
    const searches = fake.requests.filter((r) => r.op === 'create_offer_request').map((r) => r.body.data);
    expect(searches.find((d) => d.slices.length === 2)).toMatchObject({
      cabin_class: 'economy',
      passengers: [{ type: 'adult' }, { type: 'adult' }],
    });
    expect(searches.some((d) => d.slices.length === 1 && d.slices[0].origin === 'NRT')).toBe(true);

    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
    expect(toCents(o.finalPrice)).toBe(next);
    expect(toCents(o.flightPrice)).toBe(perPerson(total, 2));
    const data = o.flightData as {
      legs: { fare_price: number }[];
      outbound: { flight_numbers: string[]; duration_minutes: number };
    };
    expect(data.outbound.flight_numbers).toEqual(fare.legs[0].flightNumbers);
    expect(data.outbound.duration_minutes).toBe(fare.legs[0].durationMinutes);
    expect(data.legs[0].fare_price).toBe(internationalLeg(fare, 2).fare_price);

    const cached = await call(null, 'GET', `${base}/${cat.offers.active}/flights`);
    expect(cached.statusCode).toBe(200);
    const body = cached.json().data;
    expect(body).toMatchObject({
      offer_id: cat.offers.active,
      tour_name: 'Japón esencial',
      final_price: centsToNumber(next),
      cabinClass: 'ECONOMY',
      source_type: 'cache',
      has_flights: true,
    });
    // the cache keeps up to five options; the fake Duffel answers three offers a search
    expect(body.outbound_options).toHaveLength(3);
    expect(body.outbound_options[0].fareId).toBe(body.inbound_options[0].fareId);
  });

  it('prices a USD market from offers Duffel bills in EUR, converted at today’s rate (1 EUR = 1.10 USD)', async () => {
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.usd));
    await t.database.db
      .update(offers)
      .set({ flightData: flightCacheFor(o.departureDate, o.returnDate!) })
      .where(eq(offers.id, cat.offers.usd));
    const res = await call(null, 'POST', `/api/us/en/checkout/${cat.offers.usd}/search-economy-flights`);
    expect(res.statusCode).toBe(200);
    // live fares, not the cache fallback the dropped EUR offers used to cause
    expect(res.json().data).toMatchObject({ has_flights: true });
    expect(res.json().data.fallback).toBeUndefined();
    const [after] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.usd));
    const leg = (after.flightData as { legs: Record<string, any>[] }).legs[0];
    expect(leg.billed_currency).toBe('EUR');
    // the USD total is the EUR bill x 1.10, half away from zero on the cent
    expect(leg.fare_total_cents).toBe(Math.round((leg.billed_total_cents * 11) / 10));
  });

  it('falls back without failing when the provider errors', async () => {
    fake.failNext('create_offer_request', { status: 503, code: 'service_unavailable', message: 'down' });
    const res = await call(null, 'POST', `${base}/${cat.offers.active}/search-economy-flights`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { has_flights: true, fallback: true, price_changed: false } });
    // a 200 whose body is not a fare list is a provider error too, not a 500
    fake.failNext('create_offer_request', { status: 201, rawBody: '{"data":{"id":"orq_x","offers":{"cheapest":1}}}' });
    const odd = await call(null, 'POST', `${base}/${cat.offers.active}/search-economy-flights`);
    expect(odd.statusCode).toBe(200);
    expect(odd.json().data).toEqual({ has_flights: true, fallback: true, price_changed: false });
  });

  it('answers 404 offer_not_found for an offer that cannot be booked', async () => {
    const res = await call(null, 'POST', `${base}/${cat.offers.past}/search-economy-flights`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: 'offer_not_found' });
  });
});

describe('business flights, selection, payment and finalization', () => {
  const jar = new Jar();
  let bookingId: number;
  let reference: string;

  it('needs a session for business search, flight selection and payment', async () => {
    for (const [method, url, payload] of [
      ['POST', `${base}/${cat.offers.active}/business-flights`, undefined],
      ['PUT', `${base}/flights`, { cabin_class: 'ECONOMY' }],
      ['POST', `${base}/payment/intent`, undefined],
      ['POST', `${base}/payment/confirm`, { payment_intent_id: 'pi_x' }],
    ] as const) {
      const res = await call(new Jar(), method, url, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: 'no_checkout_session' });
    }
  });

  it('searches business fares priced from the land price, margin and the economy price', async () => {
    const start = await call(jar, 'POST', `${base}/${cat.offers.active}`, {});
    expect(start.statusCode).toBe(201);
    bookingId = start.json().data.booking_id;
    reference = start.json().data.booking_reference;
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));

    const before = fake.requests.length;
    const res = await call(jar, 'POST', `${base}/${cat.offers.active}/business-flights`);
    const sentByApp = fake.requests.slice(before);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      cabinClass: 'BUSINESS',
      has_flights: true,
      source_type: 'live_search',
      original_final_price: centsToNumber(toCents(o.finalPrice)),
      pax_count: 2,
      apihubflowid: expect.stringMatching(/^orq_/),
    });
    const first = data.outbound_options[0];
    const fare = (
      await faresOf({
        tripType: 'ROUND_TRIP',
        cabin: 'BUSINESS',
        pax: 2,
        currency: 'EUR',
        legs: [
          { origin: 'MAD', destination: 'NRT', date: departure },
          { origin: 'NRT', destination: 'MAD', date: returnDate },
        ],
      })
    ).find((f) => f.legs[0].flightNumbers.join() === first.flight_numbers.join())!;
    const domestic = pickFare(
      await faresOf(
        domesticSearch(
          { origin: 'NRT', destination: 'KIX', departure_date: addDays(departure, 2) },
          'BUSINESS',
          2,
          'EUR',
        ),
      ),
    )!;
    // business for 2: international 3,232.14 + domestic 2,033.88 = 5,266.02; with land 2,000.00 x
    // 1.15 = 8,355.923 -> 8,355.92; per person 4,177.96 -> 4,179.99 (marketing rounding); x 2 =
    // 8,359.98; over the economy price 5,209.98 the extra is 3,150.00
    expect([fare.totalCents, domestic.totalCents, o.finalPrice]).toEqual([323_214, 203_388, '5209.98']);
    expect(first.finalPrice).toBe(8359.98);
    expect(first.extraPrice).toBe(3150);
    expect(data.inbound_options.map((x: { fareId: string }) => x.fareId)).toContain(first.fareId);
    const business = sentByApp.filter((r) => r.op === 'create_offer_request');
    expect(business.map((r) => [r.body.data.cabin_class, r.body.data.slices.length]).sort()).toEqual([
      ['business', 1],
      ['business', 2],
    ]);
  });

  it('stores a BUSINESS selection with the server flight numbers and extras = extra x pax', async () => {
    const noFare = await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'BUSINESS' });
    expect(noFare.statusCode).toBe(400);
    expect(noFare.json()).toMatchObject({ error: 'validation_failed', errors: { fare_id: expect.any(Array) } });
    const bad = await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'FIRST' });
    expect(bad.statusCode).toBe(400);
    const badAirport = await call(jar, 'PUT', `${base}/flights`, {
      cabin_class: 'ECONOMY',
      outbound: { departure_airport: 'MADX' },
    });
    expect(badAirport.statusCode).toBe(400);
    expect(Object.keys(badAirport.json().errors)).toEqual(['outbound.departure_airport']);

    const options = (await call(jar, 'POST', `${base}/${cat.offers.active}/business-flights`)).json().data;
    const card = options.outbound_options[1];
    const res = await call(jar, 'PUT', `${base}/flights`, {
      cabin_class: 'BUSINESS',
      fare_id: card.fareId,
      business_extra_price_per_person: 1,
      outbound: { departure_airport: 'MAD', arrival_airport: 'NRT', flight_numbers: ['XX999'] },
      inbound: { departure_airport: 'NRT', arrival_airport: 'MAD', flight_numbers: ['XX998'] },
    });
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    expect(s.flight_selection.cabin_class).toBe('BUSINESS');
    expect(s.flight_selection.outbound.flight_numbers).toEqual(card.flight_numbers);
    const perPax = perPerson(toCents(card.extraPrice), 2);
    expect(s.flight_selection.business_extra_price_per_person).toBe(centsToNumber(perPax));
    expect(s.extras_price).toBe(centsToNumber(perPax * 2));
    expect(s.total_price).toBe(centsToNumber(toCents(s.base_price) + perPax * 2));
    expect(s.flight_selection.legs.map((l: { type: string }) => l.type)).toEqual(['international', 'domestic']);
  });

  it('asks for the contact and the travelers before payment', async () => {
    const noClient = await call(jar, 'POST', `${base}/payment/intent`);
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json()).toMatchObject({ success: false, error: 'client_data_required' });
    expect((await call(jar, 'PUT', `${base}/contact`, { client })).statusCode).toBe(200);
    const noTravelers = await call(jar, 'POST', `${base}/payment/intent`);
    expect(noTravelers.statusCode).toBe(400);
    expect(noTravelers.json()).toMatchObject({ success: false, error: 'traveler_data_required' });
    expect((await call(jar, 'PUT', `${base}/travelers`, { travelers })).statusCode).toBe(200);
  });

  it('creates a Stripe PaymentIntent for the deposit and finalizes once it succeeded', async () => {
    const session = (await call(jar, 'GET', base)).json().data;
    const res = await call(jar, 'POST', `${base}/payment/intent`);
    expect(res.statusCode).toBe(200);
    const intent = res.json().data;
    const deposit = Math.floor((toCents(session.total_price) * 30 + 50) / 100);
    expect(intent).toMatchObject({
      amount: centsToNumber(deposit),
      deposit_percent: 30,
      total_price: session.total_price,
      booking_reference: reference,
      payment_gateway: 'stripe',
      currency: { code: 'EUR', symbol: '€' },
    });
    expect(intent.client_secret).toMatch(/_secret_/);
    const sent = stripe.requests.at(-1)!;
    expect(sent.form).toMatchObject({
      amount: String(deposit),
      currency: 'eur',
      'metadata[booking_reference]': reference,
      setup_future_usage: 'off_session',
      customer: expect.stringMatching(/^cus_/),
    });
    expect(sent.headers['idempotency-key']).toMatch(new RegExp(`^deposit-${bookingId}-[0-9a-f]{16}-0$`));
    expect(stripe.customers.get(sent.form.customer)).toMatchObject({ email: client.email });

    const early = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(early.statusCode).toBe(402);
    expect(early.json()).toMatchObject({ error: 'payment_not_succeeded' });
    const foreign = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: 'pi_someone_else' });
    expect(foreign.statusCode).toBe(422);

    stripe.succeed(intent.payment_intent_id);
    let offersChanged = 0;
    t.app.ctx.events.on('offers:changed', () => offersChanged++);
    const done = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(done.statusCode).toBe(200);
    expect(offersChanged).toBe(1); // the catalog re-reads the allotment this booking used
    expect(done.json().data).toEqual({
      booking_reference: reference,
      status: 'pending_flight_booking',
      payment_status: 'Succeeded',
      amount_paid: centsToNumber(deposit),
      currency: { code: 'EUR', symbol: '€' },
      confirmation_url: `/api/es/es/checkout/confirmation/${reference}`,
      manage_url: expect.stringMatching(
        new RegExp(`^http://api\\.test/api/es/es/bookings/${reference}\\?expires=\\d+&signature=[0-9a-f]{64}$`),
      ),
    });

    // the session is cleared
    expect((await call(jar, 'GET', base)).statusCode).toBe(404);

    const db = t.database.db;
    const [b] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(b).toMatchObject({
      status: 'pending_flight_booking',
      paymentMethodCode: 'card',
      paymentGatewayCode: 'stripe',
    });
    expect(toCents(b.totalPrice)).toBe(toCents(session.total_price));
    const fs = b.flightSelection as Record<string, any>;
    expect(fs.outbound.departure_airport_info).toMatchObject({ iata_code: 'MAD', city: 'Madrid' });
    expect(fs.legs[0]).toMatchObject({ type: 'international', pax_count: 2, cabin_class: 'BUSINESS' });
    expect(fs.legs[0].total_price).toBe(centsToNumber(toCents(fs.legs[0].fare_price) * 2));

    const people = await db
      .select({
        first: passengers.firstName,
        lead: bookingPassengers.isLead,
        clientId: passengers.clientId,
        title: passengers.title,
        gender: passengers.gender,
      })
      .from(bookingPassengers)
      .innerJoin(passengers, eq(passengers.id, bookingPassengers.passengerId))
      .where(eq(bookingPassengers.bookingId, bookingId))
      .orderBy(bookingPassengers.position);
    // title and gender (asked because the provider is Duffel) reach the passenger records
    expect(people.map((p) => [p.first, p.lead, p.title, p.gender])).toEqual([
      ['Ana', true, 'ms', 'f'],
      ['Luis', false, 'mr', 'm'],
    ]);
    expect(people[0].clientId).toBe(b.clientId);
    const upsells = await bookingRecords.upsellsOf(db, bookingId);
    expect(upsells.map((u) => u.type)).toEqual(['flight_upgrade']);
    expect(upsells[0]).toMatchObject({ quantity: 2, details: { cabin_class: 'BUSINESS', trip_type: 'ROUND_TRIP' } });
    const [o] = await db.select().from(offers).where(eq(offers.id, cat.offers.active));
    expect(o.allotmentUsed).toBe(2); // seats: the booking's two passengers
    const moves = await bookingRecords.transitionsOf(db, bookingId);
    expect(moves.at(-1)).toMatchObject({
      fromStatus: 'checkout',
      toStatus: 'pending_flight_booking',
      metadata: { payment_intent_id: intent.payment_intent_id, payment_status: 'Succeeded' },
    });
  });

  it('shows the confirmation by reference', async () => {
    const res = await call(null, 'GET', `${base}/confirmation/${reference}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        booking_reference: reference,
        tour_name: 'Japón esencial',
        duration_days: 5,
        duration_nights: 4,
        travelers: 2,
        hero_image: null,
        trip_url: `${t.config.frontendUrl}/es/es/viajes/japon-esencial`,
        status: 'pending_flight_booking',
        amount_paid: expect.any(Number),
        balance_due: expect.any(Number),
        refunded: 0,
      },
    });
    // deposit paid + balance due = the booking's total
    const data = res.json().data;
    const [paid] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(toCents(data.amount_paid) + toCents(data.balance_due)).toBe(toCents(paid.totalPrice));
    const missing = await call(null, 'GET', `${base}/confirmation/IT-NOPE99`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, error: 'booking_not_found' });
  });

  it('lets an admin token book all flights; others are refused', async () => {
    const url = `/api/internal/bookings/${bookingId}/book-flights`;
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const weak = await createApiToken(t.database.db, 'frontend', ['internal:read']);
    const refused = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${weak.token}` } });
    expect(refused.statusCode).toBe(403);

    const admin = await createApiToken(t.database.db, 'admin', ['admin:bookings']);
    const res = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ booking_reference: reference, queued_legs: [0, 1], booked_legs: [] });
    await waitFor(async () => {
      const [b] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
      return b.status === 'flights_confirmed';
    }, 20_000);
    const booked = fake.requests.filter(
      (r) => r.op === 'create_order' && r.body.data.metadata.itinera_booking === reference,
    );
    expect(booked).toHaveLength(2);
    const again = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${admin.token}` } });
    expect(again.statusCode).toBe(409);
  });

  it('shows an admin the booking: steps, passengers, upsells, leg records, transitions, notifications', async () => {
    const url = `/api/internal/bookings/${bookingId}`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const weak = await createApiToken(t.database.db, 'frontend-view', ['internal:read']);
    const refused = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${weak.token}` } });
    expect(refused.statusCode).toBe(403);
    const admin = await createApiToken(t.database.db, 'admin-view', ['admin:bookings']);
    const auth = { authorization: `Bearer ${admin.token}` };
    for (const id of ['999999', 'abc']) {
      const missing = await t.app.inject({ method: 'GET', url: `/api/internal/bookings/${id}`, headers: auth });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, error: 'booking_not_found' });
    }

    const res = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode).toBe(200);
    const b = res.json().data;
    expect(b).toMatchObject({
      id: bookingId,
      reference,
      status: 'flights_confirmed',
      payment_method_code: 'card',
      payment_gateway_code: 'stripe',
      checkout_step: 'summary', // PUT /travelers advanced the funnel to the summary
      passengers: [
        { title: 'ms', gender: 'f', first_name: 'Ana', is_lead: true },
        { title: 'mr', gender: 'm', first_name: 'Luis', is_lead: false },
      ],
      upsells: [{ type: 'flight_upgrade', quantity: 2 }],
    });
    // the view masks passport numbers: only their last three characters
    expect(b.passengers[0].passport_number).toBe('•••••567');
    expect(
      b.flight_bookings.map((l: { leg_index: number; flight_type: string }) => [l.leg_index, l.flight_type]),
    ).toEqual([
      [0, 'international'],
      [1, 'domestic'],
    ]);
    expect(b.status_transitions.map((m: { to: string }) => m.to)).toEqual([
      'pending_flight_booking',
      'flight_booking_in_progress',
      'flights_confirmed',
    ]);
    // two legs finishing at the same instant both see all legs booked: then only the confirmation
    const notes = b.notifications.map((n: { type: string }) => n.type);
    expect(notes.at(-1)).toBe('flights_confirmed');
    expect(notes.slice(0, -1).every((n: string) => n === 'flight_leg_booked')).toBe(true);
  });
});

describe('rate limits', () => {
  it('allows 5 economy and 10 business searches per minute and client address', async () => {
    // addresses of this run only (Redis counters outlive a run)
    const run = Math.floor(Math.random() * 250);
    const from = (ip: string, url: string) =>
      t.app.inject({ method: 'POST', url, headers: { 'x-forwarded-for': ip.replace('203.0.113', `203.0.${run}`) } });
    const economy = `${base}/${cat.offers.active}/search-economy-flights`;
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.9', economy)).statusCode).toBe(200);
    const refused = await from('203.0.113.9', economy);
    expect(refused.statusCode).toBe(429);
    // the window's rest: 60 s in process, the key's real time-to-live with Redis (a second or two less on a loaded machine)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(55);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ success: false, error: 'too_many_requests' });
    expect((await from('203.0.113.10', economy)).statusCode).toBe(200);

    const business = `${base}/${cat.offers.active}/business-flights`;
    for (let i = 0; i < 10; i++) expect((await from('203.0.113.11', business)).statusCode).toBe(400);
    expect((await from('203.0.113.11', business)).statusCode).toBe(429);
  });
});

describe('land-only booking and multi-city routes', () => {
  it('refuses to take money for an offer with flights before a flight is chosen', async () => {
    const jar = new Jar();
    expect((await call(jar, 'POST', `${base}/${cat.offers.active}`, {})).statusCode).toBe(201);
    await call(jar, 'PUT', `${base}/contact`, { client });
    await call(jar, 'PUT', `${base}/travelers`, { travelers });
    const before = stripe.requests.length;
    const res = await call(jar, 'POST', `${base}/payment/intent`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'flight_selection_required' });
    expect(stripe.requests.length).toBe(before);
  });

  it('answers quote_changed when a selection changed after the payment intent, and finalizes the new quote', async () => {
    const jar = new Jar();
    const start = await call(jar, 'POST', `${base}/${cat.offers.active}`, {});
    const bookingId = start.json().data.booking_id;
    await call(jar, 'POST', `${base}/${cat.offers.active}/search-economy-flights`);
    expect((await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'ECONOMY' })).statusCode).toBe(200);
    await call(jar, 'PUT', `${base}/contact`, { client });
    await call(jar, 'PUT', `${base}/travelers`, { travelers });
    const first = await call(jar, 'POST', `${base}/payment/intent`);
    expect(first.statusCode).toBe(200);
    const intent = first.json().data;
    const changed = await call(jar, 'PUT', `${base}/transfers`, {
      transfer_selections: [{ transfer_id: cat.transfers.privateArrival, day_number: 1 }],
    });
    expect(changed.statusCode).toBe(200);
    const total = changed.json().data.total_price;
    expect(total).toBe(centsToNumber(toCents(intent.total_price) + 8000));
    const refused = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, error: 'quote_changed' });
    const [unpaid] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(unpaid.status).toBe('checkout');

    // a new intent for the new selections; the old, unpaid one is canceled at Stripe
    const second = await call(jar, 'POST', `${base}/payment/intent`);
    const next = second.json().data;
    expect(next.total_price).toBe(total);
    expect(next.payment_intent_id).not.toBe(intent.payment_intent_id);
    expect(stripe.intents.get(intent.payment_intent_id)!.status).toBe('canceled');
    stripe.succeed(next.payment_intent_id);
    const res = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: next.payment_intent_id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.amount_paid).toBe(next.amount);
    const [b] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(toCents(b.totalPrice)).toBe(toCents(total));
  });

  it('finalizes through the signed Stripe webhook alone when the browser never confirms', async () => {
    const jar = new Jar();
    const start = await call(jar, 'POST', `${base}/${cat.offers.active}`, {});
    const bookingId = start.json().data.booking_id;
    await call(jar, 'POST', `${base}/${cat.offers.active}/search-economy-flights`);
    await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'ECONOMY' });
    await call(jar, 'PUT', `${base}/contact`, { client });
    await call(jar, 'PUT', `${base}/travelers`, { travelers });
    const intent = (await call(jar, 'POST', `${base}/payment/intent`)).json().data;
    stripe.succeed(intent.payment_intent_id); // Stripe.js in the browser; then the tab closes
    const event = stripe.event('payment_intent.succeeded', intent.payment_intent_id);
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        payload: event.payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(event.payload) },
      });
    const res = await post();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false, handled: true });
    const [b] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(b.status).toBe('pending_flight_booking');
    const payment = await findPayment(t.database.db, intent.payment_intent_id);
    const customer = stripe.intents.get(intent.payment_intent_id)!.customer;
    expect(payment).toMatchObject({
      status: 'Succeeded',
      customerId: customer,
      paymentMethodId: `pm_card_visa_${customer}`,
    });
    expect((await post()).json()).toEqual({ received: true, duplicate: true, handled: false });
    // the browser comes back: the same answer
    const late = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(late.statusCode).toBe(200);
    expect(late.json().data).toMatchObject({ status: 'pending_flight_booking', amount_paid: intent.amount });
  });

  it('reconciles with Stripe when confirm and webhook are both lost; a processing payment keeps its seats', async () => {
    // two more parties of two: the seats earlier cases paid for are given back first
    await t.database.db.update(offers).set({ allotmentUsed: 0 }).where(eq(offers.id, cat.offers.active));
    const ready = async () => {
      const jar = new Jar();
      const start = await call(jar, 'POST', `${base}/${cat.offers.active}`, {});
      await call(jar, 'POST', `${base}/${cat.offers.active}/search-economy-flights`);
      await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'ECONOMY' });
      await call(jar, 'PUT', `${base}/contact`, { client });
      await call(jar, 'PUT', `${base}/travelers`, { travelers });
      const intent = (await call(jar, 'POST', `${base}/payment/intent`)).json().data;
      return { bookingId: start.json().data.booking_id as number, intent };
    };
    const paid = await ready();
    const slow = await ready();
    stripe.succeed(paid.intent.payment_intent_id);
    stripe.processing(slow.intent.payment_intent_id);
    const run = (name: string) =>
      runTask(t.app.ctx, allTasks(t.app.ctx).find((x) => x.name === name)!, {
        asOf: t.clock.now(),
        trigger: 'command',
        options: {},
        out: () => {},
      });
    t.clock.advance(31 * 60_000);
    const holds = await run('checkout.release-holds');
    expect(holds.message).toContain('finalized 1');
    expect(holds.message).toContain('processing 1');
    const statusOf = async (id: number) =>
      (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0].status;
    expect(await statusOf(paid.bookingId)).toBe('pending_flight_booking');
    expect(await statusOf(slow.bookingId)).toBe('checkout');
    expect(stripe.intents.get(slow.intent.payment_intent_id)!.status).toBe('processing'); // not canceled
    // the money arrives later; the webhook is lost; the reconciliation finds it
    stripe.succeed(slow.intent.payment_intent_id);
    const reconciled = await run('payments.reconcile');
    expect(reconciled).toMatchObject({ ok: true });
    expect(reconciled.message).toContain('finalized 1');
    expect(await statusOf(slow.bookingId)).toBe('pending_flight_booking');
    const gets = stripe.requests.filter(
      (r) => r.method === 'GET' && r.path === `/v1/payment_intents/${slow.intent.payment_intent_id}`,
    );
    expect(gets.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the server route of a flight selection whatever segment fields the client sends', async () => {
    const jar = new Jar();
    expect((await call(jar, 'POST', `${base}/${cat.offers.active}`, {})).statusCode).toBe(201);
    const res = await call(jar, 'PUT', `${base}/flights`, {
      cabin_class: 'ECONOMY',
      outbound: {
        departure_airport: 'BCN',
        arrival_airport: 'xyz',
        departure_date: '2020-01-01',
        flight_numbers: ['ZZ1'],
      },
      inbound: { departure_airport: 'LHR', departure_date: '2020-01-09' },
    });
    expect(res.statusCode).toBe(200);
    const fs = res.json().data.flight_selection;
    expect(fs.outbound).toMatchObject({ departure_airport: 'MAD', arrival_airport: 'NRT', departure_date: departure });
    expect(fs.inbound).toMatchObject({ departure_airport: 'NRT', arrival_airport: 'MAD', departure_date: returnDate });
    expect(fs.outbound.flight_numbers).not.toContain('ZZ1');
  });

  it('searches a multi-city trip when the inbound leaves from another airport', async () => {
    await t.database.db
      .update(offers)
      .set({ flightData: cacheFor('KIX') })
      .where(eq(offers.id, cat.offers.active));
    const jar = new Jar();
    await call(jar, 'POST', `${base}/${cat.offers.active}`, { actual_pax_count: 3 });
    const res = await call(jar, 'POST', `${base}/${cat.offers.active}/business-flights`);
    expect(res.statusCode).toBe(200);
    const sent = fake.requests
      .filter((r) => r.op === 'create_offer_request' && r.body.data.slices.length === 2)
      .at(-1)!;
    expect(sent.body.data).toMatchObject({
      slices: [
        { origin: 'MAD', destination: 'NRT' },
        { origin: 'KIX', destination: 'MAD' },
      ],
      cabin_class: 'business',
      passengers: [{ type: 'adult' }, { type: 'adult' }, { type: 'adult' }],
    });
    expect(res.json().data.pax_count).toBe(3);
  });
});

describe('cards listed can be chosen', () => {
  type Card = { fareId: string; flight_numbers: string[]; price: number };
  const offerUrl = () => `${base}/${cat.offers.active}`;
  beforeAll(async () => {
    ip = `198.19.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    // another visitor's live search fills the offer's cached cards
    await t.database.db.update(offers).set({ flightData: cacheFor() }).where(eq(offers.id, cat.offers.active));
    expect((await call(null, 'POST', `${offerUrl()}/search-economy-flights`)).statusCode).toBe(200);
  });

  it('chooses any card GET /flights lists, re-checked live for the session; an expired one is 422 and leaves the list', async () => {
    const jar = new Jar();
    expect((await call(jar, 'POST', offerUrl())).statusCode).toBe(201);
    const listed = (await call(jar, 'GET', `${offerUrl()}/flights`)).json().data;
    expect(listed.outbound_options).toHaveLength(3);
    const [, second, third] = listed.outbound_options as Card[];
    const back = (listed.inbound_options as Card[]).find((c) => c.fareId === second.fareId)!;
    const thirdBack = (listed.inbound_options as Card[]).find((c) => c.fareId === third.fareId)!;

    // no live search of this session produced it: the fare is searched again and chosen
    const chosen = await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'ECONOMY', fare_id: second.fareId });
    expect(chosen.statusCode).toBe(200);
    const selection = chosen.json().data.flight_selection;
    expect(selection.outbound.flight_numbers).toEqual(second.flight_numbers);
    expect(selection.inbound.flight_numbers).toEqual(back.flight_numbers);
    expect(selection.legs[0].flight_numbers).toEqual({ outbound: second.flight_numbers, inbound: back.flight_numbers });

    // the third card's flights are no longer sold: the next search does not return them
    fake.onOffers = (list) => {
      const gone = list.findIndex((o) =>
        o.slices[0].segments.every(
          (g: any, i: number) =>
            `${g.marketing_carrier.iata_code}${g.marketing_carrier_flight_number}` === third.flight_numbers[i],
        ),
      );
      if (gone >= 0) list.splice(gone, 1);
    };
    try {
      // the card as the storefront shows it (the search of the first choice renewed the cached ids)
      const expired = await call(jar, 'PUT', `${base}/flights`, {
        cabin_class: 'ECONOMY',
        fare_id: third.fareId,
        outbound: { flight_numbers: third.flight_numbers },
        inbound: { flight_numbers: thirdBack.flight_numbers },
      });
      expect(expired.statusCode).toBe(422);
      expect(expired.json()).toMatchObject({ success: false, error: 'fare_not_found' });
    } finally {
      fake.onOffers = undefined;
    }
    const after = (await call(new Jar(), 'GET', `${offerUrl()}/flights`)).json().data;
    expect((after.outbound_options as Card[]).map((c) => c.flight_numbers)).not.toContainEqual(third.flight_numbers);
  });

  it('walks 3 travelers in room 3A from the search to a matched, booked leg', async () => {
    const jar = new Jar();
    const start = await call(jar, 'POST', offerUrl(), { actual_pax_count: 3, actual_room_type: '3A' });
    expect(start.statusCode).toBe(201);
    expect(start.json().data.is_non_standard_pax).toBe(true);
    const priced = await call(jar, 'POST', `${offerUrl()}/search-economy-flights`);
    expect(priced.json().data).toMatchObject({ has_flights: true });

    // the cards are the ones the party's price was built on: its own search, priced for three
    const listed = (await call(jar, 'GET', `${offerUrl()}/flights`)).json().data;
    const searched = fake.requests
      .filter((r) => r.op === 'create_offer_request' && r.body.data.slices.length === 2)
      .at(-1)!;
    expect(searched.body.data.passengers).toEqual([{ type: 'adult' }, { type: 'adult' }, { type: 'adult' }]);
    expect(listed.final_price).toBe(priced.json().data.new_price);
    const card = (listed.outbound_options as Card[])[0];
    const chosen = await call(jar, 'PUT', `${base}/flights`, { cabin_class: 'ECONOMY', fare_id: card.fareId });
    expect(chosen.statusCode).toBe(200);
    const leg = chosen.json().data.flight_selection.legs[0];
    expect(leg.flight_numbers.outbound).toEqual(card.flight_numbers);
    // the per-person fare is the card's total for three, and their product is that total exactly
    expect(leg.fare_total_cents).toBe(toCents(card.price));
    expect(leg.fare_pax).toBe(3);

    expect((await call(jar, 'PUT', `${base}/contact`, { client })).statusCode).toBe(200);
    const third = { ...travelers[1], first_name: 'Eva', passport_number: 'X1112223', email: 'eva@example.com' };
    expect((await call(jar, 'PUT', `${base}/travelers`, { travelers: [...travelers, third] })).statusCode).toBe(200);
    const intent = (await call(jar, 'POST', `${base}/payment/intent`)).json().data;
    stripe.succeed(intent.payment_intent_id);
    const done = await call(jar, 'POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(done.statusCode).toBe(200);
    const reference3 = done.json().data.booking_reference;
    const [b] = await t.database.db.select().from(bookings).where(eq(bookings.reference, reference3));

    const admin = await createApiToken(t.database.db, 'admin-3a', ['admin:bookings']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.id}/book-flights`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(202);
    await waitFor(async () => {
      const [now] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.id));
      return now.status === 'flights_confirmed';
    }, 20_000);
    const records = await flightRecords.flightBookingsOf(t.database.db, b.id);
    const international = records.find((r) => r.legIndex === 0)!;
    expect(international.flightNumbers.slice(0, card.flight_numbers.length)).toEqual(card.flight_numbers);
    expect(toCents(international.totalPrice)).toBe(toCents(card.price));
  });
});

describe('OpenAPI', () => {
  it('documents the flight, payment and admin endpoints with the bearer scheme', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/{market}/{lang}/checkout/{offerId}/search-economy-flights',
        '/api/{market}/{lang}/checkout/{offerId}/business-flights',
        '/api/{market}/{lang}/checkout/{offerId}/flights',
        '/api/{market}/{lang}/checkout/flights',
        '/api/{market}/{lang}/checkout/payment/intent',
        '/api/{market}/{lang}/checkout/payment/confirm',
        '/api/{market}/{lang}/checkout/confirmation/{reference}',
        '/api/internal/bookings/{id}/book-flights',
      ]),
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
