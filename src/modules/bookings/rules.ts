// Booking statuses and the transitions the contract names.

export const BookingStatus = {
  checkout: 'checkout',
  /** a checkout whose session expired without payment (kept for the funnel, then deleted) */
  abandoned: 'abandoned',
  pendingFlightBooking: 'pending_flight_booking',
  pendingLandConfirmation: 'pending_land_confirmation',
  flightBookingInProgress: 'flight_booking_in_progress',
  flightsConfirmed: 'flights_confirmed',
  flightBookingFailed: 'flight_booking_failed',
} as const;
export type BookingStatusValue = (typeof BookingStatus)[keyof typeof BookingStatus];

/** Statuses from which an admin may start (or retry) booking the flights. */
export const FLIGHT_BOOKABLE_STATUSES: readonly string[] = [
  BookingStatus.pendingFlightBooking,
  BookingStatus.flightBookingFailed,
];

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
