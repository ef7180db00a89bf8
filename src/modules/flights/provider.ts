// The flight provider port: search (round trip, multi-city, one-way) with cabin and passengers,
// verify a fare, book it, retrieve the reservation. Adapters: the deterministic sandbox
// (embedded default) and the HTTP provider. Money is integer cents in the fare's currency.

export type CabinClass = 'ECONOMY' | 'BUSINESS';
export type TripType = 'ROUND_TRIP' | 'MULTI_CITY' | 'ONE_WAY';

export interface SearchLeg {
  origin: string;
  destination: string;
  /** YYYY-MM-DD */
  date: string;
}

export interface FlightSearchRequest {
  tripType: TripType;
  cabin: CabinClass;
  /** passengers (adults) */
  pax: number;
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

export interface Fare {
  id: string;
  cabin: CabinClass;
  /** total for all passengers, in cents */
  totalCents: number;
  currency: string;
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
}

export interface BookingPassenger {
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
  passengers: BookingPassenger[];
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
  search(req: FlightSearchRequest): Promise<SearchResult>;
  /** re-prices the fare; throws price_change / fare_expired when it moved or lapsed */
  verify(fareId: string, flowId: string): Promise<VerifiedFare>;
  book(req: BookFareRequest): Promise<Reservation>;
  retrieve(reservationId: string): Promise<Reservation>;
}

export type ProviderFailureKind =
  | 'timeout'
  | 'api_error'
  | 'validation'
  | 'price_change'
  | 'fare_expired'
  | 'verify_failed'
  | 'booking_failed';

export interface ProviderFailureDetails {
  fare_id?: string;
  original_price?: number;
  new_price?: number;
  currency?: string;
  expired_at?: string;
  validation_errors?: unknown[];
  provider_errors?: unknown[];
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
