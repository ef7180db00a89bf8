// Flight provider over HTTP (JSON). The wire format is documented in docs/decisions.md
// ("Flights and payments"); every call has a time-out and its failures are classified into the
// provider failure kinds the booking job records.

import { toCents } from '../../platform/money.js';
import {
  type BookFareRequest,
  type CabinClass,
  type CallOptions,
  type ExtraTravelerField,
  type Fare,
  type FlightProvider,
  FlightProviderError,
  type FlightSearchRequest,
  type ProviderFailureKind,
  type Reservation,
  type SearchResult,
  type VerifiedFare,
} from './provider.js';

export interface HttpProviderOptions {
  baseUrl: string;
  token: string;
  /** time-out of one call in ms (search is the slow one) */
  timeoutMs?: number;
}

interface WireLeg {
  origin: string;
  destination: string;
  departure_date: string;
  departure_time: string;
  arrival_time: string;
  arrival_day_offset?: number;
  duration_minutes?: number;
  flight_numbers: string[];
  airlines: { code: string; name: string }[];
  stops: number;
  stopover_airports?: string[];
}

interface WireFare {
  fare_id: string;
  cabin_class: CabinClass;
  total_price: string | number;
  currency: string;
  baggage_included: boolean;
  legs: WireLeg[];
}

interface WireReservation {
  reservation_id: string;
  pnr: string;
  status: string;
  total_price: string | number;
  currency: string;
  [key: string]: unknown;
}

type Operation = 'search' | 'verify' | 'book' | 'retrieve';

function fareOf(w: WireFare): Fare {
  return {
    id: w.fare_id,
    cabin: w.cabin_class,
    totalCents: toCents(String(w.total_price)),
    currency: w.currency,
    baggageIncluded: Boolean(w.baggage_included),
    legs: (w.legs ?? []).map((l) => ({
      origin: l.origin,
      destination: l.destination,
      departureDate: l.departure_date,
      departureTime: l.departure_time,
      arrivalTime: l.arrival_time,
      arrivalDayOffset: l.arrival_day_offset ?? 0,
      durationMinutes: l.duration_minutes ?? 0,
      flightNumbers: l.flight_numbers ?? [],
      airlines: l.airlines ?? [],
      stops: l.stops ?? 0,
      stopoverAirports: l.stopover_airports ?? [],
    })),
  };
}

function reservationOf(w: WireReservation): Reservation {
  const { reservation_id, pnr, status, total_price, currency, ...rest } = w;
  return {
    reservationId: reservation_id,
    pnr,
    status,
    totalCents: toCents(String(total_price)),
    currency,
    details: rest,
  };
}

/**
 * Reads a 2xx body; one that is not the wire format (no fare list, a price that is not a number)
 * is a provider error like a 5xx, so the checkout falls back and the job retries, not a crash.
 */
function parsed<T>(op: Operation, read: () => T): T {
  try {
    return read();
  } catch (err) {
    const message = (err as Error).message;
    throw new FlightProviderError('api_error', `Flight provider ${op} answered an unexpected body: ${message}`, {
      provider_errors: [{ code: 'MALFORMED_RESPONSE', message }],
    });
  }
}

export class HttpFlightProvider implements FlightProvider {
  readonly name = 'http';
  readonly requiredTravelerFields: readonly ExtraTravelerField[] = [];
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpProviderOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async search(req: FlightSearchRequest, opts: CallOptions = {}): Promise<SearchResult> {
    const body = await this.call<{ flow_id: string; fares: WireFare[] }>(
      'search',
      'POST',
      '/v1/search',
      {
        trip_type: req.tripType,
        cabin_class: req.cabin,
        passengers: { adults: req.pax },
        currency: req.currency,
        legs: req.legs.map((l) => ({ origin: l.origin, destination: l.destination, departure_date: l.date })),
      },
      undefined,
      opts,
    );
    return parsed('search', () => {
      if (!Array.isArray(body.fares ?? [])) throw new TypeError('fares is not a list');
      return { flowId: String(body.flow_id ?? ''), fares: (body.fares ?? []).map(fareOf) };
    });
  }

