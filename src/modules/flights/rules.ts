// Pure flight rules: trip type detection, search requests, fare choice, business pricing,
// per-leg matching for the admin booking job and the failure metadata it records.
// Money is integer cents; prices leave this module as numbers only through centsToNumber.
import { centsToNumber, toCents } from '../../platform/money.js';
import {
  type CabinClass,
  type Fare,
  type FareLeg,
  FlightProviderError,
  type FlightSearchRequest,
  type ProviderFailureKind,
  type SearchPassenger,
  type TripType,
  type VerifiedFare,
} from './provider.js';

/** The queue every flight job runs on (leg bookings, rebookings, order cancellations). */
export const FLIGHTS_QUEUE = 'flights';

/** Flight segment object of the contract (flight_selection.outbound / inbound, cached route). */
export interface FlightSegment {
  departure_date: string;
  departure_time: string;
  arrival_time: string;
  departure_airport: string;
  arrival_airport: string;
  flight_numbers: string[];
  airlines: (string | { code: string; name: string })[];
  stops: number;
  stopover_airports: string[];
  arrivalDayOffset?: number;
  /** minutes, when known: a live fare's, or a cached route's that carries it */
  duration_minutes?: number;
}

export type LegType = 'international' | 'domestic';

/**
 * One bookable leg of a flight selection. The international leg covers outbound and inbound
 * (one fare, round trip or multi-city); a domestic leg is one one-way flight inside the
 * destination (inbound empty). fare_price is per person.
 */
export interface FlightLeg {
  leg_index: number;
  type: LegType;
  /** "MAD-NRT/NRT-MAD" for the international leg, "NRT-KIX" for a domestic one */
  route: string;
  cabin_class: CabinClass;
  /** per person, rounded to the cent for display; the exact total is fare_total_cents */
  fare_price: number;
  /** the fare's total for fare_pax passengers, in cents of the market's currency (unrounded) */
  fare_total_cents?: number;
  fare_pax?: number;
  /** what the provider bills for it in its own currency, when that is not the market's */
  billed_total_cents?: number;
  billed_currency?: string;
  flight_numbers: { outbound: string[]; inbound: string[] };
  origin: string;
  destination: string;
  departure_date: string;
  departure_time?: string;
  arrival_time?: string;
  airline_names?: string[];
  stopover_airports?: string[];
}

/** Multi-city when the inbound flight does not leave from where the outbound one arrives. */
export function isMultiCity(
  outbound: Pick<FlightSegment, 'arrival_airport'>,
  inbound: Pick<FlightSegment, 'departure_airport'>,
): boolean {
  return inbound.departure_airport.toUpperCase() !== outbound.arrival_airport.toUpperCase();
}

export function internationalTripType(outbound: FlightSegment, inbound: FlightSegment): TripType {
  return isMultiCity(outbound, inbound) ? 'MULTI_CITY' : 'ROUND_TRIP';
}

/** The international search for a cached route: round trip or multi-city, cabin and pax given. */
export function internationalSearch(
  outbound: FlightSegment,
  inbound: FlightSegment,
  cabin: CabinClass,
  pax: number,
  currency: string,
): FlightSearchRequest {
  return {
    tripType: internationalTripType(outbound, inbound),
    cabin,
    pax,
    currency,
    legs: [
      { origin: outbound.departure_airport, destination: outbound.arrival_airport, date: outbound.departure_date },
      { origin: inbound.departure_airport, destination: inbound.arrival_airport, date: inbound.departure_date },
    ],
  };
}

