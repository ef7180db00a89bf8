// The offer's flight cache (offers.flight_data) and the search metadata kept in the checkout
// session. The cache holds the route (outbound/inbound segments), the bookable legs with their
// per-person fare prices, and the top five fares of the last live search as flight options.
import { centsToNumber } from '../../platform/money.js';
import type { Fare, FareLeg } from './provider.js';
import { type FlightLeg, type FlightSegment, segmentOf } from './rules.js';

/** A flight option card (one direction of a fare). */
export interface FlightOption {
  id: string;
  fareId: string;
  departureTime: string;
  arrivalTime: string;
  /** minutes */
  duration: number;
  stops: number;
  departure_date: string;
  departure_airport: string;
  arrival_airport: string;
  flight_numbers: string[];
  airlines: { code: string; name: string }[];
  stopover_airports: string[];
  arrivalDayOffset: number;
  baggage_included: boolean;
  /** economy: the fare total for all passengers; business: the option's final price */
  price?: number;
  finalPrice?: number;
  extraPrice?: number;
}

export interface OfferFlightCache {
  outbound: FlightSegment;
  inbound: FlightSegment;
  /** leg 0 international, then domestic legs; fare_price per person */
  legs: FlightLeg[];
  outbound_options?: FlightOption[];
  inbound_options?: FlightOption[];
  searched_at?: string;
  flow_id?: string;
}

/** Economy search metadata in the session: the legs priced by the last live search. */
export interface EconomySearchMeta {
  searched_at: string;
  flow_id: string;
  pax: number;
  outbound: FlightSegment;
  inbound: FlightSegment;
  legs: FlightLeg[];
  flight_cents: number;
  /**
   * The economy cards of the search by fare id (the customer chooses one by fare_id): their
   * segments, international leg, and what a dearer fare than the priced one adds per person.
   */
  fares?: Record<string, EconomyFareMeta>;
}

export interface EconomyFareMeta {
  outbound: FlightSegment;
  inbound: FlightSegment;
  international: FlightLeg;
  extra_per_person_cents: number;
  baggage_included?: boolean;
}

/** Per-fare business metadata (legs_metadata) kept for the flight selection. */
export interface BusinessFareMeta {
  outbound: FlightSegment;
  inbound: FlightSegment;
  legs: FlightLeg[];
  final_cents: number;
  extra_cents: number;
  extra_per_person_cents: number;
}

export interface BusinessSearchMeta {
  searched_at: string;
  flow_id: string;
  pax: number;
  legs_metadata: Record<string, BusinessFareMeta>;
}

function isSegment(v: unknown): v is FlightSegment {
  const s = v as FlightSegment | null;
  return (
    !!s &&
    typeof s.departure_airport === 'string' &&
    typeof s.arrival_airport === 'string' &&
    typeof s.departure_date === 'string'
  );
}

/** The offer's cache when it holds a usable route; null otherwise (no flights for the offer). */
export function parseFlightCache(raw: unknown): OfferFlightCache | null {
  const c = raw as Partial<OfferFlightCache> | null;
  if (!c || !isSegment(c.outbound) || !isSegment(c.inbound)) return null;
  const fill = (s: Partial<FlightSegment>): FlightSegment =>
    ({
      departure_time: '',
      arrival_time: '',
      flight_numbers: [],
      airlines: [],
      stops: 0,
      stopover_airports: [],
      ...s,
    }) as FlightSegment;
  return {
    ...c,
    outbound: fill(c.outbound),
    inbound: fill(c.inbound),
    legs: Array.isArray(c.legs) ? c.legs : [],
  } as OfferFlightCache;
}

export function domesticLegsOf(cache: OfferFlightCache): FlightLeg[] {
  return cache.legs.filter((l) => l.type === 'domestic');
}

/** A card of one direction of a stored segment (the cached route, a session's search card). */
export function cardOfSegment(
  s: FlightSegment,
  fareId: string,
  direction: 'out' | 'in',
  baggage = false,
): FlightOption {
  return {
    id: `${fareId}:${direction}`,
    fareId,
    departureTime: s.departure_time,
    arrivalTime: s.arrival_time,
    duration: s.duration_minutes ?? 0,
    stops: s.stops,
    departure_date: s.departure_date,
    departure_airport: s.departure_airport,
    arrival_airport: s.arrival_airport,
    flight_numbers: s.flight_numbers,
    airlines: s.airlines.map((a) => (typeof a === 'string' ? { code: a, name: a } : a)),
    stopover_airports: s.stopover_airports,
    arrivalDayOffset: s.arrivalDayOffset ?? 0,
    baggage_included: baggage,
  };
}

export function optionOf(fare: Fare, leg: FareLeg, direction: 'out' | 'in'): FlightOption {
  const s = segmentOf(leg);
  return {
    id: `${fare.id}:${direction}`,
    fareId: fare.id,
    departureTime: leg.departureTime,
    arrivalTime: leg.arrivalTime,
    duration: leg.durationMinutes,
    stops: leg.stops,
    departure_date: s.departure_date,
    departure_airport: s.departure_airport,
    arrival_airport: s.arrival_airport,
    flight_numbers: s.flight_numbers,
    airlines: leg.airlines,
    stopover_airports: s.stopover_airports,
    arrivalDayOffset: leg.arrivalDayOffset,
    baggage_included: fare.baggageIncluded,
  };
}

/**
 * Economy option cards of fares (price: the fare total for all passengers; extraPrice: what
 * choosing it adds to the booking, 0 for the priced fare and cheaper ones).
 */
export function economyOptions(
  fares: Fare[],
  extraCents: (fare: Fare) => number = () => 0,
): { outbound: FlightOption[]; inbound: FlightOption[] } {
  const usable = fares.filter((f) => f.legs.length >= 2);
  const card = (f: Fare, dir: 'out' | 'in') => ({
    ...optionOf(f, f.legs[dir === 'out' ? 0 : 1], dir),
    price: centsToNumber(f.totalCents),
    extraPrice: centsToNumber(extraCents(f)),
  });
  return { outbound: usable.map((f) => card(f, 'out')), inbound: usable.map((f) => card(f, 'in')) };
}

/**
 * The legs of a cache, with the international leg made from the route when the cache lists only
 * domestic legs (an imported cache may carry just the route and the offer's flight_price).
 */
export function legsWithInternational(cache: OfferFlightCache, flightPricePerPerson: number): FlightLeg[] {
  if (cache.legs.some((l) => l.type === 'international')) return cache.legs;
  const { outbound: o, inbound: i } = cache;
  const international: FlightLeg = {
    leg_index: 0,
    type: 'international',
    route: `${o.departure_airport}-${o.arrival_airport}/${i.departure_airport}-${i.arrival_airport}`,
    cabin_class: 'ECONOMY',
    fare_price: flightPricePerPerson,
    flight_numbers: { outbound: o.flight_numbers, inbound: i.flight_numbers },
    origin: o.departure_airport,
    destination: o.arrival_airport,
    departure_date: o.departure_date,
  };
  return [international, ...cache.legs.map((l, n) => ({ ...l, leg_index: n + 1 }))];
}
