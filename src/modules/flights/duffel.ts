/// <reference types="@duffel/api" />
// The flight provider on Duffel's Flights API (https://duffel.com/docs/api): offer requests as
// the search, offer retrieval as the verify step, orders (paid from the Duffel balance) as the
// booking, order retrieval for the reservation details, and the order list to find a booking
// made earlier for one leg. A thin fetch client typed from the official SDK's declarations
// (`@duffel/api`, types only): the SDK takes no AbortSignal and no time-out, and a call the leg
// job's time-out cannot stop would keep booking seats nobody waits for (docs/decisions.md).
import type {
  ApiResponseError,
  CreateOfferRequest,
  CreateOrder,
  CreateOrderPassenger,
  Offer,
  OfferRequest,
  OfferSlice,
  Order,
} from '@duffel/api/types';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { toCents } from '../../platform/money.js';
import { convertTo, type RatesPerEur } from '../checkout/rules.js';
import {
  type BookFareRequest,
  type BookingPassenger,
  type CallOptions,
  type ExtraTravelerField,
  type Fare,
  type FareLeg,
  type FlightProvider,
  FlightProviderError,
  type FlightSearchRequest,
  type LegBookingKey,
  type OrderCancellation,
  type Reservation,
  type SearchPassenger,
  type SearchResult,
  type VerifiedFare,
} from './provider.js';
import { passengerTypeOn } from './rules.js';

/** The API version the SDK (4.x) sends in `Duffel-Version`. */
export const DUFFEL_VERSION = 'v2';
export const DUFFEL_DEFAULT_URL = 'https://api.duffel.com';
/** metadata keys naming our booking and leg on an order */
export const ORDER_METADATA = { reference: 'itinera_booking', leg: 'itinera_leg' } as const;
/** pages of the order list read when looking for an earlier order (200 orders a page) */
const ORDER_LIST_PAGES = 5;
/**
 * Duffel lets an order creation run up to 120 s at the airline and recommends a client time-out
 * a little above it (https://duffel.com/docs/api/overview/response-times).
 */
export const ORDER_TIMEOUT_MS = 130_000;
/** pause between two looks at an order Duffel accepted (202) but has not confirmed yet */
const ORDER_POLL_MS = 2_000;

export interface DuffelOptions {
  baseUrl?: string;
  token: string;
  /** time-out of one search, offer or order look-up in ms; the job's signal may stop it earlier */
  timeoutMs?: number;
  /** time-out of the order creation (Duffel's guidance: 130 s) */
  orderTimeoutMs?: number;
  /** pause between looks at an accepted (202) order */
  orderPollMs?: number;
  /** the clock deciding whether an offer has expired */
  now?: () => Date;
  /**
   * Today's exchange rates (units per EUR): offers in the organisation's billing currency are
   * converted to the market's with them. Without it, offers in another currency are dropped.
   */
  rates?: () => Promise<RatesPerEur>;
}

/** Duffel's order cancellation (the fields we read). */
interface DuffelOrderCancellation {
  id: string;
  order_id: string;
  refund_amount: string | null;
  refund_currency: string | null;
  refund_to: string | null;
  confirmed_at: string | null;
}

type Operation = 'search' | 'verify' | 'book' | 'retrieve' | 'find' | 'cancel';

interface DuffelFailureBody {
  errors?: ApiResponseError[];
  meta?: { status?: number; request_id?: string };
}

/** ISO 8601 duration (PT14H35M, P1DT2H5M) in minutes; 0 when absent or unreadable. */
export function durationMinutes(iso: string | null | undefined): number {
  const m = iso ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(iso) : null;
  if (!m) return 0;
  return Number(m[1] ?? 0) * 1440 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** Whole days between two local dates (YYYY-MM-DD...). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to.slice(0, 10)) - Date.parse(from.slice(0, 10))) / 86_400_000);
}