/** Whole years between a birth date and a date (YYYY-MM-DD). */
export function ageOn(birthDate: string, date: string): number {
  const [by, bm, bd] = birthDate.slice(0, 10).split('-').map(Number);
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * How airlines price a passenger on a date (Duffel: the age on the final slice's departure): 18
 * and over adult, 2 to 17 child, under 2 an infant on a lap.
 */
export function passengerTypeOn(birthDate: string, date: string): SearchPassenger {
  if (!birthDate || !date) return { type: 'adult' };
  const age = ageOn(birthDate, date);
  if (age >= 18) return { type: 'adult' };
  return age >= 2 ? { type: 'child', age } : { type: 'infant_without_seat', age: Math.max(0, age) };
}

/** The search passengers of travelers, on the date of the last flight searched. */
export function searchPassengers(birthDates: string[], lastDate: string): SearchPassenger[] {
  return birthDates.map((b) => passengerTypeOn(b, lastDate));
}

/** Domestic legs are always searched one-way. */
export function domesticSearch(
  leg: Pick<FlightLeg, 'origin' | 'destination' | 'departure_date'>,
  cabin: CabinClass,
  pax: number,
  currency: string,
): FlightSearchRequest {
  return {
    tripType: 'ONE_WAY',
    cabin,
    pax,
    currency,
    legs: [{ origin: leg.origin, destination: leg.destination, date: leg.departure_date }],
  };
}

/** Cheapest fare with baggage included, else the cheapest; ties keep the provider's order. */
export function pickFare(fares: Fare[]): Fare | undefined {
  const cheapest = (list: Fare[]) =>
    list.reduce<Fare | undefined>((best, f) => (!best || f.totalCents < best.totalCents ? f : best), undefined);
  return cheapest(fares.filter((f) => f.baggageIncluded)) ?? cheapest(fares);
}

/** The n cheapest fares (the flight cache keeps five). */
export function topFares(fares: Fare[], n = 5): Fare[] {
  return [...fares].sort((a, b) => a.totalCents - b.totalCents).slice(0, n);
}

/** Fares usable for a round trip / multi-city card: both outbound and inbound present. */
export function hasBothLegs(fare: Fare): boolean {
  return fare.legs.length >= 2 && fare.legs[0].flightNumbers.length > 0 && fare.legs[1].flightNumbers.length > 0;
}

/** cents x (1 + margin/100), margin a decimal string like "15" or "12.50"; half away from zero. */
export function applyMargin(cents: number, marginPercent: string | number): number {
  // (1 + m/100) = (10000 + m*100) / 10000, and m*100 is the margin in hundredths = toCents(m)
  const factor = BigInt(10_000 + toCents(marginPercent));
  const n = BigInt(cents) * factor;
  const q = n / 10_000n;
  const r = n % 10_000n;
  const abs = r < 0n ? -r : r;
  return Number(abs * 2n >= 10_000n ? (n < 0n ? q - 1n : q + 1n) : q);
}

export interface BusinessPriceInput {
  /** business flight price for all passengers (international fare + domestic total), cents */
  flightCents: number;
  /** land base price for the passengers (offer land_base_price for standard 2-pax), cents */
  landBaseCents: number;
  marginPercent: string | number;
  /** the original economy price the visitor saw (offer final_price, or the session base), cents */
  originalFinalCents: number;
  /** non-standard pax: marketing rounding of the total (per-pax rounding times pax) */
  round?: (cents: number) => number;
}

/** finalPrice = (flight + land) x (1 + margin/100); extraPrice = business final - economy original. */
export function businessPricing(input: BusinessPriceInput): { finalCents: number; extraCents: number } {
  const raw = applyMargin(input.flightCents + input.landBaseCents, input.marginPercent);
  const finalCents = input.round ? input.round(raw) : raw;
  return { finalCents, extraCents: finalCents - input.originalFinalCents };
}

/** Per-person share of a total, in cents (half up); extras are this times the passengers. */
export function perPerson(totalCents: number, pax: number): number {
  return Math.floor((2 * totalCents + pax) / (2 * pax));
}

function sameNumbers(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** Whether a fare flies exactly these outbound and inbound flight numbers. */
export function sameFlights(
  fare: { legs: Pick<FareLeg, 'flightNumbers'>[] },
  numbers: { outbound: string[]; inbound: string[] },
): boolean {
  const [out, back] = fare.legs;
  return (
    !!out &&
    !!back &&
    sameNumbers(out.flightNumbers, numbers.outbound) &&
    sameNumbers(back.flightNumbers, numbers.inbound)
  );
}

/**
 * What the leg's fare costs for `pax` passengers, in cents: the exact total the price was built
 * on when it was searched for that party, else the per-person fare times the passengers.
 */
export function legTotalCents(
  leg: Pick<FlightLeg, 'fare_price' | 'fare_total_cents' | 'fare_pax'>,
  pax: number,
): number {
  if (leg.fare_total_cents !== undefined && leg.fare_pax === pax) return leg.fare_total_cents;
  return toCents(leg.fare_price) * pax;
}

/** Price check of the matching rule: fare_price x pax against the fare total within 0.01. */
export function priceMatches(farePrice: number, pax: number, fareTotalCents: number): boolean {
  return Math.abs(toCents(farePrice) * pax - fareTotalCents) <= 1;
}

/**
 * The fare costs what the leg was sold with: in the provider's billing currency when both were
 * converted (a rate update is no price change), else the exact total, else the old per-person rule.
 */
function legPriceMatches(leg: FlightLeg, fare: Fare, pax: number): boolean {
  if (leg.billed_total_cents !== undefined && fare.billed && fare.billed.currency === leg.billed_currency) {
    return fare.billed.totalCents === leg.billed_total_cents;
  }
  if (leg.fare_total_cents !== undefined && leg.fare_pax === pax) return fare.totalCents === leg.fare_total_cents;
  return priceMatches(leg.fare_price, pax, fare.totalCents);
}

/**
 * Whether `fare` is the one chosen for `leg`. International legs (economy and business, business
 * fares bundled): outbound and inbound flight numbers exactly, plus the price for 2 passengers.
 * Domestic legs: outbound flight numbers, plus the price for 2 passengers. Other passenger counts
 * match by flight numbers only, and so does a party with children or infants (`checkPrice` false:
 * the checkout priced adults, the airline prices them lower).
 */
export function fareMatchesLeg(leg: FlightLeg, fare: Fare, pax: number, checkPrice = true): boolean {
  const [out, back] = fare.legs as (FareLeg | undefined)[];
  if (!out || !sameNumbers(out.flightNumbers, leg.flight_numbers.outbound)) return false;
  if (leg.type === 'international' && (!back || !sameNumbers(back.flightNumbers, leg.flight_numbers.inbound))) {
    return false;
  }
  return pax !== 2 || !checkPrice || legPriceMatches(leg, fare, pax);
}

export function findMatchingFare(leg: FlightLeg, fares: Fare[], pax: number, checkPrice = true): Fare | undefined {
  return fares.find((f) => fareMatchesLeg(leg, f, pax, checkPrice));
}

export type FailureMetadata = Record<string, unknown> & { message: string; sub_type: string; leg_index: number };

export function noMatchingFareMetadata(leg: FlightLeg, pax: number, totalFaresSearched: number): FailureMetadata {
  const numbers = [...leg.flight_numbers.outbound, ...leg.flight_numbers.inbound];
  return {
    message: `No matching ${leg.cabin_class} fare for leg ${leg.leg_index} (${numbers.join(', ')})`,
    sub_type: 'no_matching_fare',
    flight_numbers: numbers,
    cabin_class: leg.cabin_class,
    total_fares_searched: totalFaresSearched,
    expected_price: centsToNumber(legTotalCents(leg, pax)),
    leg_type: leg.type,
    leg_index: leg.leg_index,
  };
}

/** Signed change in percent with two decimals, e.g. 1000 -> 1100 cents is 10. */
export function percentageChange(originalCents: number, newCents: number): number {
  if (originalCents === 0) return 0;
  return Math.round(((newCents - originalCents) * 10_000) / originalCents) / 100;
}

/**
 * The verify step's answer against the fare found by the search: a different total (or
 * currency) is a price change, with both prices, before anything is booked.
 */
export function verifiedPriceChange(fare: Fare, verified: VerifiedFare): FlightProviderError | null {
  // a converted fare is compared in what the provider bills: a rate update is no price change
  const before = fare.billed ?? fare;
  const now = fare.billed && verified.billed ? verified.billed : verified;
  if (now.totalCents === before.totalCents && now.currency === before.currency) return null;
  return new FlightProviderError(
    'price_change',
    `Fare price changed from ${centsToNumber(before.totalCents)} to ${centsToNumber(now.totalCents)} ${now.currency}`,
    {
      fare_id: fare.id,
      original_price: centsToNumber(before.totalCents),
      new_price: centsToNumber(now.totalCents),
      currency: now.currency,
    },
  );
}

/** The failure metadata of a provider failure, shaped by cause (spread into the transition). */
export function providerFailureMetadata(err: FlightProviderError, legIndex: number): FailureMetadata {
  const d = err.details;
  const base = { message: err.message, sub_type: err.kind as ProviderFailureKind | string, leg_index: legIndex };
  switch (err.kind) {
    case 'price_change': {
      const original = d.original_price ?? 0;
      const next = d.new_price ?? 0;
      return {
        ...base,
        fare_id: d.fare_id,
        original_price: original,
        new_price: next,
        currency: d.currency,
        percentage_change: percentageChange(toCents(original), toCents(next)),
      };
    }
    case 'fare_expired':
      return { ...base, fare_id: d.fare_id, expired_at: d.expired_at };
    case 'validation':
      return { ...base, validation_errors: d.validation_errors ?? [] };
    case 'verify_failed':
    case 'booking_failed':
      return { ...base, fare_id: d.fare_id };
    case 'api_error':
      return {
        ...base,
        provider_errors: d.provider_errors ?? [],
        ...(d.outcome_unknown ? { outcome_unknown: true } : {}),
      };
    case 'rate_limited':
      // the spec's provider API error, with the delay the provider asked for
      return { ...base, sub_type: 'api_error', provider_errors: d.provider_errors ?? [], retry_after: d.retry_after };
    case 'timeout':
      return {
        ...base,
        ...(d.fare_id ? { fare_id: d.fare_id } : {}),
        ...(d.outcome_unknown ? { outcome_unknown: true } : {}),
      };
    default:
      return base;
  }
}

/**
 * The segment stored for a selection: where, when and which flights always come from the server
 * (the admin job searches and books from them); a client card only adds what a bare cached route
 * lacks (times, airlines), never overrides a full segment of a live fare.
 */
export function selectedSegment(server: FlightSegment, client?: Partial<FlightSegment> | null): FlightSegment {
  const shown = server.departure_time ? {} : (client ?? {});
  return {
    ...server,
    ...shown,
    departure_airport: server.departure_airport,
    arrival_airport: server.arrival_airport,
    departure_date: server.departure_date,
    flight_numbers: server.flight_numbers,
  };
}

/** The contract's flight segment object of one fare direction. */
export function segmentOf(l: FareLeg): FlightSegment {
  return {
    departure_date: l.departureDate,
    departure_time: l.departureTime,
    arrival_time: l.arrivalTime,
    departure_airport: l.origin,
    arrival_airport: l.destination,
    flight_numbers: l.flightNumbers,
    airlines: l.airlines.map((a) => ({ code: a.code, name: a.name })),
    stops: l.stops,
    stopover_airports: l.stopoverAirports,
    arrivalDayOffset: l.arrivalDayOffset,
    duration_minutes: l.durationMinutes,
  };
}

/** The amounts of a leg from its fare: per person for display, the exact totals for booking. */
function legAmounts(fare: Fare, pax: number) {
  return {
    fare_price: centsToNumber(perPerson(fare.totalCents, pax)),
    fare_total_cents: fare.totalCents,
    fare_pax: pax,
    ...(fare.billed ? { billed_total_cents: fare.billed.totalCents, billed_currency: fare.billed.currency } : {}),
  };
}

/** The international leg (outbound + inbound, one fare) of a selection; fare_price per person. */
export function internationalLeg(fare: Fare, pax: number, legIndex = 0): FlightLeg {
  const [out, back] = fare.legs;
  return {
    leg_index: legIndex,
    type: 'international',
    route: `${out.origin}-${out.destination}/${back.origin}-${back.destination}`,
    cabin_class: fare.cabin,
    ...legAmounts(fare, pax),
    flight_numbers: { outbound: out.flightNumbers, inbound: back.flightNumbers },
    origin: out.origin,
    destination: out.destination,
    departure_date: out.departureDate,
  };
}

/** A domestic one-way leg; it also carries times, airline names and stopovers. */
export function domesticLeg(fare: Fare, pax: number, legIndex: number): FlightLeg {
  const l = fare.legs[0];
  return {
    leg_index: legIndex,
    type: 'domestic',
    route: `${l.origin}-${l.destination}`,
    cabin_class: fare.cabin,
    ...legAmounts(fare, pax),
    flight_numbers: { outbound: l.flightNumbers, inbound: [] },
    origin: l.origin,
    destination: l.destination,
    departure_date: l.departureDate,
    departure_time: l.departureTime,
    arrival_time: l.arrivalTime,
    airline_names: l.airlines.map((a) => a.name),
    stopover_airports: l.stopoverAirports,
  };
}
