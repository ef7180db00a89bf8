// The booking's one status-move use case: every change of a booking's status after checkout goes
// through transition(), which checks the move against BOOKING_TRANSITIONS (rules.ts) and writes the
// status and the record of the move in one transaction.
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../platform/errors.js';
import { lockBookingStatus, recordTransition, setBookingStatus } from './repository.js';
import { transitionAllowed } from './rules.js';

/**
 * Moves the booking from one of `from` to `to` and records the transition with its metadata.
 * Returns false (and records nothing) when the booking was not in one of `from`, which is how
 * a concurrent duplicate transition is tolerated. A move that BOOKING_TRANSITIONS does not list
 * is refused (409 booking_transition_not_allowed) and changes nothing.
 */
export async function transition(
  db: DbOrTx,
  bookingId: number,
  from: readonly string[],
  to: string,
  metadata: Record<string, unknown> = {},
): Promise<boolean> {
  // one transaction: the status and its transition row appear together; the row lock makes a
  // concurrent second transition see the new status and do nothing
  return db.transaction(async (tx) => {
    const previous = await lockBookingStatus(tx, bookingId);
    if (previous === undefined || !from.includes(previous)) return false;
    if (!transitionAllowed(previous, to)) {
      throw new AppError(409, 'booking_transition_not_allowed', `A booking cannot move from ${previous} to ${to}.`);
    }
    await setBookingStatus(tx, bookingId, to);
    await recordTransition(tx, { bookingId, fromStatus: previous, toStatus: to, metadata });
    return true;
  });
}
