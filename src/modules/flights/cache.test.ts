import { describe, expect, it } from 'vitest';
import { economyOptions, legsWithInternational, parseFlightCache } from './cache.js';
import { sandboxFares } from './sandbox.js';

const seg = (from: string, to: string, date: string) => ({
  departure_date: date,
  departure_airport: from,
  arrival_airport: to,
});

describe('offer flight cache', () => {
  it('needs an outbound and an inbound route; fills the segment fields', () => {
    expect(parseFlightCache(null)).toBeNull();
    expect(parseFlightCache({ outbound: seg('MAD', 'NRT', '2026-09-01') })).toBeNull();
    const cache = parseFlightCache({
      outbound: seg('MAD', 'NRT', '2026-09-01'),
      inbound: seg('KIX', 'MAD', '2026-09-12'),
    });
    expect(cache).toMatchObject({
      outbound: { departure_airport: 'MAD', flight_numbers: [], stops: 0, stopover_airports: [] },
      legs: [],
    });
  });

  it('makes the international leg from the route when the cache lists only domestic legs', () => {
    const cache = parseFlightCache({
      outbound: { ...seg('MAD', 'NRT', '2026-09-01'), flight_numbers: ['IB1'] },
      inbound: { ...seg('KIX', 'MAD', '2026-09-12'), flight_numbers: ['IB2'] },
      legs: [
        { leg_index: 0, type: 'domestic', route: 'NRT-KIX', fare_price: 90, flight_numbers: { outbound: ['JL1'] } },
      ],
    })!;
    const legs = legsWithInternational(cache, 700);
    expect(legs.map((l) => [l.leg_index, l.type, l.route, l.fare_price])).toEqual([
      [0, 'international', 'MAD-NRT/KIX-MAD', 700],
      [1, 'domestic', 'NRT-KIX', 90],
    ]);
    expect(legs[0].flight_numbers).toEqual({ outbound: ['IB1'], inbound: ['IB2'] });
    expect(legsWithInternational({ ...cache, legs }, 1)).toBe(legs);
  });

  it('turns fares into paired outbound and inbound economy cards', () => {
    const fares = sandboxFares({
      tripType: 'ROUND_TRIP',
      cabin: 'ECONOMY',
      pax: 2,
      currency: 'EUR',
      legs: [
        { origin: 'MAD', destination: 'NRT', date: '2026-09-01' },
        { origin: 'NRT', destination: 'MAD', date: '2026-09-12' },
      ],
    });
    const { outbound, inbound } = economyOptions(fares.slice(0, 2));
    expect(outbound.map((o) => o.fareId)).toEqual(inbound.map((o) => o.fareId));
    expect(outbound[0]).toMatchObject({
      departure_airport: 'MAD',
      arrival_airport: 'NRT',
      price: fares[0].totalCents / 100,
      duration: fares[0].legs[0].durationMinutes,
    });
    expect(inbound[0].departure_airport).toBe('NRT');
  });
});
