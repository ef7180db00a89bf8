// The sandbox flight provider of the embedded default: fares are derived from a hash of the
// route, dates and cabin, so the same search always answers the same fares (the admin booking
// job re-searches and finds the fare the visitor chose). Fare and reservation ids carry what is
// needed to re-create them, so verify/book/retrieve need no state and work across processes.
// Failures can be configured per operation for demos and tests.
import { createHash } from 'node:crypto';
import {
  type Airline,
  type BookFareRequest,
  type ExtraTravelerField,
  type Fare,
  type FareLeg,
  type FlightProvider,
  FlightProviderError,
  type FlightSearchRequest,
  type OrderCancellation,
  type ProviderFailureKind,
  type Reservation,
  type SearchResult,
  type VerifiedFare,
} from './provider.js';

const AIRLINES: Airline[] = [
  { code: 'IB', name: 'Iberia' },
  { code: 'LH', name: 'Lufthansa' },
  { code: 'AF', name: 'Air France' },
  { code: 'BA', name: 'British Airways' },
  { code: 'QR', name: 'Qatar Airways' },
  { code: 'EK', name: 'Emirates' },
  { code: 'TK', name: 'Turkish Airlines' },
  { code: 'JL', name: 'Japan Airlines' },
];
const HUBS = ['DOH', 'DXB', 'IST', 'FRA', 'CDG', 'AMS', 'LHR', 'MAD'];
const FARES_PER_SEARCH = 6;

/** Seeded PRNG (mulberry32): the same seed gives the same sequence. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode<T>(text: string): T | undefined {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

interface FareKey {
  r: FlightSearchRequest;
  i: number;
}

function fareLeg(rand: () => number, origin: string, destination: string, date: string, oneWay: boolean): FareLeg {
  const airline = AIRLINES[Math.floor(rand() * AIRLINES.length)];
  const stops = oneWay ? 0 : rand() < 0.4 ? 0 : 1;
  const hub = HUBS.filter((h) => h !== origin && h !== destination)[Math.floor(rand() * 6)];
  const number = () => `${airline.code}${100 + Math.floor(rand() * 8900)}`;
  const flightNumbers = stops === 0 ? [number()] : [number(), number()];
  const departure = 6 * 60 + Math.floor(rand() * 16 * 12) * 5;
  const duration = oneWay ? 60 + Math.floor(rand() * 24) * 5 : 8 * 60 + Math.floor(rand() * 10 * 12) * 5;
  const arrival = departure + duration;
  return {
    origin,
    destination,
    departureDate: date,
    departureTime: hhmm(departure),
    arrivalTime: hhmm(arrival % (24 * 60)),
    arrivalDayOffset: Math.floor(arrival / (24 * 60)),
    durationMinutes: duration,
    flightNumbers,
    airlines: [airline],
    stops,
    stopoverAirports: stops ? [hub] : [],
  };
}

/** The deterministic fares of a search (also served by the fake HTTP provider in tests). */
export function sandboxFares(req: FlightSearchRequest): Fare[] {
  // the no-match scenario: once the travelers are known, the first leg's day sells other flights
  const moved = req.passengers !== undefined && Number(req.legs[0]?.date.slice(8, 10)) === SANDBOX_NO_MATCH_DAY;
  const route = req.legs.map((l) => `${l.origin}-${l.destination}-${l.date}`).join('|') + (moved ? ':moved' : '');
  const oneWay = req.tripType === 'ONE_WAY';
  const fares: Fare[] = [];
  for (let i = 0; i < FARES_PER_SEARCH; i++) {
    const rand = prng(seedOf(`${route}:${req.cabin}:${i}`));
    // per-person price in cents: long-haul round trips 450-1300, domestic one-ways 60-220
    let perPerson = oneWay ? 6_000 + Math.floor(rand() * 16_000) : 45_000 + Math.floor(rand() * 85_000);
    if (req.cabin === 'BUSINESS') perPerson = Math.floor(perPerson * 3.2);
    const legs = req.legs.map((l) => fareLeg(rand, l.origin, l.destination, l.date, oneWay));
    fares.push({
      // the travelers' types change no sandbox fare: the same flights keep the same id
      id: `SBX.${encode({ r: moved ? req : { ...req, passengers: undefined }, i } satisfies FareKey)}`,
      cabin: req.cabin,
      totalCents: perPerson * req.pax + Math.floor(rand() * 2),
      currency: req.currency,
      baggageIncluded: rand() < 0.6,
      legs,
    });
  }
  return fares;
}

function fareFromId(fareId: string): Fare | undefined {
  if (!fareId.startsWith('SBX.')) return undefined;
  const key = decode<FareKey>(fareId.slice(4));
  if (!key?.r?.legs || typeof key.i !== 'number') return undefined;
  return sandboxFares(key.r)[key.i];
}

export type SandboxOperation = 'search' | 'verify' | 'book' | 'retrieve';

/**
 * Failures a demo selects at run time through a traveler's last name (any traveler of the
 * booking): the leg job (or a re-booking) meets them when it books that leg.
 */
export const SANDBOX_NAME_SCENARIOS: Record<string, ProviderFailureKind> = {
  PRICECHANGE: 'price_change',
  EXPIRED: 'fare_expired',
  PROVIDERERROR: 'api_error',
  REJECTED: 'validation',
};

