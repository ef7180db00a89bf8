import { describe, expect, it } from 'vitest';
import { type Fare, FlightProviderError } from './provider.js';
import {
  applyMargin,
  businessPricing,
  domesticSearch,
  type FlightLeg,
  type FlightSegment,
  fareMatchesLeg,
  findMatchingFare,
  hasBothLegs,
  internationalSearch,
  isMultiCity,
  noMatchingFareMetadata,
  percentageChange,
  perPerson,
  pickFare,
  providerFailureMetadata,
  selectedSegment,
  topFares,
} from './rules.js';

function segment(from: string, to: string, date: string, numbers: string[] = ['IB1']): FlightSegment {
  return {
    departure_date: date,
    departure_time: '10:00',
    arrival_time: '18:00',
    departure_airport: from,
    arrival_airport: to,
    flight_numbers: numbers,
    airlines: ['IB'],
    stops: numbers.length - 1,
    stopover_airports: [],
  };
}

function fare(id: string, totalCents: number, baggage: boolean, out: string[], back?: string[]): Fare {
  const leg = (nums: string[]) => ({
    origin: 'MAD',
    destination: 'NRT',
    departureDate: '2026-09-01',
    departureTime: '10:00',
    arrivalTime: '08:00',
    arrivalDayOffset: 1,
    durationMinutes: 900,
    flightNumbers: nums,
    airlines: [{ code: 'IB', name: 'Iberia' }],
    stops: nums.length - 1,
    stopoverAirports: [],
  });
  return {
    id,
    cabin: 'ECONOMY',
    totalCents,
    currency: 'EUR',
    baggageIncluded: baggage,
    legs: back ? [leg(out), leg(back)] : [leg(out)],
  };
}

const intlLeg: FlightLeg = {
  leg_index: 0,
  type: 'international',
  route: 'MAD-NRT/NRT-MAD',
  cabin_class: 'ECONOMY',
  fare_price: 650.5,
  flight_numbers: { outbound: ['IB1', 'JL2'], inbound: ['JL3', 'IB4'] },
  origin: 'MAD',
  destination: 'NRT',
  departure_date: '2026-09-01',
};

const domesticLeg: FlightLeg = {
  leg_index: 1,
  type: 'domestic',
  route: 'NRT-KIX',
  cabin_class: 'ECONOMY',
  fare_price: 80.25,
  flight_numbers: { outbound: ['JL100'], inbound: [] },
  origin: 'NRT',
  destination: 'KIX',
  departure_date: '2026-09-05',
};

describe('multi-city detection', () => {
  it('is a round trip when the inbound leaves from the outbound destination', () => {
    expect(isMultiCity(segment('MAD', 'NRT', '2026-09-01'), segment('NRT', 'MAD', '2026-09-12'))).toBe(false);
    expect(isMultiCity(segment('MAD', 'NRT', '2026-09-01'), segment('nrt', 'MAD', '2026-09-12'))).toBe(false);
  });
  it('is multi-city when the inbound departure differs from the outbound destination', () => {
    expect(isMultiCity(segment('MAD', 'NRT', '2026-09-01'), segment('KIX', 'MAD', '2026-09-12'))).toBe(true);
  });
  it('builds the international search with the trip type, cabin and passengers', () => {
    const req = internationalSearch(
      segment('MAD', 'NRT', '2026-09-01'),
      segment('KIX', 'MAD', '2026-09-12'),
      'BUSINESS',
      3,
      'EUR',
    );
    expect(req).toEqual({
      tripType: 'MULTI_CITY',
      cabin: 'BUSINESS',
      pax: 3,
      currency: 'EUR',
      legs: [
        { origin: 'MAD', destination: 'NRT', date: '2026-09-01' },
        { origin: 'KIX', destination: 'MAD', date: '2026-09-12' },
      ],
    });
    expect(
      internationalSearch(segment('MAD', 'NRT', '2026-09-01'), segment('NRT', 'MAD', '2026-09-12'), 'ECONOMY', 2, 'EUR')
        .tripType,
    ).toBe('ROUND_TRIP');
  });
  it('searches domestic legs one-way', () => {
    expect(domesticSearch(domesticLeg, 'ECONOMY', 2, 'EUR')).toEqual({
      tripType: 'ONE_WAY',
      cabin: 'ECONOMY',
      pax: 2,
      currency: 'EUR',
      legs: [{ origin: 'NRT', destination: 'KIX', date: '2026-09-05' }],
    });
  });
});