function legOf(slice: OfferSlice): FareLeg {
  const segments = slice.segments;
  const first = segments[0];
  const last = segments[segments.length - 1];
  const airlines = new Map<string, string>();
  const code = (c: { iata_code: string | null }) => c.iata_code ?? '';
  for (const s of segments) airlines.set(code(s.marketing_carrier), s.marketing_carrier.name);
  // technical stops inside a segment count as stops too, but only connections change planes
  const technical = segments.reduce((n, s) => n + (s.stops?.length ?? 0), 0);
  return {
    origin: code(first.origin),
    destination: code(last.destination),
    departureDate: first.departing_at.slice(0, 10),
    departureTime: first.departing_at.slice(11, 16),
    arrivalTime: last.arriving_at.slice(11, 16),
    arrivalDayOffset: daysBetween(first.departing_at, last.arriving_at),
    durationMinutes: durationMinutes(slice.duration),
    flightNumbers: segments.map((s) => `${code(s.marketing_carrier)}${s.marketing_carrier_flight_number}`),
    airlines: [...airlines].map(([code, name]) => ({ code, name })),
    stops: segments.length - 1 + technical,
    stopoverAirports: segments.slice(0, -1).map((s) => code(s.destination)),
  };
}

/**
 * One Duffel offer as our fare: all slices, the total for every passenger. With `converted` (the
 * total in the market's currency), the offer's own total is kept as what Duffel bills.
 */
export function fareOfOffer(
  offer: Omit<Offer, 'available_services'>,
  cabin: Fare['cabin'],
  converted?: { totalCents: number; currency: string },
): Fare {
  const checkedBag = (slice: OfferSlice) =>
    slice.segments.every((s) =>
      s.passengers.every((p) => p.baggages.some((b) => b.type === 'checked' && b.quantity > 0)),
    );
  const own = { totalCents: toCents(offer.total_amount), currency: offer.total_currency };
  return {
    id: offer.id,
    cabin,
    ...(converted && converted.currency !== own.currency ? { ...converted, billed: own } : own),
    baggageIncluded: offer.slices.length > 0 && offer.slices.every(checkedBag),
    legs: offer.slices.map(legOf),
  };
}

function reservationOf(order: Order): Reservation {
  const tickets = (order.documents ?? []).filter((d) => d.type === 'electronic_ticket').map((d) => d.unique_identifier);
  const status = order.cancelled_at ? 'CANCELLED' : tickets.length > 0 ? 'TICKETED' : 'CONFIRMED';
  return {
    reservationId: order.id,
    pnr: order.booking_reference,
    status,
    totalCents: toCents(order.total_amount),
    currency: order.total_currency,
    details: {
      tickets,
      owner: order.owner?.iata_code ?? null,
      metadata: order.metadata ?? {},
      slices: (order.slices ?? []).map((s) => ({
        origin: s.origin?.iata_code,
        destination: s.destination?.iata_code,
        segments: (s.segments ?? []).map((g) => ({
          flight_number: `${g.marketing_carrier?.iata_code ?? ''}${g.marketing_carrier_flight_number ?? ''}`,
          departing_at: g.departing_at,
          arriving_at: g.arriving_at,
        })),
      })),
    },
  };
}

/** `ratelimit-reset` as seconds from now: an HTTP date, epoch seconds or a delay; at least 1. */
export function secondsUntilReset(header: string | null, now: Date): number {
  if (!header) return 60;
  const n = Number(header);
  let seconds: number;
  if (Number.isFinite(n)) seconds = n > 1_000_000_000 ? n - now.getTime() / 1000 : n;
  else {
    const at = Date.parse(header);
    seconds = Number.isNaN(at) ? 60 : (at - now.getTime()) / 1000;
  }
  return Math.max(1, Math.ceil(seconds));
}

/** Duffel's passenger of an offer request: adults by type, everyone under 18 by age. */
export function offerRequestPassenger(p: SearchPassenger): { type: 'adult' } | { age: number } {
  return p.type === 'adult' ? { type: 'adult' } : { age: p.age };
}

/**
 * The phone as Duffel takes it (E.164). The traveler step stores it so; a booking paid before
 * that rule is read with the passenger's nationality as its country, and refused before any
 * order is attempted when it is still no valid number.
 */
function e164(p: BookingPassenger, index: number): string {
  const parsed = parsePhoneNumberFromString(p.phone, { defaultCountry: p.nationality as never });
  if (!parsed?.isValid()) {
    throw new FlightProviderError('validation', `Passenger ${index + 1}'s phone is not a valid international number`, {
      validation_errors: [
        { field: `passengers.${index}.phone_number`, message: 'The phone must be in E.164 format (e.g. +34612345678)' },
      ],
    });
  }
  return parsed.number;
}

