// The admins' in-app notifications as other modules use them: the flights jobs, payments, balance
// collection and ops alerts write them (in the caller's transaction when it passes one), the
// booking view reads a booking's. The console's list, bell and read state are in console.ts.
import type { DbOrTx } from '../../db/database.js';
import * as repo from './repository.js';

export type { NewNotification } from './repository.js';

/** Stores one notification for every admin (db: the caller's transaction or the database). */
export function notifyAdmins(db: DbOrTx, n: repo.NewNotification): Promise<void> {
  return repo.insertNotification(db, n);
}

/** A booking's notifications, oldest first. */
export function notificationsOf(db: DbOrTx, bookingId: number) {
  return repo.notificationsOf(db, bookingId);
}
