// Booking statuses and the moves between them (BOOKING_TRANSITIONS: the only ones transition()
// makes).

export const BookingStatus = {
  checkout: 'checkout',
  /** a checkout whose session expired without payment (kept for the funnel, then deleted) */
  abandoned: 'abandoned',
  pendingFlightBooking: 'pending_flight_booking',
  pendingLandConfirmation: 'pending_land_confirmation',
  flightBookingInProgress: 'flight_booking_in_progress',
  flightsConfirmed: 'flights_confirmed',
  flightBookingFailed: 'flight_booking_failed',
  /** the last balance charge failed */
  balanceOverdue: 'balance_overdue',
  /** the balance is paid and nothing is left to book */
  fullyPaid: 'fully_paid',
  /** cancelled by the traveller or the organiser (fee and refund in the transition) */
  cancelled: 'cancelled',
} as const;
export type BookingStatusValue = (typeof BookingStatus)[keyof typeof BookingStatus];

/** Statuses from which an admin may start (or retry) booking the flights. */
export const FLIGHT_BOOKABLE_STATUSES: readonly string[] = [
  BookingStatus.pendingFlightBooking,
  BookingStatus.flightBookingFailed,
];

const S = BookingStatus;

/**
 * Every status move a booking may make after checkout, from -> the statuses it may go to. The
 * deposit finalizes a checkout (or one abandoned meanwhile); booking the flights starts from a
 * paid booking or a failed run and ends confirmed, failed, or undone when no leg job could be
 * queued; the balance ends settled bookings fully paid, or overdue, and a paid overdue balance
 * returns the booking to where it was (flights still to book) or to fully paid. Every paid status
 * may be cancelled (a checkout is abandoned instead); a cancelled booking moves no more.
 */
export const BOOKING_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  [S.checkout]: [S.pendingFlightBooking, S.pendingLandConfirmation],
  [S.abandoned]: [S.pendingFlightBooking, S.pendingLandConfirmation],
  [S.pendingFlightBooking]: [S.flightBookingInProgress, S.balanceOverdue, S.cancelled],
  [S.flightBookingFailed]: [S.flightBookingInProgress, S.balanceOverdue, S.cancelled],
  [S.flightBookingInProgress]: [S.flightsConfirmed, S.flightBookingFailed, S.pendingFlightBooking, S.cancelled],
  [S.flightsConfirmed]: [S.fullyPaid, S.balanceOverdue, S.cancelled],
  [S.pendingLandConfirmation]: [S.fullyPaid, S.balanceOverdue, S.cancelled],
  [S.balanceOverdue]: [S.fullyPaid, S.pendingFlightBooking, S.flightBookingFailed, S.cancelled],
  [S.fullyPaid]: [S.cancelled],
};

/** Whether BOOKING_TRANSITIONS lets a booking move from `from` to `to`. */
export function transitionAllowed(from: string, to: string): boolean {
  return BOOKING_TRANSITIONS[from]?.includes(to) ?? false;
}

/** After a Succeeded payment: flights to book (ECONOMY or BUSINESS) or land services only. */
export function statusAfterPayment(cabinClass: string | null | undefined): BookingStatusValue {
  return cabinClass === 'ECONOMY' || cabinClass === 'BUSINESS'
    ? BookingStatus.pendingFlightBooking
    : BookingStatus.pendingLandConfirmation;
}

/** Legs still to book: those without a flight-booking record. */
export function unbookedLegs(legIndexes: number[], bookedLegIndexes: number[]): number[] {
  const booked = new Set(bookedLegIndexes);
  return legIndexes.filter((i) => !booked.has(i));
}

/** Unique key of a leg booking job. */
export function legJobKey(bookingId: number, legIndex: number): string {
  return `checkout-flight:${bookingId}:${legIndex}`;
}
