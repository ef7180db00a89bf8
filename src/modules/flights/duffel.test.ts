// The Duffel adapter against a fake that speaks Duffel's documented shapes (test/fakes/duffel.ts):
// what we send (token, Duffel-Version, data envelope, passengers, balance payment, metadata) and
// how each documented failure becomes one of our failure kinds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDuffel, startFakeDuffel } from '../../../test/fakes/duffel.js';
import { DuffelFlightProvider, durationMinutes, secondsUntilReset } from './duffel.js';
import type { BookingPassenger, FlightProviderError, FlightSearchRequest } from './provider.js';

let fake: FakeDuffel;
let duffel: DuffelFlightProvider;
beforeAll(async () => {
  fake = await startFakeDuffel();
  duffel = new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 10_000 });
});
afterAll(() => fake.close());

const roundTrip: FlightSearchRequest = {
  tripType: 'ROUND_TRIP',
  cabin: 'ECONOMY',
  pax: 2,
  currency: 'EUR',
  legs: [
    { origin: 'MAD', destination: 'NRT', date: '2026-09-01' },
    { origin: 'NRT', destination: 'MAD', date: '2026-09-12' },
  ],
};

const ana: BookingPassenger = {
  title: 'ms',
  gender: 'f',
  firstName: 'Ana',
  lastName: 'Garcia',
  birthDate: '1980-02-03',
  nationality: 'ES',
  passportNumber: 'X1234567',
  passportExpiry: '2031-01-01',
  email: 'ana@example.com',
  phone: '+34600000000',
};
const luis: BookingPassenger = { ...ana, title: 'mr', gender: 'm', firstName: 'Luis', passportNumber: 'X7654321' };

async function failureOf(p: Promise<unknown>): Promise<FlightProviderError> {
  try {
    await p;
  } catch (err) {
    return err as FlightProviderError;
  }
  throw new Error('expected a provider failure');
}

