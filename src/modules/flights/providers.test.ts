import { describe, expect, it } from 'vitest';
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
