// The admin-driven flight booking jobs. One job per unbooked leg re-searches the provider,
// matches the fare the visitor chose, verifies it, books it, stores the leg's flight-booking
// record and queues the retrieval of the reservation details. Outcomes:
//   no matching fare       release for 300 s once, then fail
//   search/verify/booking  retry after 120 s (3 tries), then fail
//   rate limited (429)     release for the provider's reset delay (no try used)
//   validation             fail at once (the same data would be refused again)
//   unclassified exception retried by the queue; the second one fails the leg (max exceptions 2)
// A terminal failure moves the booking to flight_booking_failed with the failure metadata.
// Booking twice is impossible: before the booking call the leg is marked as started, and a later
// run (after a time-out, a 5xx or a crash) asks the provider for an order of this booking and
// leg before booking again. Every provider call gets the job's signal (its 420 s time-out).
import type { AppContext } from '../../context.js';
import { formatCents } from '../../platform/money.js';
import { type JobDefinition, type JobInfo, type JobOutcome, outcome } from '../../platform/queue.js';
import { BookingStatus } from '../bookings/rules.js';
import { confirmIfReady, findBooking, passengersOf, transition } from '../bookings/service.js';
import * as notifications from '../notifications/service.js';
import { orderCancellationJob } from './order-cancellation.js';
import {
  type PassengerGender as BookingPassengerGender,
  type PassengerTitle as BookingPassengerTitle,
  type CallOptions,
  type Fare,
  FlightProviderError,
  type FlightSearchRequest,
  type Reservation,
} from './provider.js';
import { flightProvider } from './providers.js';
import * as repo from './repository.js';
import {
  domesticSearch,
  type FailureMetadata,
  FLIGHTS_QUEUE,
  type FlightLeg,
  type FlightSegment,
  findMatchingFare,
  internationalSearch,
  noMatchingFareMetadata,
  providerFailureMetadata,
  searchPassengers,
  verifiedPriceChange,
} from './rules.js';

export interface BookLegPayload {
  bookingId: number;
  legIndex: number;
}

export interface RetrieveReservationPayload {
  flightBookingId: number;
}

export const LEG_JOB = {
  tries: 3,
  timeoutSeconds: 420,
  uniqueSeconds: 480,
  backoffSeconds: [120],
  noMatchReleaseSeconds: 300,
  /** unclassified exceptions (not provider failures) before the leg fails, apart from tries */
  maxExceptions: 2,
} as const;

/** What a booked leg was booked with (the job's matched fare or the admin's re-booking pick). */
export interface LegFareChoice {
  fare: Fare;
  flowId: string;
}

/** The flight data stored on a booking at finalization (flight_selection). */
export interface StoredFlightSelection {
  cabin_class: 'ECONOMY' | 'BUSINESS';
  outbound: FlightSegment;
  inbound: FlightSegment;
  legs: FlightLeg[];
  flow_id?: string | null;
}

export interface FlightJobs {
  bookLeg: JobDefinition<BookLegPayload>;
  retrieveReservation: JobDefinition<RetrieveReservationPayload>;
  /** books one leg with a chosen fare and stores its record (shared by the job and re-booking) */
  bookLegFare(bookingId: number, legIndex: number, choice: LegFareChoice, opts: CallOptions): Promise<void>;
  failBooking(bookingId: number, meta: FailureMetadata): Promise<void>;
}

const jobsByContext = new WeakMap<AppContext, FlightJobs>();

/**
 * The search that books (or re-books) one leg: the leg's flights for the booking's travelers,
 * children by age and infants on a lap as their birth dates say on the leg's last flight.
 */
export async function legSearchRequest(
  db: AppContext['database']['db'],
  booking: { id: number; actualPaxCount: number; currency: string },
  selection: StoredFlightSelection,
  leg: FlightLeg,
): Promise<FlightSearchRequest> {
  const pax = booking.actualPaxCount;
  const request =
    leg.type === 'international'
      ? internationalSearch(selection.outbound, selection.inbound, leg.cabin_class, pax, booking.currency)
      : domesticSearch(leg, leg.cabin_class, pax, booking.currency);
  const travelers = await passengersOf(db, booking.id);
  if (travelers.length !== pax) return request;
  const lastDate = request.legs[request.legs.length - 1].date;
  return {
    ...request,
    passengers: searchPassengers(
      travelers.map((p) => p.birthDate),
      lastDate,
    ),
  };
}