describe('fare choice', () => {
  it('picks the cheapest fare with baggage', () => {
    const fares = [
      fare('a', 90_000, false, ['X1']),
      fare('b', 120_000, true, ['X2']),
      fare('c', 110_000, true, ['X3']),
    ];
    expect(pickFare(fares)?.id).toBe('c');
  });
  it('falls back to the cheapest fare when none includes baggage', () => {
    const fares = [fare('a', 90_000, false, ['X1']), fare('b', 80_000, false, ['X2'])];
    expect(pickFare(fares)?.id).toBe('b');
    expect(pickFare([])).toBeUndefined();
  });
  it('keeps the five cheapest fares for the cache', () => {
    const fares = [7, 3, 9, 1, 5, 2, 8].map((n) => fare(`f${n}`, n * 1000, true, ['X']));
    expect(topFares(fares).map((f) => f.id)).toEqual(['f1', 'f2', 'f3', 'f5', 'f7']);
  });
  it('skips fares lacking an outbound or inbound leg for business cards', () => {
    expect(hasBothLegs(fare('a', 1, true, ['X1'], ['X2']))).toBe(true);
    expect(hasBothLegs(fare('b', 1, true, ['X1']))).toBe(false);
    expect(hasBothLegs(fare('c', 1, true, ['X1'], []))).toBe(false);
  });
});

describe('business pricing', () => {
  it('applies the margin in integer cents', () => {
    expect(applyMargin(100_000, '15')).toBe(115_000);
    expect(applyMargin(100_001, '12.5')).toBe(112_501); // 112501.125 rounds down
    expect(applyMargin(3, '50')).toBe(5); // 4.5 rounds half up
    expect(applyMargin(100_000, '0')).toBe(100_000);
  });
  it('finalPrice = (flight + land) x (1 + margin/100); extraPrice = final - original economy price', () => {
    // business flights 2 x 3000.00, land 2400.00, margin 15 %, economy final 4140.00
    const r = businessPricing({
      flightCents: 600_000,
      landBaseCents: 240_000,
      marginPercent: '15.00',
      originalFinalCents: 414_000,
    });
    expect(r).toEqual({ finalCents: 966_000, extraCents: 552_000 });
  });
  it('applies a marketing rounding for non-standard passengers', () => {
    const round = (c: number) => Math.ceil(c / 3 / 1000) * 1000 * 3; // per-pax up to 10.00, times 3
    const r = businessPricing({
      flightCents: 900_001,
      landBaseCents: 300_000,
      marginPercent: '10',
      originalFinalCents: 600_000,
      round,
    });
    // raw 1320001.1 -> 1320001 cents; 440000.33 per pax rounds up to 4410.00; times 3
    expect(r.finalCents).toBe(1_323_000);
    expect(r.extraCents).toBe(723_000);
  });
  it('splits totals per person, half up', () => {
    expect(perPerson(552_000, 2)).toBe(276_000);
    expect(perPerson(101, 2)).toBe(51);
    expect(perPerson(100, 3)).toBe(33);
  });
});

describe('leg matching', () => {
  const exact = fare('exact', 130_100, true, ['IB1', 'JL2'], ['JL3', 'IB4']);
  it('matches international legs by both directions flight numbers and price x pax within 0.01', () => {
    expect(fareMatchesLeg(intlLeg, exact, 2)).toBe(true);
    expect(fareMatchesLeg(intlLeg, fare('cent', 130_101, true, ['IB1', 'JL2'], ['JL3', 'IB4']), 2)).toBe(true);
    expect(fareMatchesLeg(intlLeg, fare('2cents', 130_102, true, ['IB1', 'JL2'], ['JL3', 'IB4']), 2)).toBe(false);
  });
  it('requires flight numbers exactly, in both directions', () => {
    expect(fareMatchesLeg(intlLeg, fare('o', 130_100, true, ['IB1'], ['JL3', 'IB4']), 2)).toBe(false);
    expect(fareMatchesLeg(intlLeg, fare('i', 130_100, true, ['IB1', 'JL2'], ['IB4', 'JL3']), 2)).toBe(false);
    expect(fareMatchesLeg(intlLeg, fare('1', 130_100, true, ['IB1', 'JL2']), 2)).toBe(false);
  });
  it('matches other passenger counts by flight numbers only', () => {
    const pricey = fare('p', 999_999, true, ['IB1', 'JL2'], ['JL3', 'IB4']);
    expect(fareMatchesLeg(intlLeg, pricey, 3)).toBe(true);
    expect(fareMatchesLeg(intlLeg, pricey, 1)).toBe(true);
    expect(fareMatchesLeg(intlLeg, pricey, 2)).toBe(false);
  });
  it('matches domestic legs one-way by outbound flight numbers plus price for 2 pax', () => {
    expect(fareMatchesLeg(domesticLeg, fare('d', 16_050, false, ['JL100']), 2)).toBe(true);
    expect(fareMatchesLeg(domesticLeg, fare('d2', 16_100, false, ['JL100']), 2)).toBe(false);
    expect(fareMatchesLeg(domesticLeg, fare('d3', 16_050, false, ['JL101']), 2)).toBe(false);
    expect(fareMatchesLeg(domesticLeg, fare('d4', 50_000, false, ['JL100']), 4)).toBe(true);
  });
  it('finds the first matching fare', () => {
    const list = [fare('x', 130_100, true, ['IB9'], ['IB8']), exact];
    expect(findMatchingFare(intlLeg, list, 2)?.id).toBe('exact');
    expect(findMatchingFare(domesticLeg, list, 2)).toBeUndefined();
  });
});