  async verify(fareId: string, flowId: string, opts: CallOptions = {}): Promise<VerifiedFare> {
    const body = await this.call<{ fare_id: string; total_price: string | number; currency: string }>(
      'verify',
      'POST',
      `/v1/fares/${encodeURIComponent(fareId)}/verify`,
      { flow_id: flowId },
      fareId,
      opts,
    );
    return parsed('verify', () => ({
      fareId: body.fare_id ?? fareId,
      totalCents: toCents(String(body.total_price)),
      currency: body.currency,
    }));
  }

  async book(req: BookFareRequest, opts: CallOptions = {}): Promise<Reservation> {
    const body = await this.call<WireReservation>(
      'book',
      'POST',
      '/v1/bookings',
      {
        fare_id: req.fareId,
        flow_id: req.flowId,
        reference: req.reference,
        passengers: req.passengers.map((p) => ({
          first_name: p.firstName,
          last_name: p.lastName,
          birth_date: p.birthDate,
          nationality: p.nationality,
          passport_number: p.passportNumber,
          passport_expiry: p.passportExpiry,
          email: p.email,
          phone: p.phone,
        })),
      },
      req.fareId,
      opts,
    );
    return parsed('book', () => reservationOf(body));
  }

  async retrieve(reservationId: string, opts: CallOptions = {}): Promise<Reservation> {
    const body = await this.call<WireReservation>(
      'retrieve',
      'GET',
      `/v1/bookings/${encodeURIComponent(reservationId)}`,
      undefined,
      undefined,
      opts,
    );
    return parsed('retrieve', () => reservationOf(body));
  }

  /** The wire format has no order list: an earlier booking cannot be looked up. */
  async findBooking(): Promise<Reservation | null> {
    return null;
  }

  private async call<T>(
    op: Operation,
    method: string,
    path: string,
    body?: unknown,
    fareId?: string,
    opts: CallOptions = {},
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), ...(opts.signal ? [opts.signal] : [])]),
      });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new FlightProviderError('timeout', `Flight provider ${op} timed out after ${this.timeoutMs} ms`, {
          fare_id: fareId,
        });
      }
      throw new FlightProviderError('api_error', `Flight provider ${op} unreachable: ${(err as Error).message}`, {
        provider_errors: [{ code: 'NETWORK', message: (err as Error).message }],
      });
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      if (res.ok) throw new FlightProviderError('api_error', `Flight provider ${op} answered non-JSON`);
    }
    if (res.ok) return json as T;
    throw this.failure(op, res.status, json, fareId);
  }

  private failure(op: Operation, status: number, json: Record<string, unknown>, fareId?: string): FlightProviderError {
    const error = (json.error ?? {}) as Record<string, unknown>;
    const errors = Array.isArray(json.errors) ? json.errors : error.code ? [error] : [];
    const message = String(
      error.message ?? (errors[0] as { message?: string } | undefined)?.message ?? `HTTP ${status}`,
    );
    if (error.code === 'PRICE_CHANGED') {
      return new FlightProviderError('price_change', `Fare price changed: ${message}`, {
        fare_id: fareId,
        original_price: Number(error.original_price),
        new_price: Number(error.new_price),
        currency: String(error.currency ?? ''),
      });
    }
    if (error.code === 'FARE_EXPIRED' || status === 410) {
      return new FlightProviderError('fare_expired', `Fare expired: ${message}`, {
        fare_id: fareId,
        expired_at: error.expired_at ? String(error.expired_at) : undefined,
      });
    }
    if (status === 422) {
      return new FlightProviderError('validation', `Flight provider rejected the ${op} request: ${message}`, {
        fare_id: fareId,
        validation_errors: errors,
      });
    }
    if (status >= 500 || status === 429 || status === 401 || status === 403 || op === 'search' || op === 'retrieve') {
      return new FlightProviderError('api_error', `Flight provider ${op} failed: ${message}`, {
        fare_id: fareId,
        provider_errors: errors.length ? errors : [{ code: `HTTP_${status}`, message }],
      });
    }
    const kind: ProviderFailureKind = op === 'verify' ? 'verify_failed' : 'booking_failed';
    return new FlightProviderError(kind, `Flight provider ${op} failed: ${message}`, { fare_id: fareId });
  }
}