describe('Duffel adapter: search', () => {
  it('creates an offer request with slices, adult passengers and the cabin, and reads the offers', async () => {
    const result = await duffel.search(roundTrip);
    const sent = fake.requests.at(-1)!;
    expect(sent.op).toBe('create_offer_request');
    expect(sent.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(sent.headers['duffel-version']).toBe('v2');
    expect(sent.query.get('return_offers')).toBe('true');
    expect(sent.body).toEqual({
      data: {
        slices: [
          { origin: 'MAD', destination: 'NRT', departure_date: '2026-09-01', departure_time: null, arrival_time: null },
          { origin: 'NRT', destination: 'MAD', departure_date: '2026-09-12', departure_time: null, arrival_time: null },
        ],
        passengers: [{ type: 'adult' }, { type: 'adult' }],
        cabin_class: 'economy',
      },
    });
    expect(result.flowId).toMatch(/^orq_/);
    expect(result.fares).toHaveLength(3);
    const [direct, connecting] = result.fares;
    expect(direct.id).toMatch(/^off_/);
    expect(direct.legs.map((l) => [l.origin, l.destination, l.departureDate, l.stops])).toEqual([
      ['MAD', 'NRT', '2026-09-01', 0],
      ['NRT', 'MAD', '2026-09-12', 0],
    ]);
    expect(direct.legs[0].flightNumbers).toEqual([expect.stringMatching(/^BA\d{3}$/)]);
    expect(direct.legs[0].airlines).toEqual([{ code: 'BA', name: 'British Airways' }]);
    expect(direct.baggageIncluded).toBe(true);
    expect(connecting.legs[0]).toMatchObject({ stops: 1, stopoverAirports: ['FRA'] });
    expect(connecting.legs[0].flightNumbers).toHaveLength(2);
    expect(connecting.baggageIncluded).toBe(false);
    // the fake's totals are for both passengers, 37.50 apart per passenger between offers
    expect(connecting.totalCents - direct.totalCents).toBe(7_500);
  });

  it('searches one way and multi-city in business class', async () => {
    await duffel.search({ ...roundTrip, tripType: 'ONE_WAY', cabin: 'BUSINESS', pax: 1, legs: [roundTrip.legs[0]] });
    expect(fake.requests.at(-1)!.body.data).toMatchObject({
      slices: [{ origin: 'MAD', destination: 'NRT' }],
      passengers: [{ type: 'adult' }],
      cabin_class: 'business',
    });
    const multi = await duffel.search({
      ...roundTrip,
      tripType: 'MULTI_CITY',
      legs: [roundTrip.legs[0], { origin: 'KIX', destination: 'MAD', date: '2026-09-12' }],
    });
    expect(multi.fares[0].legs.map((l) => `${l.origin}-${l.destination}`)).toEqual(['MAD-NRT', 'KIX-MAD']);
  });
});

describe('Duffel adapter: verify, book, retrieve, find', () => {
  it('verifies by fetching the offer and books it with the passengers, a balance payment and our metadata', async () => {
    const { flowId, fares } = await duffel.search(roundTrip);
    const fare = fares[0];
    expect(await duffel.verify(fare.id, flowId)).toEqual({
      fareId: fare.id,
      totalCents: fare.totalCents,
      currency: 'EUR',
      billed: { totalCents: fare.totalCents, currency: 'EUR' },
    });
    expect(fake.requests.at(-1)!.op).toBe('get_offer');

    const booked = await duffel.book({
      fareId: fare.id,
      flowId,
      reference: 'IT-77',
      legIndex: 1,
      passengers: [ana, luis],
    });
    const order = fake.requests.at(-1)!;
    expect(order.op).toBe('create_order');
    const offer = fake.requests.filter((r) => r.op === 'get_offer').at(-1)!;
    expect(offer.path).toBe(`/air/offers/${fare.id}`);
    expect(order.body.data).toMatchObject({
      type: 'instant',
      selected_offers: [fare.id],
      payments: [{ type: 'balance', amount: (fare.totalCents / 100).toFixed(2), currency: 'EUR' }],
      metadata: { itinera_booking: 'IT-77', itinera_leg: '1' },
    });
    expect(order.body.data.passengers).toEqual([
      {
        id: expect.stringMatching(/^pas_/),
        title: 'ms',
        gender: 'f',
        given_name: 'Ana',
        family_name: 'Garcia',
        born_on: '1980-02-03',
        email: 'ana@example.com',
        phone_number: '+34600000000',
      },
      expect.objectContaining({ title: 'mr', gender: 'm', given_name: 'Luis' }),
    ]);
    expect(booked).toMatchObject({
      reservationId: expect.stringMatching(/^ord_/),
      pnr: expect.stringMatching(/^[0-9A-F]{6}$/),
      status: 'TICKETED',
      totalCents: fare.totalCents,
      currency: 'EUR',
    });

    const again = await duffel.retrieve(booked.reservationId);
    expect(again).toEqual(booked);
    expect(again.details.tickets).toEqual([expect.stringMatching(/^125\d{10}$/)]);

    const key = { reference: 'IT-77', legIndex: 1, leadPassenger: { firstName: 'Ana', lastName: 'Garcia' } };
    expect((await duffel.findBooking(key))?.reservationId).toBe(booked.reservationId);
    expect(await duffel.findBooking({ ...key, legIndex: 0 })).toBeNull();
  });

  it('sends the passport as identity document when the offer requires one', async () => {
    fake.requireDocuments(true);
    try {
      const { flowId, fares } = await duffel.search({ ...roundTrip, pax: 1 });
      await duffel.book({ fareId: fares[2].id, flowId, reference: 'IT-78', legIndex: 0, passengers: [ana] });
      expect(fake.requests.at(-1)!.body.data.passengers[0].identity_documents).toEqual([
        { type: 'passport', unique_identifier: 'X1234567', issuing_country_code: 'ES', expires_on: '2031-01-01' },
      ]);
    } finally {
      fake.requireDocuments(false);
    }
  });

  it('refuses to book passengers without title and gender before calling Duffel', async () => {
    const { flowId, fares } = await duffel.search({ ...roundTrip, pax: 1 });
    const before = fake.orders.length;
    const err = await failureOf(
      duffel.book({
        fareId: fares[0].id,
        flowId,
        reference: 'IT-79',
        legIndex: 0,
        passengers: [{ ...ana, title: null, gender: null }],
      }),
    );
    expect(err.kind).toBe('validation');
    expect(fake.orders.length).toBe(before);
  });
});

/** Searches one adult's round trip on `provider` and books its first offer. */
async function bookOne(provider: DuffelFlightProvider, reference: string, passenger: BookingPassenger = ana) {
  const { flowId, fares } = await provider.search({ ...roundTrip, pax: 1 });
  return provider.book({ fareId: fares[0].id, flowId, reference, legIndex: 0, passengers: [passenger] });
}

describe('Duffel adapter: passengers, phones, currency, accepted orders', () => {
  const mia: BookingPassenger = { ...ana, title: 'miss', firstName: 'Mia', birthDate: '2017-05-20' };
  const leo: BookingPassenger = { ...ana, title: 'mr', gender: 'm', firstName: 'Leo', birthDate: '2025-12-01' };

  it('searches children by age and infants on a lap, and books the infant on an adult', async () => {
    // ages on the final slice's departure (2026-09-12): Mia 9, Leo 0
    const family = {
      ...roundTrip,
      pax: 3,
      passengers: [{ type: 'adult' }, { type: 'child', age: 9 }, { type: 'infant_without_seat', age: 0 }],
    } as FlightSearchRequest;
    const { flowId, fares } = await duffel.search(family);
    expect(fake.requests.at(-1)!.body.data.passengers).toEqual([{ type: 'adult' }, { age: 9 }, { age: 0 }]);
    const offer = fake.requests.at(-1)!;
    expect(offer.op).toBe('create_offer_request');

    await duffel.book({ fareId: fares[0].id, flowId, reference: 'IT-90', legIndex: 0, passengers: [leo, ana, mia] });
    const sent = fake.requests.at(-1)!.body.data.passengers;
    expect(sent.map((p: any) => [p.given_name, p.born_on])).toEqual([
      ['Ana', '1980-02-03'],
      ['Mia', '2017-05-20'],
      ['Leo', '2025-12-01'],
    ]);
    expect(sent[0].infant_passenger_id).toBe(sent[2].id);
    expect(fake.orders.at(-1).passengers.map((p: any) => p.type)).toEqual(['adult', 'child', 'infant_without_seat']);
  });

  it('sends phones in E.164 and refuses a phone that is no number before calling Duffel', async () => {
    await bookOne(duffel, 'IT-91', { ...ana, phone: '612 345 678' });
    expect(fake.requests.at(-1)!.body.data.passengers[0].phone_number).toBe('+34612345678');

    const orders = fake.orders.length;
    const err = await failureOf(bookOne(duffel, 'IT-92', { ...ana, phone: '12' }));
    expect(err.kind).toBe('validation');
    expect(err.details.validation_errors).toEqual([
      { field: 'passengers.0.phone_number', message: 'The phone must be in E.164 format (e.g. +34612345678)' },
    ]);
    expect(fake.orders.length).toBe(orders);
  });

  it('converts offers in the billing currency to the market currency with today’s rates, keeping what Duffel bills', async () => {
    fake.billingCurrency('EUR');
    const converting = new DuffelFlightProvider({
      baseUrl: fake.url,
      token: fake.token,
      rates: async () => new Map([['USD', '1.0800']]),
    });
    const usd = await converting.search({ ...roundTrip, pax: 1, currency: 'USD' });
    expect(usd.fares).toHaveLength(3);
    const offer = fake.requests.at(-1)!;
    expect(offer.op).toBe('create_offer_request');
    const eur = usd.fares.map((f) => f.billed!);
    // 1 EUR = 1.08 USD: 549.68 EUR x 1.08 = 593.6544 -> 593.65 USD (and so on)
    expect(usd.fares.map((f) => [f.currency, f.totalCents, f.billed])).toEqual([
      ['USD', 59365, { totalCents: 54968, currency: 'EUR' }],
      ['USD', 63415, { totalCents: 58718, currency: 'EUR' }],
      ['USD', 67465, { totalCents: 62468, currency: 'EUR' }],
    ]);
    // booked (and paid from the balance) in what Duffel bills
    await converting.book({
      fareId: usd.fares[0].id,
      flowId: usd.flowId,
      reference: 'IT-93',
      legIndex: 0,
      passengers: [ana],
    });
    expect(fake.requests.at(-1)!.body.data.payments).toEqual([
      { type: 'balance', amount: (eur[0].totalCents / 100).toFixed(2), currency: 'EUR' },
    ]);
  });

  it('follows an order Duffel accepted (202) until it is confirmed, or reports it failed', async () => {
    const polling = new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token, orderPollMs: 20 });
    fake.acceptNextOrder({ polls: 2, outcome: 'confirmed' });
    const booked = await bookOne(polling, 'IT-94');
    expect(booked.pnr).toMatch(/^[0-9A-F]{6}$/);
    expect(booked.status).toBe('TICKETED');
    expect(fake.requests.slice(-3).map((r) => r.op)).toEqual(['get_order', 'get_order', 'get_order']);

    fake.acceptNextOrder({ polls: 1, outcome: 'failed' });
    const err = await failureOf(bookOne(polling, 'IT-95'));
    expect(err.kind).toBe('booking_failed');
    expect(err.message).toMatch(/did not create the accepted order/);
  });

  it('gives an order creation Duffel’s 130 s while searches keep their own time-out', async () => {
    const short = new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1_000 });
    fake.failNext('create_order', { delayMs: 3_000 });
    const booked = await bookOne(short, 'IT-96');
    expect(booked.reservationId).toMatch(/^ord_/);
    fake.failNext('create_offer_request', { delayMs: 3_000 });
    expect((await failureOf(short.search(roundTrip))).kind).toBe('timeout');
  });

  it('finds an earlier order by our reference in its metadata, whatever the names look like now', async () => {
    const { flowId, fares } = await duffel.search({ ...roundTrip, pax: 1 });
    const booked = await duffel.book({
      fareId: fares[0].id,
      flowId,
      reference: 'IT-97',
      legIndex: 2,
      passengers: [ana],
    });
    // an operator corrected the lead passenger's name since ("Anna Garcia Lopez")
    const found = await duffel.findBooking({
      reference: 'IT-97',
      legIndex: 2,
      leadPassenger: { firstName: 'Anna', lastName: 'Garcia Lopez' },
    });
    expect(found?.reservationId).toBe(booked.reservationId);
  });
});

