// Admin action "Book All Flights" / "Retry": from pending_flight_booking (or
// flight_booking_failed) to flight_booking_in_progress, with one job per unbooked leg.
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { flightBookingsOf, resetLegAttempts } from '../flights/api.js';
import { flightJobs, LEG_JOB, type StoredFlightSelection } from '../flights/jobs.js';
import { findBooking } from './repository.js';
import { BookingStatus, FLIGHT_BOOKABLE_STATUSES, legJobKey, unbookedLegs } from './rules.js';
import { transition } from './status.js';
import { confirmIfReady } from './supplier-confirmations.js';

export interface BookAllFlightsResult {
  booking_id: number;
  booking_reference: string;
  status: string;
  /** legs for which a job was queued now */
  queued_legs: number[];
  /** legs that already have a flight-booking record */
  booked_legs: number[];
}

export async function bookAllFlights(
  ctx: AppContext,
  bookingId: number,
  actor = 'admin',
): Promise<BookAllFlightsResult> {
  const db = ctx.database.db;
  const booking = await findBooking(db, bookingId);
  if (!booking) throw new AppError(404, 'booking_not_found', 'Booking not found.');
  if (!FLIGHT_BOOKABLE_STATUSES.includes(booking.status)) {
    throw new AppError(
      409,
      'invalid_booking_status',
      `Flights can be booked only from ${FLIGHT_BOOKABLE_STATUSES.join(' or ')}; the booking is ${booking.status}.`,
    );
  }
  const selection = booking.flightSelection as StoredFlightSelection | null;
  const legs = selection?.legs?.map((l) => l.leg_index) ?? [];
  if (legs.length === 0) throw new AppError(422, 'no_flight_legs', 'The booking has no flight legs to book.');
  const booked = (await flightBookingsOf(db, bookingId)).map((r) => r.legIndex);
  const todo = unbookedLegs(legs, booked);

  const moved = await transition(db, bookingId, FLIGHT_BOOKABLE_STATUSES, BookingStatus.flightBookingInProgress, {
    action: booking.status === BookingStatus.flightBookingFailed ? 'retry' : 'book_all_flights',
    actor,
    legs: todo,
  });
  if (!moved) throw new AppError(409, 'invalid_booking_status', 'The booking changed status meanwhile.');
  await resetLegAttempts(db, bookingId, todo);

  const { bookLeg } = flightJobs(ctx);
  const queued: number[] = [];
  for (const legIndex of todo) {
    const id = await ctx.queue.dispatch(
      bookLeg,
      { bookingId, legIndex },
      { uniqueKey: legJobKey(bookingId, legIndex) },
    );
    if (id) queued.push(legIndex);
  }
  if (todo.length > 0 && queued.length === 0) {
    // every leg's job key is still inside its unique window (a job of an earlier run is pending or
    // failed moments ago): undo the move so the booking does not wait for jobs that will not come
    await transition(db, bookingId, [BookingStatus.flightBookingInProgress], booking.status, {
      action: 'undo',
      reason: 'flight jobs still locked',
      legs: todo,
    });
    throw new AppError(
      409,
      'flight_jobs_locked',
      `Flight jobs of this booking ran less than ${LEG_JOB.uniqueSeconds} seconds ago; retry later.`,
    );
  }
  if (todo.length === 0) {
    // every leg already had its record (an earlier run booked them): nothing left to do
    await transition(db, bookingId, [BookingStatus.flightBookingInProgress], BookingStatus.flightsConfirmed, {
      legs_booked: booked.length,
      legs_total: legs.length,
    });
    await confirmIfReady(db, bookingId);
  }
  const after = await findBooking(db, bookingId);
  return {
    booking_id: bookingId,
    booking_reference: booking.reference,
    status: after?.status ?? BookingStatus.flightBookingInProgress,
    queued_legs: queued,
    booked_legs: booked,
  };
}
