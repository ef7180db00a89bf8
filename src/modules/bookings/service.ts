// What other modules use of the booking: the row (created by a checkout start through
// INSERT_BOOKING_CTE, read by id or reference), its one status-move use case, its passengers and
// the record of its status moves. The SQL is in repository.ts; the use cases that act on a booking
// (finalization, flight booking, rebooking, the view) are in this module's other files.

export { manageLink, manageLinkOf } from './manage-link.js';
export {
  type BookingRow,
  bookingParams,
  findBooking,
  findBookingByReference,
  INSERT_BOOKING_CTE,
  lockBooking,
  type NewBooking,
  passengerCount,
  passengersOf,
  transitionsOf,
  upsellsOf,
} from './repository.js';
export { transition } from './status.js';
export { confirmIfReady } from './supplier-confirmations.js';