describe('Duffel adapter: failures', () => {
  it('maps price_changed at order creation to a price change with both prices', async () => {
    const { flowId, fares } = await duffel.search({ ...roundTrip, pax: 1 });
    const fare = fares[0];
    const raised = ((fare.totalCents + 2_500) / 100).toFixed(2);
    fake.changePrice(fare.id, raised, { atOrder: true });
    const err = await failureOf(
      duffel.book({ fareId: fare.id, flowId, reference: 'R', legIndex: 0, passengers: [ana] }),
    );
    expect(err.kind).toBe('price_change');
    expect(err.details).toMatchObject({
      fare_id: fare.id,
      original_price: fare.totalCents / 100,
      new_price: Number(raised),
      currency: 'EUR',
    });
  });

  it('maps offer_no_longer_available and an expired offer to fare_expired', async () => {
    const { flowId, fares } = await duffel.search(roundTrip);
    fake.expireOffer(fares[1].id);
    const gone = await failureOf(duffel.verify(fares[1].id, flowId));
    expect(gone.kind).toBe('fare_expired');
    expect(gone.details.fare_id).toBe(fares[1].id);

    const later = new DuffelFlightProvider({
      baseUrl: fake.url,
      token: fake.token,
      now: () => new Date(Date.now() + 31 * 60_000),
    });
    const expired = await failureOf(later.verify(fares[0].id, flowId));
    expect(expired.kind).toBe('fare_expired');
    expect(expired.details.expired_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('maps a validation_error to validation with the errors', async () => {
    fake.failNext('create_offer_request', {
      status: 422,
      type: 'validation_error',
      code: 'invalid_data',
      message: 'slices[0].origin is invalid',
    });
    const err = await failureOf(duffel.search(roundTrip));
    expect(err.kind).toBe('validation');
    expect(err.details.validation_errors).toEqual([{ code: 'invalid_data', message: 'slices[0].origin is invalid' }]);
    expect(err.details).toHaveProperty('request_id');
  });

  it('maps 429 to rate_limited with the seconds until ratelimit-reset', async () => {
    const reset = new Date(Date.now() + 42_000).toUTCString();
    fake.failNext('create_offer_request', {
      status: 429,
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      headers: { 'ratelimit-reset': reset },
    });
    const err = await failureOf(duffel.search(roundTrip));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retry_after).toBeGreaterThanOrEqual(40);
    expect(err.details.retry_after).toBeLessThanOrEqual(43);
    expect(secondsUntilReset('Thu, 01 Jan 2026 00:01:30 GMT', new Date('2026-01-01T00:00:00Z'))).toBe(90);
    expect(secondsUntilReset('17', new Date())).toBe(17);
    expect(secondsUntilReset(null, new Date())).toBe(60);
  });

  it('maps 5xx to api errors; 500 and 502 on an order leave the outcome unknown', async () => {
    fake.failNext('create_offer_request', { status: 503, code: 'service_unavailable', message: 'down' });
    const down = await failureOf(duffel.search(roundTrip));
    expect(down.kind).toBe('api_error');
    expect(down.details.provider_errors).toEqual([
      { type: 'api_error', code: 'service_unavailable', title: 'service unavailable', message: 'down' },
    ]);
    expect(down.details.outcome_unknown).toBeUndefined();

    const { flowId, fares } = await duffel.search({ ...roundTrip, pax: 1 });
    fake.failNext('create_order', { status: 502, rawBody: '<html>Bad gateway</html>', afterCreate: true });
    const unclear = await failureOf(
      duffel.book({ fareId: fares[0].id, flowId, reference: 'IT-80', legIndex: 0, passengers: [ana] }),
    );
    expect(unclear).toMatchObject({ kind: 'api_error', details: { outcome_unknown: true } });
    // the order exists at Duffel all the same, and the order list finds it
    const found = await duffel.findBooking({ reference: 'IT-80', legIndex: 0, leadPassenger: ana });
    expect(found?.reservationId).toBe(fake.orders.at(-1).id);
  });

  it('stops a call when the caller aborts it, and times out on its own', async () => {
    fake.failNext('create_offer_request', { never: true });
    const controller = new AbortController();
    const pending = failureOf(duffel.search(roundTrip, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const stopped = await pending;
    expect(stopped.kind).toBe('timeout');
    expect(stopped.message).toMatch(/stopped by its deadline/);

    const impatient = new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 200 });
    fake.failNext('create_offer_request', { never: true });
    expect((await failureOf(impatient.search(roundTrip))).kind).toBe('timeout');
  });

  it('reports a bad token and a malformed answer as api errors', async () => {
    const stranger = new DuffelFlightProvider({ baseUrl: fake.url, token: 'wrong' });
    const denied = await failureOf(stranger.search(roundTrip));
    expect(denied.kind).toBe('api_error');
    expect(denied.details.provider_errors).toMatchObject([{ type: 'authentication_error', code: 'invalid_token' }]);

    fake.failNext('create_offer_request', { status: 200, rawBody: 'not json' });
    expect((await failureOf(duffel.search(roundTrip))).details.provider_errors).toMatchObject([
      { code: 'MALFORMED_RESPONSE' },
    ]);
  });

  it('reads ISO 8601 durations', () => {
    expect(durationMinutes('PT14H35M')).toBe(875);
    expect(durationMinutes('P1DT2H5M')).toBe(1565);
    expect(durationMinutes(null)).toBe(0);
  });
});
