import { describe, expect, it } from 'vitest';
import type { FlightProviderError, FlightSearchRequest } from './provider.js';
import { fareMatchesLeg, internationalLeg, pickFare } from './rules.js';
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

describe('sandbox scenarios a demo selects at run time', () => {
  it('a traveler named Pricechange, Expired, Providererror or Rejected makes the booking call fail so', async () => {
    const p = new SandboxFlightProvider();
    const { flowId, fares } = await p.search(roundTrip);
    const book = (lastName: string) =>
      failureOf(
        p.book({
          fareId: fares[0].id,
          flowId,
          reference: 'R',
          legIndex: 0,
          passengers: [passenger, { ...passenger, lastName }],
        }),
      );
    const changed = await book('Pricechange');
    expect(changed.kind).toBe('price_change');
    // a tenth dearer, in cents: e.g. 1000.00 -> 1100.00
    expect(Math.round(changed.details.new_price! * 100)).toBe(
      fares[0].totalCents + Math.round(fares[0].totalCents / 10),
    );
    expect((await book('expired')).kind).toBe('fare_expired');
    expect((await book('Provider Error')).kind).toBe('api_error');
    expect((await book('REJECTED')).kind).toBe('validation');
    const booked = await p.book({ fareId: fares[0].id, flowId, reference: 'R', legIndex: 0, passengers: [passenger] });
    expect(booked.status).toBe('CONFIRMED');
  });

  it('a departure on the 13th sells other flights once the travelers are known: the leg finds no match', () => {
    const on13 = { ...roundTrip, legs: [{ ...roundTrip.legs[0], date: '2026-09-13' }, roundTrip.legs[1]] };
    const atCheckout = pickFare(sandboxFares(on13))!;
    const leg = internationalLeg(atCheckout, 2, 0);
    const adults = [{ type: 'adult' as const }, { type: 'adult' as const }];
    const afterPayment = sandboxFares({ ...on13, passengers: adults });
    expect(afterPayment.some((f) => fareMatchesLeg(leg, f, 2))).toBe(false);
    // any other day finds the flights the customer chose
    const usual = pickFare(sandboxFares(roundTrip))!;
    const found = sandboxFares({ ...roundTrip, passengers: adults });
    expect(found.some((f) => fareMatchesLeg(internationalLeg(usual, 2, 0), f, 2))).toBe(true);
  });
});