/**
 * A departure on this day of the month is sold at checkout but gone when the flights are booked:
 * searches for known travelers (after payment) answer other flights, so the leg finds no match.
 */
export const SANDBOX_NO_MATCH_DAY = 13;

/** The scenario a booking's travelers select, if any. */
export function nameScenario(passengers: { lastName: string }[]): ProviderFailureKind | undefined {
  for (const p of passengers) {
    const kind = SANDBOX_NAME_SCENARIOS[p.lastName.replace(/\s+/g, '').toUpperCase()];
    if (kind) return kind;
  }
  return undefined;
}

export interface SandboxOptions {
  /** make an operation fail with a given kind (demos, tests) */
  failures?: Partial<Record<SandboxOperation, ProviderFailureKind>>;
}

export class SandboxFlightProvider implements FlightProvider {
  readonly name = 'sandbox';
  readonly requiredTravelerFields: readonly ExtraTravelerField[] = [];
  constructor(private readonly options: SandboxOptions = {}) {}

  /** changes the configured failures (tests and demos switch them at run time) */
  setFailure(op: SandboxOperation, kind: ProviderFailureKind | undefined): void {
    this.options.failures = { ...this.options.failures, [op]: kind };
  }

  private failIfConfigured(op: SandboxOperation, fareId?: string, selected?: ProviderFailureKind): void {
    const kind = selected ?? this.options.failures?.[op];
    if (!kind) return;
    if (kind === 'price_change') {
      const fare = fareId ? fareFromId(fareId) : undefined;
      const total = fare?.totalCents ?? 0;
      throw new FlightProviderError('price_change', `Sandbox ${op}: the fare price changed`, {
        fare_id: fareId,
        original_price: total / 100,
        new_price: (total + Math.round(total / 10)) / 100,
        currency: fare?.currency,
      });
    }
    const details =
      kind === 'api_error'
        ? { provider_errors: [{ code: 'SANDBOX', message: `configured ${op} failure` }] }
        : kind === 'validation'
          ? { validation_errors: [{ field: 'passengers', message: 'configured validation failure' }] }
          : kind === 'fare_expired'
            ? { fare_id: fareId, expired_at: '2000-01-01T00:00:00.000Z' }
            : { fare_id: fareId };
    throw new FlightProviderError(kind, `Sandbox ${op} failure (${kind})`, details);
  }

  async search(req: FlightSearchRequest): Promise<SearchResult> {
    this.failIfConfigured('search');
    const route = req.legs.map((l) => `${l.origin}-${l.destination}-${l.date}`).join('|');
    return { flowId: `sbx-${seedOf(`${route}:${req.cabin}:${req.pax}`).toString(16)}`, fares: sandboxFares(req) };
  }

  async verify(fareId: string, _flowId?: string): Promise<VerifiedFare> {
    const fare = fareFromId(fareId);
    if (!fare) {
      throw new FlightProviderError('fare_expired', 'Fare not found or expired', {
        fare_id: fareId,
        expired_at: new Date(0).toISOString(),
      });
    }
    this.failIfConfigured('verify', fareId);
    return { fareId, totalCents: fare.totalCents, currency: fare.currency };
  }

  async book(req: BookFareRequest): Promise<Reservation> {
    const fare = fareFromId(req.fareId);
    if (!fare) throw new FlightProviderError('booking_failed', 'Fare not found', { fare_id: req.fareId });
    this.failIfConfigured('book', req.fareId, nameScenario(req.passengers));
    return this.reservation(`SBXR.${encode({ f: req.fareId, r: req.reference, n: req.passengers.length })}`, fare);
  }

  async retrieve(reservationId: string): Promise<Reservation> {
    this.failIfConfigured('retrieve');
    const key = reservationId.startsWith('SBXR.') ? decode<{ f: string }>(reservationId.slice(5)) : undefined;
    const fare = key ? fareFromId(key.f) : undefined;
    if (!fare) {
      throw new FlightProviderError('api_error', 'Reservation not found', {
        provider_errors: [{ code: 'NOT_FOUND', message: 'Reservation not found' }],
      });
    }
    return this.reservation(reservationId, fare);
  }

  /** The sandbox keeps no orders: a booking made before a crash is not found (and costs nothing). */
  async findBooking(): Promise<Reservation | null> {
    this.failIfConfigured('retrieve');
    return null;
  }

  /** Like Duffel: a cancellation quote confirmed at once; the airline refunds the whole fare. */
  async cancelOrder(reservationId: string): Promise<OrderCancellation> {
    const order = await this.retrieve(reservationId);
    return {
      cancellationId: `SBXC.${createHash('sha256').update(reservationId).digest('hex').slice(0, 16)}`,
      refundCents: order.totalCents,
      currency: order.currency,
      refundTo: 'balance',
      confirmedAt: new Date().toISOString(),
    };
  }

  private reservation(reservationId: string, fare: Fare): Reservation {
    const pnr = createHash('sha256').update(reservationId).digest('hex').slice(0, 6).toUpperCase();
    return {
      reservationId,
      pnr,
      status: 'CONFIRMED',
      totalCents: fare.totalCents,
      currency: fare.currency,
      details: { legs: fare.legs.map((l) => ({ flight_numbers: l.flightNumbers, departure_date: l.departureDate })) },
    };
  }
}
