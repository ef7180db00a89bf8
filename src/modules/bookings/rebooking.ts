// Admin re-booking of one leg that could not be matched (the fare moved, the flights changed):
// the admin searches the provider again for that leg (searchLegFares), picks one of the fares
// found and books it (rebookLeg). The new fare, its flights and the price difference against
// what the visitor paid for are recorded in the status transition's metadata. The console's
// booking page and the admin HTTP API call these two functions.
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { centsToNumber } from '../../platform/money.js';
import { flightBookingsOf, legAttempt, resetLegAttempts, saveRebookSearch } from '../flights/api.js';
import { flightJobs, LEG_JOB, legSearchRequest, type StoredFlightSelection } from '../flights/jobs.js';
import { type Fare, FlightProviderError } from '../flights/provider.js';
import { flightProvider } from '../flights/providers.js';
import { type FlightLeg, legTotalCents, perPerson, providerFailureMetadata, segmentOf } from '../flights/rules.js';
import { findBooking } from './repository.js';
import { BookingStatus, FLIGHT_BOOKABLE_STATUSES, legJobKey, unbookedLegs } from './rules.js';
import { transition } from './status.js';

/** A leg can be re-booked while the booking waits for flights or after its booking failed. */
const REBOOKABLE_STATUSES = FLIGHT_BOOKABLE_STATUSES;

export interface LegFareOption {
  fare_id: string;
  total_price: number;
  price_per_person: number;
  currency: string;
  /** this fare's total minus what the visitor's fare cost for the passengers (positive: dearer) */
  price_difference: number;
  baggage_included: boolean;
  flights: ReturnType<typeof segmentOf>[];
}

export interface LegFareSearch {
  booking_id: number;
  leg_index: number;
  leg: Pick<FlightLeg, 'type' | 'route' | 'cabin_class' | 'fare_price' | 'flight_numbers' | 'departure_date'>;
  flow_id: string;
  searched_at: string;
  fares: LegFareOption[];
}

export interface RebookResult {
  booking_id: number;
  booking_reference: string;
  status: string;
  leg_index: number;
  fare_id: string;
  reservation_id: string;
  pnr: string | null;
  price_difference: number;
  currency: string;
  /** other unbooked legs for which a booking job was queued */
  queued_legs: number[];
}

interface StoredSearch {
  flow_id: string;
  searched_at: string;
  fares: Fare[];
}

async function rebookableLeg(ctx: AppContext, bookingId: number, legIndex: number) {
  const db = ctx.database.db;
  const booking = await findBooking(db, bookingId);
  if (!booking) throw new AppError(404, 'booking_not_found', 'Booking not found.');
  if (!REBOOKABLE_STATUSES.includes(booking.status)) {
    throw new AppError(
      409,
      'invalid_booking_status',
      `A leg can be re-booked only from ${REBOOKABLE_STATUSES.join(' or ')}; the booking is ${booking.status}.`,
    );
  }
  const selection = booking.flightSelection as StoredFlightSelection | null;
  const leg = selection?.legs?.find((l) => l.leg_index === legIndex);
  if (!selection || !leg) throw new AppError(404, 'leg_not_found', `The booking has no flight leg ${legIndex}.`);
  const records = await flightBookingsOf(db, bookingId);
  if (records.some((r) => r.legIndex === legIndex)) {
    throw new AppError(409, 'leg_already_booked', `Leg ${legIndex} is already booked.`);
  }
  return { booking, selection, leg };
}

/** What the visitor's fare cost for the booking's passengers (exact when the leg kept its total). */
function paidCents(leg: FlightLeg, pax: number): number {
  return legTotalCents(leg, pax);
}

function providerError(err: FlightProviderError): AppError {
  if (err.kind === 'validation') return new AppError(422, 'flight_booking_rejected', err.message);
  if (err.kind === 'price_change' || err.kind === 'fare_expired') {
    return new AppError(409, 'fare_changed', `${err.message}; search again.`);
  }
  return new AppError(502, 'flight_provider_error', err.message);
}

