// Status moves of a booking after checkout. The status is the checkout's column, the transition
// record the flights module's table; both are written in one transaction through their modules.
import type { DbOrTx } from '../../db/database.js';
import { lockBookingStatus, setBookingStatus } from '../checkout/repository.js';
import { recordTransition } from '../flights/repository.js';

/**
 * Moves the booking from one of `from` to `to` and records the transition with its metadata.
 * Returns false (and records nothing) when the booking was not in one of `from`, which is how
 * a concurrent duplicate transition is tolerated.
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
    await setBookingStatus(tx, bookingId, to);
    await recordTransition(tx, { bookingId, fromStatus: previous, toStatus: to, metadata });
    return true;
  });
}
