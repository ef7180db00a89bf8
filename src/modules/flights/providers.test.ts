import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeFlights, startFakeFlights } from '../../../test/fakes/flights.js';
import { HttpFlightProvider } from './http-provider.js';
import type { FlightProviderError, FlightSearchRequest } from './provider.js';
import { SandboxFlightProvider, sandboxFares } from './sandbox.js';

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

const passenger = {
  firstName: 'Ana',
  lastName: 'Garcia',
  birthDate: '1980-02-03',
  nationality: 'ES',
  passportNumber: 'X1234567',
  passportExpiry: '2031-01-01',
  email: 'ana@example.com',
  phone: '+34600000000',
};

async function failureOf(p: Promise<unknown>): Promise<FlightProviderError> {
  try {
    await p;
  } catch (err) {
    return err as FlightProviderError;
  }
  throw new Error('expected a provider failure');
}

describe('sandbox provider', () => {
  it('answers the same fares for the same search and different ones for another date', async () => {
    const p = new SandboxFlightProvider();
    const a = await p.search(roundTrip);
    const b = await p.search(roundTrip);
    expect(a.fares.length).toBe(6);
    expect(b).toEqual(a);
    const other = await p.search({
      ...roundTrip,
      legs: [roundTrip.legs[0], { ...roundTrip.legs[1], date: '2026-09-13' }],
    });
    expect(other.fares.map((f) => f.totalCents)).not.toEqual(a.fares.map((f) => f.totalCents));
  });

  it('gives each fare both directions and totals for all passengers', async () => {
    const fares = sandboxFares(roundTrip);
    for (const f of fares) {
      expect(f.legs.map((l) => [l.origin, l.destination])).toEqual([
        ['MAD', 'NRT'],
        ['NRT', 'MAD'],
      ]);
      expect(f.legs[0].flightNumbers.length).toBe(f.legs[0].stops + 1);
      expect(f.totalCents).toBeGreaterThan(2 * 45_000 - 1);
    }
    const business = sandboxFares({ ...roundTrip, cabin: 'BUSINESS' });
    expect(business.every((f) => f.cabin === 'BUSINESS' && f.totalCents > 2 * 140_000)).toBe(true);
    const oneWay = sandboxFares({ ...roundTrip, tripType: 'ONE_WAY', legs: [roundTrip.legs[0]] });
    expect(oneWay.every((f) => f.legs.length === 1 && f.legs[0].stops === 0)).toBe(true);
  });

  it('verifies, books and retrieves a fare without state', async () => {
    const p = new SandboxFlightProvider();
    const { flowId, fares } = await p.search(roundTrip);
    const verified = await new SandboxFlightProvider().verify(fares[2].id, flowId);
    expect(verified).toEqual({ fareId: fares[2].id, totalCents: fares[2].totalCents, currency: 'EUR' });
    const booked = await p.book({
      fareId: fares[2].id,
      flowId,
      reference: 'ITN-1',
      legIndex: 0,
      passengers: [passenger],
    });
    expect(booked.status).toBe('CONFIRMED');
    expect(booked.pnr).toMatch(/^[0-9A-F]{6}$/);
    const again = await new SandboxFlightProvider().retrieve(booked.reservationId);
    expect(again).toEqual(booked);
  });

  it('fails as configured', async () => {
    const p = new SandboxFlightProvider({ failures: { search: 'timeout' } });
    expect((await failureOf(p.search(roundTrip))).kind).toBe('timeout');
    p.setFailure('search', undefined);
    const { flowId, fares } = await p.search(roundTrip);
    p.setFailure('verify', 'price_change');
    const changed = await failureOf(p.verify(fares[0].id, flowId));
    expect(changed.kind).toBe('price_change');
    expect(changed.details.original_price).toBe(fares[0].totalCents / 100);
    p.setFailure('book', 'api_error');
    const apiError = await failureOf(
      p.book({ fareId: fares[0].id, flowId, reference: 'R', legIndex: 0, passengers: [] }),
    );
    expect(apiError.details.provider_errors).toHaveLength(1);
    expect((await failureOf(p.verify('SBX.bogus', flowId))).kind).toBe('fare_expired');
  });
});