function passengerOf(
  p: BookingPassenger,
  index: number,
  id: string,
  documentRequired: boolean,
  infantId: string | null,
): CreateOrderPassenger & { identity_documents?: unknown[] } {
  if (!p.title || !p.gender) {
    throw new FlightProviderError('validation', 'Duffel orders need each passenger title and gender', {
      validation_errors: [{ field: 'passengers', message: 'title and gender are required by the flight provider' }],
    });
  }
  return {
    id,
    title: p.title,
    gender: p.gender,
    given_name: p.firstName,
    family_name: p.lastName,
    born_on: p.birthDate,
    email: p.email,
    phone_number: e164(p, index),
    // an infant on a lap travels with one adult: Duffel links them on the adult
    ...(infantId ? { infant_passenger_id: infantId } : {}),
    ...(documentRequired
      ? {
          identity_documents: [
            {
              type: 'passport',
              unique_identifier: p.passportNumber,
              issuing_country_code: p.nationality,
              expires_on: p.passportExpiry,
            },
          ],
        }
      : {}),
  };
}

export class DuffelFlightProvider implements FlightProvider {
  readonly name = 'duffel';
  // Duffel refuses orders whose phone_number is not E.164: the traveler step normalizes it
  readonly requiredTravelerFields: readonly ExtraTravelerField[] = ['title', 'gender', 'phone_e164'];
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly orderTimeoutMs: number;
  private readonly orderPollMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: DuffelOptions) {
    this.baseUrl = (options.baseUrl || DUFFEL_DEFAULT_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.orderTimeoutMs = options.orderTimeoutMs ?? ORDER_TIMEOUT_MS;
    this.orderPollMs = options.orderPollMs ?? ORDER_POLL_MS;
    this.now = options.now ?? (() => new Date());
  }

  async search(req: FlightSearchRequest, opts: CallOptions = {}): Promise<SearchResult> {
    const passengers = req.passengers ?? Array.from({ length: req.pax }, () => ({ type: 'adult' as const }));
    const body = {
      slices: req.legs.map((l) => ({
        origin: l.origin,
        destination: l.destination,
        departure_date: l.date,
        departure_time: null,
        arrival_time: null,
      })),
      passengers: passengers.map(offerRequestPassenger),
      cabin_class: req.cabin === 'BUSINESS' ? 'business' : 'economy',
    } as CreateOfferRequest;
    // Duffel answers with the offers the airlines sent within supplier_timeout: keep it under ours
    const supplierTimeout = Math.min(60_000, Math.max(2_000, this.timeoutMs - 2_000));
    const result = await this.call<OfferRequest>(
      'search',
      'POST',
      `/air/offer_requests?return_offers=true&supplier_timeout=${supplierTimeout}`,
      opts,
      body,
    );
    const offers = this.parsed('search', () => {
      if (!Array.isArray(result.offers)) throw new TypeError('offers is not a list');
      return result.offers.filter((o) => o.slices.length === req.legs.length);
    });
    // offers come in the organisation's billing currency: shown and matched in the market's
    const foreign = offers.some((o) => o.total_currency !== req.currency);
    const rates = foreign && this.options.rates ? await this.options.rates() : null;
    const fares: Fare[] = [];
    for (const o of offers) {
      if (o.total_currency === req.currency) {
        fares.push(fareOfOffer(o, req.cabin));
        continue;
      }
      const cents = rates ? convertTo(toCents(o.total_amount), o.total_currency, req.currency, rates) : null;
      if (cents !== null) fares.push(fareOfOffer(o, req.cabin, { totalCents: cents, currency: req.currency }));
    }
    return { flowId: String(result.id), fares };
  }

  /** The offer as Duffel prices it now, in its own (billing) currency. */
  async verify(fareId: string, _flowId: string, opts: CallOptions = {}): Promise<VerifiedFare> {
    const offer = await this.offer('verify', fareId, opts);
    return this.parsed('verify', () => {
      const own = { totalCents: toCents(offer.total_amount), currency: offer.total_currency };
      return { fareId: offer.id, ...own, billed: own };
    });
  }

  async book(req: BookFareRequest, opts: CallOptions = {}): Promise<Reservation> {
    const offer = await this.offer('book', req.fareId, opts);
    const passengers = this.orderPassengers(offer, req);
    const body: CreateOrder = {
      type: 'instant',
      selected_offers: [offer.id],
      passengers,
      payments: [{ type: 'balance', amount: offer.total_amount, currency: offer.total_currency }],
      metadata: { [ORDER_METADATA.reference]: req.reference, [ORDER_METADATA.leg]: String(req.legIndex) },
    };
    try {
      const { data: order, status } = await this.callWithMeta<Order>(
        'book',
        'POST',
        '/air/orders',
        opts,
        body,
        req.fareId,
      );
      if (!order) {
        throw new FlightProviderError('api_error', 'Duffel book answered without data', {
          provider_errors: [{ code: 'MALFORMED_RESPONSE', message: 'no data' }],
          outcome_unknown: true,
        });
      }
      // 202 Accepted: the airline has not confirmed yet; the order is followed until it has
      const confirmed = status === 202 ? await this.confirmed(order.id, req.fareId, opts) : order;
      return this.parsed('book', () => reservationOf(confirmed));
    } catch (err) {
      if (err instanceof FlightProviderError && err.kind === 'price_change') {
        // the order error names no price: the offer, fetched again, carries the new one
        err.details.original_price = toCents(offer.total_amount) / 100;
        err.details.currency = offer.total_currency;
        const again = await this.offer('book', req.fareId, opts).catch(() => null);
        if (again) err.details.new_price = toCents(again.total_amount) / 100;
      }
      throw err;
    }
  }

  /**
   * Our travelers on the offer's passengers: adults on adults, children on children (in the
   * order given), each infant on a lap linked to one adult (Duffel's infant_passenger_id).
   */
  private orderPassengers(offer: Offer, req: BookFareRequest): CreateOrderPassenger[] {
    const kinds = (type: string) => offer.passengers.filter((p) => (p.type ?? 'adult') === type);
    const finalDate = (offer.slices.at(-1)?.segments[0]?.departing_at ?? '').slice(0, 10);
    const ours = req.passengers.map((p, index) => ({ p, index, type: passengerTypeOn(p.birthDate, finalDate).type }));
    const mine = (type: string) => ours.filter((o) => o.type === type);
    const wrong = ['adult', 'child', 'infant_without_seat'].filter((t) => kinds(t).length !== mine(t).length);
    if (wrong.length > 0 || offer.passengers.length !== req.passengers.length) {
      throw new FlightProviderError(
        'validation',
        `The offer's passengers (${offer.passengers.length}) are not the booking's (${req.passengers.length}) by type`,
        {
          fare_id: req.fareId,
          validation_errors: [{ field: 'passengers', message: `passenger types differ: ${wrong.join(', ')}` }],
        },
      );
    }
    const documents = offer.passenger_identity_documents_required;
    const infants = kinds('infant_without_seat');
    const out: CreateOrderPassenger[] = [];
    for (const type of ['adult', 'child', 'infant_without_seat']) {
      kinds(type).forEach((op, i) => {
        const { p, index } = mine(type)[i];
        const infant = type === 'adult' ? (infants[i]?.id ?? null) : null;
        out.push(passengerOf(p, index, op.id, documents, infant) as CreateOrderPassenger);
      });
    }
    return out;
  }

  /** Follows an accepted order until the airline confirmed it (booking reference) or it failed. */
  private async confirmed(orderId: string, fareId: string, opts: CallOptions): Promise<Order> {
    const deadline = Date.now() + this.orderTimeoutMs;
    for (;;) {
      let order: Order;
      try {
        order = await this.call<Order>('retrieve', 'GET', `/air/orders/${encodeURIComponent(orderId)}`, opts);
      } catch (err) {
        if (
          err instanceof FlightProviderError &&
          err.details.provider_errors?.some((e) => (e as { code?: string }).code === 'not_found')
        ) {
          throw new FlightProviderError('booking_failed', `Duffel did not create the accepted order ${orderId}`, {
            fare_id: fareId,
            provider_errors: err.details.provider_errors,
          });
        }
        throw err;
      }
      if (order.cancelled_at) {
        throw new FlightProviderError('booking_failed', `The airline refused the accepted order ${orderId}`, {
          fare_id: fareId,
          provider_errors: [{ code: 'order_cancelled', message: `cancelled at ${order.cancelled_at}` }],
        });
      }
      if (order.booking_reference) return order;
      if (Date.now() + this.orderPollMs > deadline || opts.signal?.aborted) {
        // still pending: the next run finds it by its metadata before booking anything
        throw new FlightProviderError('timeout', `Duffel has not confirmed order ${orderId} yet`, {
          fare_id: fareId,
          outcome_unknown: true,
        });
      }
      await new Promise((r) => setTimeout(r, this.orderPollMs));
    }
  }

  async retrieve(reservationId: string, opts: CallOptions = {}): Promise<Reservation> {
    const order = await this.call<Order>('retrieve', 'GET', `/air/orders/${encodeURIComponent(reservationId)}`, opts);
    return this.parsed('retrieve', () => reservationOf(order));
  }

  /**
   * The order of this leg, found by our booking reference and leg in its metadata. The order
   * list cannot filter on metadata and its name filter need not match our spelling of a name
   * (an operator may have corrected it since), so the newest orders are read page by page.
   */
  async findBooking(key: LegBookingKey, opts: CallOptions = {}): Promise<Reservation | null> {
    let after: string | undefined;
    for (let page = 0; page < ORDER_LIST_PAGES; page++) {
      const query = new URLSearchParams({ limit: '200' });
      if (after) query.set('after', after);
      const { data, meta } = await this.callWithMeta<Order[]>('find', 'GET', `/air/orders?${query}`, opts);
      const found = (Array.isArray(data) ? data : []).find(
        (o) =>
          o.metadata?.[ORDER_METADATA.reference] === key.reference &&
          o.metadata?.[ORDER_METADATA.leg] === String(key.legIndex) &&
          !o.cancelled_at,
      );
      if (found) return reservationOf(found);
      after = (meta as { after?: string | null } | undefined)?.after ?? undefined;
      if (!after) return null;
    }
    return null;
  }

  async cancelOrder(reservationId: string, opts: CallOptions = {}): Promise<OrderCancellation> {
    // the quote first (refund_amount, refund_to), then its confirmation: the order is cancelled
    const quote = await this.call<DuffelOrderCancellation>('cancel', 'POST', '/air/order_cancellations', opts, {
      order_id: reservationId,
    });
    const done = await this.call<DuffelOrderCancellation>(
      'cancel',
      'POST',
      `/air/order_cancellations/${encodeURIComponent(quote.id)}/actions/confirm`,
      opts,
    );
    return this.parsed('cancel', () => ({
      cancellationId: done.id,
      refundCents: toCents(done.refund_amount ?? '0'),
      currency: done.refund_currency ?? '',
      refundTo: done.refund_to ?? null,
      confirmedAt: done.confirmed_at ?? null,
    }));
  }

  private async offer(op: Operation, fareId: string, opts: CallOptions): Promise<Offer> {
    const offer = await this.call<Offer>(
      op,
      'GET',
      `/air/offers/${encodeURIComponent(fareId)}`,
      opts,
      undefined,
      fareId,
    );
    if (offer?.expires_at && Date.parse(offer.expires_at) <= this.now().getTime()) {
      throw new FlightProviderError('fare_expired', `Offer ${fareId} expired at ${offer.expires_at}`, {
        fare_id: fareId,
        expired_at: offer.expires_at,
      });
    }
    return offer;
  }

  /** A 2xx body that is not Duffel's shape is a provider error like a 5xx, not a crash. */
  private parsed<T>(op: Operation, read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (err instanceof FlightProviderError) throw err;
      const message = (err as Error).message;
      throw new FlightProviderError('api_error', `Duffel ${op} answered an unexpected body: ${message}`, {
        provider_errors: [{ code: 'MALFORMED_RESPONSE', message }],
      });
    }
  }

  private async call<T>(
    op: Operation,
    method: string,
    path: string,
    opts: CallOptions,
    body?: unknown,
    fareId?: string,
  ): Promise<T> {
    const { data } = await this.callWithMeta<T>(op, method, path, opts, body, fareId);
    if (data === undefined || data === null) {
      throw new FlightProviderError('api_error', `Duffel ${op} answered without data`, {
        provider_errors: [{ code: 'MALFORMED_RESPONSE', message: 'no data' }],
      });
    }
    return data;
  }

  private async callWithMeta<T>(
    op: Operation,
    method: string,
    path: string,
    opts: CallOptions,
    body?: unknown,
    fareId?: string,
  ): Promise<{ data: T; meta?: unknown; status: number }> {
    const limit = op === 'book' && method === 'POST' ? this.orderTimeoutMs : this.timeoutMs;
    const signals = [AbortSignal.timeout(limit), ...(opts.signal ? [opts.signal] : [])];
    // a booking whose answer never came may exist at Duffel: the job looks for it before booking again
    const unknownOutcome = op === 'book' ? { outcome_unknown: true } : {};
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'duffel-version': DUFFEL_VERSION,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify({ data: body }) : undefined,
        signal: AbortSignal.any(signals),
      });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        const why = opts.signal?.aborted ? 'was stopped by its deadline' : `timed out after ${limit} ms`;
        throw new FlightProviderError('timeout', `Duffel ${op} ${why}`, { fare_id: fareId, ...unknownOutcome });
      }
      throw new FlightProviderError('api_error', `Duffel ${op} unreachable: ${(err as Error).message}`, {
        fare_id: fareId,
        provider_errors: [{ code: 'NETWORK', message: (err as Error).message }],
        ...unknownOutcome,
      });
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new FlightProviderError('timeout', `Duffel ${op} stopped while reading the answer`, {
        fare_id: fareId,
        ...unknownOutcome,
      });
    }
    let json: Record<string, unknown> | undefined;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      json = undefined;
    }
    if (res.ok) {
      if (!json) {
        throw new FlightProviderError('api_error', `Duffel ${op} answered non-JSON`, {
          provider_errors: [{ code: 'MALFORMED_RESPONSE', message: text.slice(0, 200) }],
        });
      }
      return { data: json.data as T, meta: json.meta, status: res.status };
    }
    throw this.failure(op, res, (json ?? {}) as DuffelFailureBody, fareId);
  }

  private failure(op: Operation, res: Response, body: DuffelFailureBody, fareId?: string): FlightProviderError {
    const status = body.meta?.status ?? res.status;
    const errors = Array.isArray(body.errors) ? body.errors : [];
    const providerErrors = errors.length
      ? errors.map((e) => ({ type: e.type, code: e.code, title: e.title, message: e.message }))
      : [{ code: `HTTP_${res.status}`, message: res.statusText }];
    const codes = new Set(errors.map((e) => e.code));
    const message = errors[0]?.message ?? errors[0]?.title ?? `HTTP ${res.status}`;
    const requestId = body.meta?.request_id;
    const base = { fare_id: fareId, ...(requestId ? { request_id: requestId } : {}) };
    if (codes.has('price_changed')) {
      return new FlightProviderError('price_change', `Fare price changed: ${message}`, { ...base });
    }
    if (codes.has('offer_no_longer_available') || codes.has('offer_expired')) {
      return new FlightProviderError('fare_expired', `Fare no longer available: ${message}`, {
        ...base,
        expired_at: this.now().toISOString(),
      });
    }
    if (status === 429 || res.status === 429) {
      return new FlightProviderError('rate_limited', `Duffel ${op} rate limited: ${message}`, {
        ...base,
        retry_after: secondsUntilReset(res.headers.get('ratelimit-reset'), this.now()),
        provider_errors: providerErrors,
      });
    }
    if ((op === 'verify' || op === 'book') && res.status === 404) {
      return new FlightProviderError('fare_expired', `Offer not found: ${message}`, {
        ...base,
        expired_at: this.now().toISOString(),
      });
    }
    if (errors.some((e) => e.type === 'invalid_state_error') && (op === 'verify' || op === 'book')) {
      return new FlightProviderError(op === 'verify' ? 'verify_failed' : 'booking_failed', `Duffel ${op}: ${message}`, {
        ...base,
        provider_errors: providerErrors,
      });
    }
    if (status === 422 || errors.some((e) => e.type === 'validation_error')) {
      return new FlightProviderError('validation', `Duffel rejected the ${op} request: ${message}`, {
        ...base,
        validation_errors: errors.map((e) => ({
          code: e.code,
          message: e.message,
          ...((e as { source?: unknown }).source ? { source: (e as { source?: unknown }).source } : {}),
        })),
      });
    }
    // 500 and 502 on an order: Duffel says do not retry; the order may exist, so the job looks first
    const unknown = op === 'book' && (res.status === 500 || res.status === 502) ? { outcome_unknown: true } : {};
    return new FlightProviderError('api_error', `Duffel ${op} failed (HTTP ${res.status}): ${message}`, {
      ...base,
      provider_errors: providerErrors,
      ...unknown,
    });
  }
}