describe('failure metadata', () => {
  it('describes a missing fare', () => {
    expect(noMatchingFareMetadata(intlLeg, 2, 6)).toEqual({
      message: 'No matching ECONOMY fare for leg 0 (IB1, JL2, JL3, IB4)',
      sub_type: 'no_matching_fare',
      flight_numbers: ['IB1', 'JL2', 'JL3', 'IB4'],
      cabin_class: 'ECONOMY',
      total_fares_searched: 6,
      expected_price: 1301,
      leg_type: 'international',
      leg_index: 0,
    });
  });
  it('describes a price change with the percentage', () => {
    const err = new FlightProviderError('price_change', 'Fare price changed', {
      fare_id: 'F1',
      original_price: 1000,
      new_price: 1100.5,
      currency: 'EUR',
    });
    expect(providerFailureMetadata(err, 1)).toEqual({
      message: 'Fare price changed',
      sub_type: 'price_change',
      leg_index: 1,
      fare_id: 'F1',
      original_price: 1000,
      new_price: 1100.5,
      currency: 'EUR',
      percentage_change: 10.05,
    });
    expect(percentageChange(200_000, 150_000)).toBe(-25);
  });
  it('shapes each cause', () => {
    const meta = (kind: ConstructorParameters<typeof FlightProviderError>[0], details = {}) =>
      providerFailureMetadata(new FlightProviderError(kind, 'm', details), 0);
    expect(meta('fare_expired', { fare_id: 'F', expired_at: '2026-01-01T00:00:00Z' })).toEqual({
      message: 'm',
      sub_type: 'fare_expired',
      leg_index: 0,
      fare_id: 'F',
      expired_at: '2026-01-01T00:00:00Z',
    });
    expect(meta('timeout')).toEqual({ message: 'm', sub_type: 'timeout', leg_index: 0 });
    expect(meta('validation', { validation_errors: [{ field: 'x' }] })).toMatchObject({
      sub_type: 'validation',
      validation_errors: [{ field: 'x' }],
    });
    expect(meta('verify_failed', { fare_id: 'F' })).toEqual({
      message: 'm',
      sub_type: 'verify_failed',
      leg_index: 0,
      fare_id: 'F',
    });
    expect(meta('booking_failed', { fare_id: 'F' })).toMatchObject({ sub_type: 'booking_failed', fare_id: 'F' });
    expect(meta('api_error', { provider_errors: [{ code: 'E' }] })).toEqual({
      message: 'm',
      sub_type: 'api_error',
      leg_index: 0,
      provider_errors: [{ code: 'E' }],
    });
  });
});

describe('selected segment', () => {
  const route = {
    departure_date: '2027-03-01',
    departure_time: '',
    arrival_time: '',
    departure_airport: 'MAD',
    arrival_airport: 'NRT',
    flight_numbers: [],
    airlines: [],
    stops: 0,
    stopover_airports: [],
  };
  const client = {
    departure_date: '2020-01-01',
    departure_time: '10:05',
    departure_airport: 'BCN',
    arrival_airport: 'LHR',
    flight_numbers: ['ZZ1'],
    airlines: ['IB'],
  };

  it('takes where, when and which flights from the server', () => {
    expect(selectedSegment(route, client)).toMatchObject({
      departure_date: '2027-03-01',
      departure_airport: 'MAD',
      arrival_airport: 'NRT',
      flight_numbers: [],
      departure_time: '10:05', // a bare cached route: the card adds its times
      airlines: ['IB'],
    });
  });

  it('keeps a full server segment as it is', () => {
    const full = { ...route, departure_time: '09:00', arrival_time: '07:00', flight_numbers: ['IB6801'] };
    expect(selectedSegment(full, client)).toEqual(full);
    expect(selectedSegment(full, null)).toEqual(full);
  });
});