describe('HTTP provider adapter', () => {
  let fake: FakeFlights;
  let provider: HttpFlightProvider;
  beforeAll(async () => {
    fake = await startFakeFlights();
    // a generous timeout: a loaded CI machine must not turn a normal answer into a timeout
    provider = new HttpFlightProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 10_000 });
  });
  afterAll(() => fake.close());

  it('searches with the token, trip type, cabin and passengers and parses fares', async () => {
    const result = await provider.search({ ...roundTrip, tripType: 'MULTI_CITY', cabin: 'BUSINESS', pax: 3 });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(sent.body).toEqual({
      trip_type: 'MULTI_CITY',
      cabin_class: 'BUSINESS',
      passengers: { adults: 3 },
      currency: 'EUR',
      legs: [
        { origin: 'MAD', destination: 'NRT', departure_date: '2026-09-01' },
        { origin: 'NRT', destination: 'MAD', departure_date: '2026-09-12' },
      ],
    });
    expect(result.flowId).toMatch(/^flow-/);
    expect(result.fares).toEqual(sandboxFares({ ...roundTrip, tripType: 'MULTI_CITY', cabin: 'BUSINESS', pax: 3 }));
  });

  it('verifies, books with the passengers and retrieves the reservation', async () => {
    const { flowId, fares } = await provider.search(roundTrip);
    expect((await provider.verify(fares[1].id, flowId)).totalCents).toBe(fares[1].totalCents);
    const booked = await provider.book({
      fareId: fares[1].id,
      flowId,
      reference: 'ITN-7',
      legIndex: 0,
      passengers: [passenger],
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      fare_id: fares[1].id,
      flow_id: flowId,
      reference: 'ITN-7',
      passengers: [{ first_name: 'Ana', last_name: 'Garcia', passport_number: 'X1234567', nationality: 'ES' }],
    });
    expect(booked).toMatchObject({ status: 'CONFIRMED', totalCents: fares[1].totalCents, currency: 'EUR' });
    const retrieved = await provider.retrieve(booked.reservationId);
    expect(retrieved.pnr).toBe(booked.pnr);
    expect(retrieved.details.tickets).toEqual(['0750000000001']);
  });

  it('classifies failures', async () => {
    const { flowId, fares } = await provider.search(roundTrip);
    const impatient = new HttpFlightProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 200 });
    fake.failNext('search', { delayMs: 1_000 });
    expect((await failureOf(impatient.search(roundTrip))).kind).toBe('timeout');

    fake.failNext('search', { status: 503, body: { errors: [{ code: 'DOWN', message: 'maintenance' }] } });
    const down = await failureOf(provider.search(roundTrip));
    expect(down.kind).toBe('api_error');
    expect(down.details.provider_errors).toEqual([{ code: 'DOWN', message: 'maintenance' }]);

    fake.failNext('verify', {
      status: 409,
      body: { error: { code: 'PRICE_CHANGED', message: 'up', original_price: 1000, new_price: 1100, currency: 'EUR' } },
    });
    const changed = await failureOf(provider.verify(fares[0].id, flowId));
    expect(changed.kind).toBe('price_change');
    expect(changed.details).toEqual({ fare_id: fares[0].id, original_price: 1000, new_price: 1100, currency: 'EUR' });

    fake.failNext('verify', {
      status: 410,
      body: { error: { code: 'FARE_EXPIRED', expired_at: '2026-06-15T09:00:00Z' } },
    });
    expect((await failureOf(provider.verify(fares[0].id, flowId))).details.expired_at).toBe('2026-06-15T09:00:00Z');

    fake.failNext('verify', { status: 409, body: { error: { code: 'SOLD_OUT', message: 'gone' } } });
    expect((await failureOf(provider.verify(fares[0].id, flowId))).kind).toBe('verify_failed');

    fake.failNext('book', {
      status: 422,
      body: { errors: [{ field: 'passengers.0.passport_number', message: 'bad' }] },
    });
    const invalid = await failureOf(
      provider.book({ fareId: fares[0].id, flowId, reference: 'R', legIndex: 0, passengers: [] }),
    );
    expect(invalid.kind).toBe('validation');
    expect(invalid.details.validation_errors).toEqual([{ field: 'passengers.0.passport_number', message: 'bad' }]);

    fake.failNext('book', { status: 409, body: { error: { code: 'SEATS_GONE', message: 'no seats' } } });
    const notBooked = await failureOf(
      provider.book({ fareId: fares[0].id, flowId, reference: 'R', legIndex: 0, passengers: [] }),
    );
    expect(notBooked).toMatchObject({ kind: 'booking_failed', details: { fare_id: fares[0].id } });
  });

  it('reports a 200 answer that is not the wire format as an api error', async () => {
    for (const body of [
      { flow_id: 'f', fares: 'none' },
      { flow_id: 'f', fares: [{ fare_id: 'x', legs: null }] },
    ]) {
      fake.failNext('search', { status: 200, body });
      const err = await failureOf(provider.search(roundTrip));
      expect(err.kind).toBe('api_error');
      expect(err.details.provider_errors).toMatchObject([{ code: 'MALFORMED_RESPONSE' }]);
    }
    const { flowId, fares } = await provider.search(roundTrip);
    fake.failNext('verify', { status: 200, body: { fare_id: fares[0].id } });
    expect((await failureOf(provider.verify(fares[0].id, flowId))).kind).toBe('api_error');
  });

  it('reports a bad token as an api error', async () => {
    const bad = new HttpFlightProvider({ baseUrl: fake.url, token: 'wrong' });
    expect((await failureOf(bad.search(roundTrip))).kind).toBe('api_error');
  });
});