/** Searches the provider again for one leg; the fares found are kept for rebookLeg. */
export async function searchLegFares(ctx: AppContext, bookingId: number, legIndex: number): Promise<LegFareSearch> {
  const { booking, selection, leg } = await rebookableLeg(ctx, bookingId, legIndex);
  const pax = booking.actualPaxCount;
  const request = await legSearchRequest(ctx.database.db, booking, selection, leg);
  let result: { flowId: string; fares: Fare[] };
  try {
    result = await flightProvider(ctx).search(request, {
      signal: AbortSignal.timeout(LEG_JOB.timeoutSeconds * 1000),
    });
  } catch (err) {
    if (err instanceof FlightProviderError) throw providerError(err);
    throw err;
  }
  const usable = result.fares
    .filter((f) => f.legs.length === request.legs.length)
    .sort((a, b) => a.totalCents - b.totalCents);
  const searchedAt = ctx.clock.now().toISOString();
  await saveRebookSearch(ctx.database.db, bookingId, legIndex, {
    flow_id: result.flowId,
    searched_at: searchedAt,
    fares: usable,
  } satisfies StoredSearch as unknown as Record<string, unknown>);
  const paid = paidCents(leg, pax);
  return {
    booking_id: bookingId,
    leg_index: legIndex,
    leg: {
      type: leg.type,
      route: leg.route,
      cabin_class: leg.cabin_class,
      fare_price: leg.fare_price,
      flight_numbers: leg.flight_numbers,
      departure_date: leg.departure_date,
    },
    flow_id: result.flowId,
    searched_at: searchedAt,
    fares: usable.map((f) => ({
      fare_id: f.id,
      total_price: centsToNumber(f.totalCents),
      price_per_person: centsToNumber(perPerson(f.totalCents, pax)),
      currency: f.currency,
      price_difference: centsToNumber(f.totalCents - paid),
      baggage_included: f.baggageIncluded,
      flights: f.legs.map(segmentOf),
    })),
  };
}

/**
 * Books one leg with a fare the admin picked from the last searchLegFares of that leg. The
 * booking moves to flight_booking_in_progress with the new fare and the price difference in the
 * transition's metadata; the leg is verified and booked at once (a booking made earlier for the
 * leg is found first, never booked twice); the other unbooked legs get their jobs. A provider
 * failure moves the booking back to flight_booking_failed with the spec's failure metadata.
 */
export async function rebookLeg(
  ctx: AppContext,
  bookingId: number,
  legIndex: number,
  fareId: string,
  actor = 'admin',
): Promise<RebookResult> {
  const db = ctx.database.db;
  const { booking, selection, leg } = await rebookableLeg(ctx, bookingId, legIndex);
  const search = (await legAttempt(db, bookingId, legIndex))?.rebookSearch as StoredSearch | null | undefined;
  const fare = search?.fares?.find((f) => f.id === fareId);
  if (!search || !fare) {
    throw new AppError(422, 'fare_not_found', 'The fare is not in the last search for this leg; search again.');
  }
  const pax = booking.actualPaxCount;
  const paid = paidCents(leg, pax);
  const difference = centsToNumber(fare.totalCents - paid);
  const moved = await transition(db, bookingId, REBOOKABLE_STATUSES, BookingStatus.flightBookingInProgress, {
    action: 'rebook_leg',
    actor,
    leg_index: legIndex,
    fare_id: fare.id,
    flight_numbers: fare.legs.flatMap((l) => l.flightNumbers),
    previous_flight_numbers: [...leg.flight_numbers.outbound, ...leg.flight_numbers.inbound],
    previous_total_price: centsToNumber(paid),
    new_total_price: centsToNumber(fare.totalCents),
    price_difference: difference,
    currency: fare.currency,
  });
  if (!moved) throw new AppError(409, 'invalid_booking_status', 'The booking changed status meanwhile.');
  await resetLegAttempts(db, bookingId, [legIndex]);

  const jobs = flightJobs(ctx);
  try {
    await jobs.bookLegFare(
      bookingId,
      legIndex,
      { fare, flowId: search.flow_id },
      { signal: AbortSignal.timeout(LEG_JOB.timeoutSeconds * 1000) },
    );
  } catch (err) {
    if (!(err instanceof FlightProviderError)) throw err;
    await jobs.failBooking(bookingId, { ...providerFailureMetadata(err, legIndex), action: 'rebook_leg' });
    throw providerError(err);
  }

  // the other legs still unbooked get their jobs, so the booking does not wait for nothing
  const bookedNow = (await flightBookingsOf(db, bookingId)).map((r) => r.legIndex);
  const rest = unbookedLegs(
    selection.legs.map((l) => l.leg_index),
    bookedNow,
  );
  const queued: number[] = [];
  if (rest.length > 0) {
    await resetLegAttempts(db, bookingId, rest);
    for (const other of rest) {
      const id = await ctx.queue.dispatch(
        jobs.bookLeg,
        { bookingId, legIndex: other },
        { uniqueKey: legJobKey(bookingId, other) },
      );
      if (id) queued.push(other);
    }
  }
  const record = (await flightBookingsOf(db, bookingId)).find((r) => r.legIndex === legIndex);
  const after = await findBooking(db, bookingId);
  return {
    booking_id: bookingId,
    booking_reference: booking.reference,
    status: after?.status ?? BookingStatus.flightBookingInProgress,
    leg_index: legIndex,
    fare_id: fare.id,
    reservation_id: record?.reservationId ?? '',
    pnr: record?.pnr ?? null,
    price_difference: difference,
    currency: fare.currency,
    queued_legs: queued,
  };
}
