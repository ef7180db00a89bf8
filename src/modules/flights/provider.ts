// The flight provider port: search (round trip, multi-city, one-way) with cabin and passengers,
// verify a fare, book it, retrieve the reservation, and find a booking made earlier for one leg
// (after a time-out or a crash). Adapters: the deterministic sandbox (embedded default) and
// Duffel. Money is integer cents in the fare's currency. Every call takes an AbortSignal: the
// leg job's time-out (and the caller's own deadline) stops it.

export type CabinClass = 'ECONOMY' | 'BUSINESS';
export type TripType = 'ROUND_TRIP' | 'MULTI_CITY' | 'ONE_WAY';

export interface SearchLeg {
  origin: string;
  destination: string;
  /** YYYY-MM-DD */
  date: string;
}

/**
 * One passenger of a search as airlines price it: adults, children with their age, infants on a
 * lap (under 2). Unknown birth dates (before the traveler step) search adults.
 */
export type SearchPassenger =
  | { type: 'adult' }
  | { type: 'child'; age: number }
  | { type: 'infant_without_seat'; age: number };

export interface FlightSearchRequest {
  tripType: TripType;
  cabin: CabinClass;
  /** passengers */
  pax: number;
  /** the passengers' types when their birth dates are known (the leg job); else pax adults */
  passengers?: SearchPassenger[];
  /** one leg for ONE_WAY, two for ROUND_TRIP and MULTI_CITY (outbound, inbound) */
  legs: SearchLeg[];
  currency: string;
}

export interface Airline {
  code: string;
  name: string;
}

/** One direction of a fare (outbound, inbound, or the single leg of a one-way fare). */
export interface FareLeg {
  origin: string;
  destination: string;
  departureDate: string;
  /** HH:MM local */
  departureTime: string;
  arrivalTime: string;
  /** days between departure and arrival date (0 same day) */
  arrivalDayOffset: number;
  durationMinutes: number;
  flightNumbers: string[];
  airlines: Airline[];
  stops: number;
  stopoverAirports: string[];
}

/** What the provider bills in its own currency (Duffel: the organisation's billing currency). */
export interface BilledAmount {
  totalCents: number;
  currency: string;
}

export interface Fare {
  id: string;
  cabin: CabinClass;
  /** total for all passengers, in cents of the market's currency (converted at today's rate) */
  totalCents: number;
  currency: string;
  /** the provider's own total when it bills in another currency than the market's */
  billed?: BilledAmount;
  baggageIncluded: boolean;
  legs: FareLeg[];
}

export interface SearchResult {
  /** provider flow id tying verify/book to this search */
  flowId: string;
  fares: Fare[];
}

export interface VerifiedFare {
  fareId: string;
  totalCents: number;
  currency: string;
  billed?: BilledAmount;
}

/** Titles and genders as Duffel's orders take them. */
export type PassengerTitle = 'mr' | 'ms' | 'mrs' | 'miss' | 'dr';
export type PassengerGender = 'm' | 'f';

/** Traveler fields beyond the spec's that a provider needs to book (see requiredTravelerFields). */
export type ExtraTravelerField = 'title' | 'gender' | 'phone_e164';

export interface BookingPassenger {
  title?: PassengerTitle | null;
  gender?: PassengerGender | null;
  firstName: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  passportNumber: string;
  passportExpiry: string;
  email: string;
  phone: string;
}

export interface BookFareRequest {
  fareId: string;
  flowId: string;
  /** the booking reference, sent so the provider's records can be traced back */
  reference: string;
  /** the leg of the booking; with the reference it names the booking at the provider */
  legIndex: number;
  passengers: BookingPassenger[];
}

/** What names one leg's booking at the provider: our reference and the leg (order metadata). */
export interface LegBookingKey {
  reference: string;
  legIndex: number;
  /** the lead passenger's names, to narrow the provider's order list */
  leadPassenger: { firstName: string; lastName: string };
}

export interface CallOptions {
  /** aborts the call (the job's time-out); the adapter adds its own per-call time-out */
  signal?: AbortSignal;
}

export interface Reservation {
  reservationId: string;
  pnr: string;
  status: string;
  totalCents: number;
  currency: string;
  /** provider payload kept for the record (tickets, segments) */
  details: Record<string, unknown>;
}

export interface FlightProvider {
  readonly name: string;
  /** traveler fields the provider needs on top of the spec's (the traveler step requires them) */
  readonly requiredTravelerFields: readonly ExtraTravelerField[];
  search(req: FlightSearchRequest, opts?: CallOptions): Promise<SearchResult>;
  /** re-prices the fare; throws price_change / fare_expired when it moved or lapsed */
  verify(fareId: string, flowId: string, opts?: CallOptions): Promise<VerifiedFare>;
  book(req: BookFareRequest, opts?: CallOptions): Promise<Reservation>;
  retrieve(reservationId: string, opts?: CallOptions): Promise<Reservation>;
  /**
   * The booking made earlier for this leg, if any: asked before booking again after an unclear
   * outcome (time-out, 5xx, a worker killed between "order created" and "record stored").
   */
  findBooking(key: LegBookingKey, opts?: CallOptions): Promise<Reservation | null>;
  /**
   * Cancels an order: the provider's cancellation quote, then its confirmation (Duffel: POST
   * /air/order_cancellations, then /actions/confirm). The airline's refund goes to the provider
   * balance; the customer's refund is ours to make.
   */
  cancelOrder(reservationId: string, opts?: CallOptions): Promise<OrderCancellation>;
}

export interface OrderCancellation {
  cancellationId: string;
  refundCents: number;
  currency: string;
  /** where the airline refund went: balance, original_form_of_payment, airline_credits, voucher */
  refundTo: string | null;
  confirmedAt: string | null;
}

export type ProviderFailureKind =
  | 'timeout'
  | 'api_error'
  | 'validation'
  | 'price_change'
  | 'fare_expired'
  | 'verify_failed'
  | 'booking_failed'
  /** 429: try again after details.retry_after seconds (the job releases, no try used) */
  | 'rate_limited';

export interface ProviderFailureDetails {
  fare_id?: string;
  original_price?: number;
  new_price?: number;
  currency?: string;
  expired_at?: string;
  validation_errors?: unknown[];
  provider_errors?: unknown[];
  /** seconds until the provider's rate limit resets (rate_limited) */
  retry_after?: number;
  /** a booking call whose result is unknown (time-out, 500/502): it may exist at the provider */
  outcome_unknown?: boolean;
}

/** A classified provider failure; `details` feed the booking's failure metadata. */
export class FlightProviderError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly details: ProviderFailureDetails = {},
  ) {
    super(message);
    this.name = 'FlightProviderError';
  }
}