/** The flight job definitions of a context (the same objects for register and dispatch). */
export function flightJobs(ctx: AppContext): FlightJobs {
  const cached = jobsByContext.get(ctx);
  if (cached) return cached;
  const db = ctx.database.db;

  async function failBooking(bookingId: number, meta: FailureMetadata): Promise<void> {
    await repo.recordLegError(db, bookingId, meta.leg_index, meta);
    const moved = await transition(
      db,
      bookingId,
      [BookingStatus.flightBookingInProgress],
      BookingStatus.flightBookingFailed,
      meta,
    );
    if (moved) {
      await notifications.notifyAdmins(db, {
        type: 'flight_booking_failed',
        bookingId,
        title: 'Flight booking failed',
        message: `Leg ${meta.leg_index}: ${meta.message}`,
        data: meta,
      });
    }
  }

  /** retry while tries remain; on the last try the failure is terminal */
  async function retryOrFail(bookingId: number, job: JobInfo, meta: FailureMetadata): Promise<JobOutcome> {
    if (job.attempt < LEG_JOB.tries) {
      await repo.recordLegError(db, bookingId, meta.leg_index, meta);
      return outcome.retry(meta.message);
    }
    await failBooking(bookingId, meta);
    return outcome.fail(meta.message);
  }

  async function afterLegBooked(bookingId: number, legCount: number, legIndex: number): Promise<void> {
    const booked = (await repo.flightBookingsOf(db, bookingId)).length;
    if (booked >= legCount) {
      // another leg's job may make the same transition at the same moment: only one wins
      const moved = await transition(
        db,
        bookingId,
        [BookingStatus.flightBookingInProgress],
        BookingStatus.flightsConfirmed,
        { legs_booked: booked, legs_total: legCount, leg_index: legIndex },
      );
      if (moved) {
        // suppliers that all answered before the flights were booked: the booking is confirmed
        await confirmIfReady(db, bookingId, { legs_booked: booked });
        await notifications.notifyAdmins(db, {
          type: 'flights_confirmed',
          bookingId,
          title: 'All flights booked',
          message: `All ${legCount} flight legs are booked.`,
          data: { legs_booked: booked, legs_total: legCount },
        });
      }
      return;
    }
    await notifications.notifyAdmins(db, {
      type: 'flight_leg_booked',
      bookingId,
      title: 'Flight leg booked',
      message: `Leg ${legIndex} booked: ${booked} of ${legCount} legs booked.`,
      data: { leg_index: legIndex, legs_booked: booked, legs_total: legCount },
    });
  }

  async function findEarlierBooking(
    reference: string,
    bookingId: number,
    legIndex: number,
    signal?: AbortSignal,
  ): Promise<Reservation | null> {
    const lead = (await passengersOf(db, bookingId))[0];
    if (!lead) return null;
    return flightProvider(ctx).findBooking(
      { reference, legIndex, leadPassenger: { firstName: lead.firstName, lastName: lead.lastName } },
      { signal },
    );
  }

  async function storeLeg(
    bookingId: number,
    leg: FlightLeg,
    reservation: Reservation,
    from: {
      fareId: string | null;
      flowId: string | null;
      flightNumbers: string[] | null;
      /** the fare's total in the market's currency (the provider may bill in another) */
      sold?: { totalCents: number; currency: string };
    },
  ): Promise<void> {
    const provider = flightProvider(ctx);
    const numbers =
      from.flightNumbers ??
      ((reservation.details.slices as { segments?: { flight_number: string }[] }[] | undefined) ?? []).flatMap((s) =>
        (s.segments ?? []).map((g) => g.flight_number),
      );
    const record = await repo.saveFlightBooking(db, {
      bookingId,
      legIndex: leg.leg_index,
      flightType: leg.type,
      cabinClass: leg.cabin_class,
      provider: provider.name,
      // an order found later names no fare of ours: the order id stands in for it
      fareId: from.fareId ?? reservation.reservationId,
      flowId: from.flowId,
      reservationId: reservation.reservationId,
      pnr: reservation.pnr,
      status: reservation.status,
      totalPrice: formatCents(from.sold?.totalCents ?? reservation.totalCents),
      currency: from.sold?.currency ?? reservation.currency,
      ...(from.sold && from.sold.currency !== reservation.currency
        ? { billedTotal: formatCents(reservation.totalCents), billedCurrency: reservation.currency }
        : {}),
      flightNumbers: numbers,
    });
    await ctx.queue.dispatch(retrieveReservation, { flightBookingId: record.id });
  }

  async function bookLegFare(
    bookingId: number,
    legIndex: number,
    { fare, flowId }: LegFareChoice,
    opts: CallOptions,
  ): Promise<void> {
    const booking = await findBooking(db, bookingId);
    const selection = booking?.flightSelection as StoredFlightSelection | null;
    const leg = selection?.legs?.find((l) => l.leg_index === legIndex);
    if (!booking || !selection || !leg) throw new Error(`booking ${bookingId} has no leg ${legIndex}`);
    const provider = flightProvider(ctx);
    const verified = await provider.verify(fare.id, flowId, opts);
    const moved = verifiedPriceChange(fare, verified);
    if (moved) throw moved;
    const travelers = await passengersOf(db, bookingId);
    if (opts.signal?.aborted) {
      // the deadline passed during the verify step: no booking call is started after it
      throw new FlightProviderError('timeout', 'The leg job reached its time-out before booking', { fare_id: fare.id });
    }
    const startedBefore = await repo.markBookingStarted(db, bookingId, legIndex);
    if (startedBefore) {
      // an earlier call may have booked it: the job looked at its start, re-booking looks here
      const earlier = await findEarlierBooking(booking.reference, bookingId, legIndex, opts.signal);
      if (earlier) {
        await storeLeg(bookingId, leg, earlier, { fareId: null, flowId: null, flightNumbers: null });
        await afterLegBooked(bookingId, selection.legs.length, legIndex);
        return;
      }
    }
    const reservation = await provider.book(
      {
        fareId: fare.id,
        flowId,
        reference: booking.reference,
        legIndex,
        passengers: travelers.map((p) => ({
          title: p.title as BookingPassengerTitle,
          gender: p.gender as BookingPassengerGender,
          firstName: p.firstName,
          lastName: p.lastName,
          birthDate: p.birthDate,
          nationality: p.nationality,
          passportNumber: p.passportNumber,
          passportExpiry: p.passportExpiry,
          email: p.email,
          phone: p.phone,
        })),
      },
      opts,
    );
    await storeLeg(
      bookingId,
      leg,
      {
        ...reservation,
        totalCents: reservation.totalCents || verified.totalCents,
        currency: reservation.currency || verified.currency,
      },
      {
        fareId: fare.id,
        flowId,
        flightNumbers: fare.legs.flatMap((l) => l.flightNumbers),
        sold: { totalCents: fare.totalCents, currency: fare.currency },
      },
    );
    await afterLegBooked(bookingId, selection.legs.length, legIndex);
  }

  const retrieveReservation: JobDefinition<RetrieveReservationPayload> = {
    name: 'flights.retrieve-reservation',
    queue: FLIGHTS_QUEUE,
    tries: 3,
    timeoutSeconds: 60,
    backoffSeconds: [60, 300],
    async handler({ flightBookingId }, job) {
      const record = await repo.findFlightBooking(db, flightBookingId);
      if (!record) return outcome.ignore('flight booking gone');
      try {
        const r = await flightProvider(ctx).retrieve(record.reservationId, { signal: job.signal });
        await repo.updateFlightBooking(db, record.id, {
          pnr: r.pnr,
          status: r.status,
          details: r.details,
          retrievedAt: ctx.clock.now(),
        });
        return outcome.done();
      } catch (err) {
        if (err instanceof FlightProviderError) return outcome.retry(err.message);
        throw err;
      }
    },
  };

  const bookLeg: JobDefinition<BookLegPayload> = {
    name: 'flights.book-leg',
    queue: FLIGHTS_QUEUE,
    tries: LEG_JOB.tries,
    timeoutSeconds: LEG_JOB.timeoutSeconds,
    backoffSeconds: [...LEG_JOB.backoffSeconds],
    uniqueSeconds: LEG_JOB.uniqueSeconds,
    async handler({ bookingId, legIndex }, job) {
      const booking = await findBooking(db, bookingId);
      if (!booking) return outcome.ignore('booking gone');
      const selection = booking.flightSelection as StoredFlightSelection | null;
      const leg = selection?.legs?.find((l) => l.leg_index === legIndex);
      if (!selection || !leg) return outcome.ignore(`booking ${bookingId} has no leg ${legIndex}`);
      const existing = (await repo.flightBookingsOf(db, bookingId)).find((r) => r.legIndex === legIndex);
      if (existing) {
        await afterLegBooked(bookingId, selection.legs.length, legIndex);
        return outcome.done();
      }
      if (booking.status !== BookingStatus.flightBookingInProgress) {
        return outcome.ignore(`booking ${bookingId} is ${booking.status}`);
      }

      const provider = flightProvider(ctx);
      const signal = job.signal;
      const pax = booking.actualPaxCount;
      let fareId: string | undefined;
      try {
        // an earlier run may have booked this leg without storing the record (time-out, crash)
        const attempt = await repo.legAttempt(db, bookingId, legIndex);
        if (attempt?.bookingStartedAt) {
          const earlier = await findEarlierBooking(booking.reference, bookingId, legIndex, signal);
          if (earlier) {
            await storeLeg(bookingId, leg, earlier, { fareId: null, flowId: null, flightNumbers: null });
            await afterLegBooked(bookingId, selection.legs.length, legIndex);
            return outcome.done();
          }
        }
        const request = await legSearchRequest(db, booking, selection, leg);
        const { flowId, fares } = await provider.search(request, { signal });
        // the checkout priced adults: a party with children or infants matches by flights only
        const allAdults = (request.passengers ?? []).every((p) => p.type === 'adult');
        const fare = findMatchingFare(leg, fares, pax, allAdults);
        if (!fare) {
          const meta = noMatchingFareMetadata(leg, pax, fares.length);
          const count = await repo.countNoMatch(db, bookingId, legIndex, meta);
          if (count <= 1) return outcome.release(LEG_JOB.noMatchReleaseSeconds, meta.message);
          await failBooking(bookingId, meta);
          return outcome.fail(meta.message);
        }
        fareId = fare.id;
        await bookLegFare(bookingId, legIndex, { fare, flowId }, { signal });
        return outcome.done();
      } catch (err) {
        if (!(err instanceof FlightProviderError)) {
          // an unclassified exception: the queue retries it, the second one fails the leg
          const message = (err as Error).message ?? String(err);
          const meta: FailureMetadata = { message, sub_type: 'exception', leg_index: legIndex };
          const count = await repo.countLegException(db, bookingId, legIndex, meta);
          if (count >= LEG_JOB.maxExceptions) {
            await failBooking(bookingId, { ...meta, exceptions: count });
            return outcome.fail(message);
          }
          throw err;
        }
        if (fareId && !err.details.fare_id) err.details.fare_id = fareId;
        const meta = providerFailureMetadata(err, legIndex);
        if (err.kind === 'validation') {
          await failBooking(bookingId, meta);
          return outcome.fail(meta.message);
        }
        if (err.kind === 'rate_limited') {
          await repo.recordLegError(db, bookingId, legIndex, meta);
          return outcome.release(err.details.retry_after ?? 60, meta.message);
        }
        return retryOrFail(bookingId, job, meta);
      }
    },
    async onExhausted({ bookingId, legIndex }, _job, error) {
      // a thrown (unclassified) error on the last try; classified failures were handled above
      const booking = await findBooking(db, bookingId);
      if (booking?.status !== BookingStatus.flightBookingInProgress) return;
      await failBooking(bookingId, { message: error, sub_type: 'exception', leg_index: legIndex });
    },
  };

  const jobs = { bookLeg, retrieveReservation, bookLegFare, failBooking };
  jobsByContext.set(ctx, jobs);
  return jobs;
}

/** The module's job definitions for the queue registry (src/jobs.ts). */
export function jobs(ctx: AppContext): JobDefinition<any>[] {
  const { bookLeg, retrieveReservation } = flightJobs(ctx);
  return [bookLeg, retrieveReservation, orderCancellationJob(ctx)];
}
