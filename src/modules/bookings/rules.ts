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
  /** every flight leg booked (or none) and every land service confirmed by its supplier */
  confirmed: 'confirmed',
  /** a confirmed trip whose return date has passed */
  completed: 'completed',
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
 * returns the booking to where it was (flights still to book) or to fully paid. A booking whose
 * flights are booked (or has none) becomes confirmed once every supplier has confirmed its land
 * service, whatever its balance; a confirmed trip is completed once its return date has passed.
 * Every paid status may be cancelled (a checkout is abandoned instead); a cancelled or completed
 * booking moves no more.
 */
export const BOOKING_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  [S.checkout]: [S.pendingFlightBooking, S.pendingLandConfirmation],
  [S.abandoned]: [S.pendingFlightBooking, S.pendingLandConfirmation],
  [S.pendingFlightBooking]: [S.flightBookingInProgress, S.balanceOverdue, S.cancelled],
  [S.flightBookingFailed]: [S.flightBookingInProgress, S.balanceOverdue, S.cancelled],
  [S.flightBookingInProgress]: [S.flightsConfirmed, S.flightBookingFailed, S.pendingFlightBooking, S.cancelled],
  [S.flightsConfirmed]: [S.fullyPaid, S.balanceOverdue, S.confirmed, S.cancelled],
  [S.pendingLandConfirmation]: [S.fullyPaid, S.balanceOverdue, S.confirmed, S.cancelled],
  [S.balanceOverdue]: [S.fullyPaid, S.pendingFlightBooking, S.flightBookingFailed, S.confirmed, S.cancelled],
  [S.fullyPaid]: [S.confirmed, S.cancelled],
  [S.confirmed]: [S.balanceOverdue, S.completed, S.cancelled],
};

/** Statuses a booking moves to `confirmed` from once its suppliers have all confirmed. */
export const CONFIRMABLE_STATUSES: readonly string[] = [S.pendingLandConfirmation, S.flightsConfirmed, S.fullyPaid];

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

// ---------------------------------------------------------------------------------------------
// Land services and their supplier confirmations

export const SupplierConfirmationStatus = {
  requested: 'requested',
  confirmed: 'confirmed',
  declined: 'declined',
  /** the service was removed from the booking (an amendment) */
  cancelled: 'cancelled',
} as const;

/** Hours after the request (or the last reminder) at which an unanswered supplier is reminded. */
export const SUPPLIER_REMINDER_HOURS = 48;

export interface LandService {
  serviceType: 'hotel' | 'activity' | 'transfer';
  serviceId: number;
  serviceName: string;
  /** hotels: first and last night (tour days); activities and transfers: their day */
  dayStart: number;
  dayEnd: number;
  /** hotels: selection (the base hotel) or the upgrade's tier */
  tier: string | null;
}

export interface BookedLand {
  /** the base hotels: the tour's selection stays grouped by consecutive nights at one hotel */
  baseStays: { hotelId: number; name: string; dayStart: number; dayEnd: number }[];
  /** the upgrades booked, each replacing the base hotel for its nights */
  upgrades: { hotelId: number; name: string; tier: string | null; dayStart: number; dayEnd: number }[];
  /** included activities of the tour and the extras booked */
  activities: { id: number; name: string; day: number }[];
  /** included transfers of the tour and the upsells booked */
  transfers: { id: number; name: string; day: number }[];
}

/**
 * The land services to confirm with their suppliers, in trip order: each base hotel for the nights
 * of its group that no upgrade covers (a night upgraded is slept in the upgraded hotel, so the base
 * hotel is not booked for it), each upgraded hotel, each activity and each transfer.
 */
export function landServices(b: BookedLand): LandService[] {
  const out: LandService[] = [];
  for (const stay of b.baseStays) {
    let night = stay.dayStart;
    const covering = b.upgrades
      .filter((u) => u.dayStart <= stay.dayEnd && u.dayEnd >= stay.dayStart)
      .sort((x, y) => x.dayStart - y.dayStart);
    for (const u of [...covering, null]) {
      const until = u ? Math.min(u.dayStart - 1, stay.dayEnd) : stay.dayEnd;
      if (until >= night) {
        out.push({
          serviceType: 'hotel',
          serviceId: stay.hotelId,
          serviceName: stay.name,
          dayStart: night,
          dayEnd: until,
          tier: 'selection',
        });
      }
      if (u) night = Math.max(night, u.dayEnd + 1);
    }
  }
  for (const u of b.upgrades) {
    out.push({
      serviceType: 'hotel',
      serviceId: u.hotelId,
      serviceName: u.name,
      dayStart: u.dayStart,
      dayEnd: u.dayEnd,
      tier: u.tier,
    });
  }
  for (const a of b.activities) {
    out.push({
      serviceType: 'activity',
      serviceId: a.id,
      serviceName: a.name,
      dayStart: a.day,
      dayEnd: a.day,
      tier: null,
    });
  }
  for (const t of b.transfers) {
    out.push({
      serviceType: 'transfer',
      serviceId: t.id,
      serviceName: t.name,
      dayStart: t.day,
      dayEnd: t.day,
      tier: null,
    });
  }
  return out.sort((x, y) => x.dayStart - y.dayStart || KIND_ORDER[x.serviceType] - KIND_ORDER[y.serviceType]);
}

const KIND_ORDER = { transfer: 0, hotel: 1, activity: 2 } as const;

/**
 * Whether a booking is confirmed: every flight leg booked (or it has none) and every supplier
 * confirmation that is not cancelled is confirmed (a booking without land services has none).
 */
export function isConfirmed(legsTotal: number, legsBooked: number, confirmationStatuses: string[]): boolean {
  if (legsBooked < legsTotal) return false;
  return confirmationStatuses
    .filter((s) => s !== SupplierConfirmationStatus.cancelled)
    .every((s) => s === SupplierConfirmationStatus.confirmed);
}

/** Whether a confirmed trip is over: its return date (YYYY-MM-DD) is before `today`. */
export function isTripOver(returnDate: string | null, today: string): boolean {
  return returnDate !== null && returnDate < today;
}

/** A traveler as the booking page and the customer see it: the passport number masked. */
export function travelerView(
  p: {
    firstName: string;
    lastName: string;
    nationality: string;
    passportNumber: string;
    passportExpiry: string;
    birthDate: string;
  },
  position: number,
) {
  return {
    position,
    first_name: p.firstName,
    last_name: p.lastName,
    nationality: p.nationality,
    passport_number: maskPassport(p.passportNumber),
    passport_expiry: p.passportExpiry,
    birth_date: p.birthDate,
    is_lead: position === 0,
  };
}

/** A passport number as pages and the customer see it: only its last three characters. */
export function maskPassport(number: string): string {
  const shown = number.length > 4 ? 3 : 1;
  return `${'•'.repeat(Math.max(0, number.length - shown))}${number.slice(-shown)}`;
}

/** Days before departure after which the customer can no longer change traveler data themselves. */
export const TRAVELER_CHANGE_DAYS = 14;
