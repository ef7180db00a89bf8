// SQL of the bookings module: status transitions with metadata, admin notifications, per-leg
// flight-booking records and attempts, passengers and upsells.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  adminNotifications,
  bookingPassengers,
  bookingPayments,
  bookingStatusTransitions,
  bookings,
  bookingUpsells,
  clients,
  flightBookings,
  flightLegAttempts,
  passengers,
} from '../../db/schema/index.js';

export type BookingRow = typeof bookings.$inferSelect;
export type FlightBookingRow = typeof flightBookings.$inferSelect;
export type NewFlightBooking = typeof flightBookings.$inferInsert;

export async function findBooking(db: DbOrTx, id: number): Promise<BookingRow | null> {
  const rows = await db.select().from(bookings).where(eq(bookings.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findBookingByReference(db: DbOrTx, reference: string): Promise<BookingRow | null> {
  const rows = await db.select().from(bookings).where(eq(bookings.reference, reference)).limit(1);
  return rows[0] ?? null;
}

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
    const current = await tx
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, bookingId))
      .for('update');
    const previous = current[0]?.status;
    if (previous === undefined || !from.includes(previous)) return false;
    await tx.update(bookings).set({ status: to, updatedAt: sql`now()` }).where(eq(bookings.id, bookingId));
    await tx.insert(bookingStatusTransitions).values({ bookingId, fromStatus: previous, toStatus: to, metadata });
    return true;
  });
}

export async function transitionsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(bookingStatusTransitions)
    .where(eq(bookingStatusTransitions.bookingId, bookingId))
    .orderBy(asc(bookingStatusTransitions.id));
}

export async function notifyAdmins(
  db: DbOrTx,
  n: { type: string; bookingId: number | null; title: string; message: string; data?: Record<string, unknown> },
): Promise<void> {
  await db.insert(adminNotifications).values({ ...n, data: n.data ?? {} });
}

export async function notificationsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(adminNotifications)
    .where(eq(adminNotifications.bookingId, bookingId))
    .orderBy(asc(adminNotifications.id));
}

export async function flightBookingsOf(db: DbOrTx, bookingId: number): Promise<FlightBookingRow[]> {
  return db
    .select()
    .from(flightBookings)
    .where(eq(flightBookings.bookingId, bookingId))
    .orderBy(asc(flightBookings.legIndex));
}

/** Inserts the leg's record unless one exists (one per booking and leg); the stored row either way. */
export async function saveFlightBooking(db: DbOrTx, row: NewFlightBooking): Promise<FlightBookingRow> {
  const inserted = await db.insert(flightBookings).values(row).onConflictDoNothing().returning();
  if (inserted[0]) return inserted[0];
  const rows = await db
    .select()
    .from(flightBookings)
    .where(and(eq(flightBookings.bookingId, row.bookingId), eq(flightBookings.legIndex, row.legIndex)));
  return rows[0];
}

export async function findFlightBooking(db: DbOrTx, id: number): Promise<FlightBookingRow | null> {
  const rows = await db.select().from(flightBookings).where(eq(flightBookings.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateFlightBooking(
  db: DbOrTx,
  id: number,
  set: Partial<Pick<FlightBookingRow, 'pnr' | 'status' | 'details' | 'retrievedAt'>>,
): Promise<void> {
  await db
    .update(flightBookings)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(flightBookings.id, id));
}

/** Counts a "no matching fare" for the leg; returns the new count. */
export async function countNoMatch(
  db: DbOrTx,
  bookingId: number,
  legIndex: number,
  error: Record<string, unknown>,
): Promise<number> {
  const rows = await db
    .insert(flightLegAttempts)
    .values({ bookingId, legIndex, noMatchCount: 1, lastError: error })
    .onConflictDoUpdate({
      target: [flightLegAttempts.bookingId, flightLegAttempts.legIndex],
      set: { noMatchCount: sql`${flightLegAttempts.noMatchCount} + 1`, lastError: error, updatedAt: sql`now()` },
    })
    .returning({ count: flightLegAttempts.noMatchCount });
  return rows[0].count;
}

export async function recordLegError(
  db: DbOrTx,
  bookingId: number,
  legIndex: number,
  error: Record<string, unknown>,
): Promise<void> {
  await db
    .insert(flightLegAttempts)
    .values({ bookingId, legIndex, lastError: error })
    .onConflictDoUpdate({
      target: [flightLegAttempts.bookingId, flightLegAttempts.legIndex],
      set: { lastError: error, updatedAt: sql`now()` },
    });
}

/** A retry by the admin starts the legs' attempt bookkeeping afresh. */
export async function resetLegAttempts(db: DbOrTx, bookingId: number, legIndexes: number[]): Promise<void> {
  if (legIndexes.length === 0) return;
  await db
    .delete(flightLegAttempts)
    .where(and(eq(flightLegAttempts.bookingId, bookingId), inArray(flightLegAttempts.legIndex, legIndexes)));
}

export type PassengerRow = typeof passengers.$inferSelect;

/** The booking's passengers in traveler order (lead first). */
export async function passengersOf(db: DbOrTx, bookingId: number): Promise<PassengerRow[]> {
  const rows = await db
    .select({ p: passengers })
    .from(bookingPassengers)
    .innerJoin(passengers, eq(passengers.id, bookingPassengers.passengerId))
    .where(eq(bookingPassengers.bookingId, bookingId))
    .orderBy(asc(bookingPassengers.position));
  return rows.map((r) => r.p);
}

// ---------------------------------------------------------------------------------------------
// Finalization

export async function lockBooking(tx: DbOrTx, id: number): Promise<BookingRow | null> {
  const rows = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return rows[0] ?? null;
}

export async function hasPassengers(tx: DbOrTx, bookingId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: bookingPassengers.passengerId })
    .from(bookingPassengers)
    .where(eq(bookingPassengers.bookingId, bookingId))
    .limit(1);
  return rows.length > 0;
}

/**
 * The booking contact: the client with this e-mail (case-insensitive) updated, or a new one.
 * (clients is the checkout module's table; finalization is its only writer.)
 */
export async function upsertClient(
  tx: DbOrTx,
  c: { first_name: string; last_name: string; email: string; phone: string },
): Promise<number> {
  const found = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${c.email})`)
    .orderBy(asc(clients.id))
    .limit(1);
  const values = { firstName: c.first_name, lastName: c.last_name, email: c.email, phone: c.phone };
  if (found[0]) {
    await tx
      .update(clients)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(clients.id, found[0].id));
    return found[0].id;
  }
  const rows = await tx.insert(clients).values(values).returning({ id: clients.id });
  return rows[0].id;
}

export type NewPassenger = typeof passengers.$inferInsert;

export async function attachPassengers(tx: DbOrTx, bookingId: number, list: NewPassenger[]): Promise<number[]> {
  if (list.length === 0) return [];
  const rows = await tx.insert(passengers).values(list).returning({ id: passengers.id });
  await tx
    .insert(bookingPassengers)
    .values(rows.map((r, i) => ({ bookingId, passengerId: r.id, position: i, isLead: i === 0 })));
  return rows.map((r) => r.id);
}

export type NewUpsell = typeof bookingUpsells.$inferInsert;

export async function insertUpsells(tx: DbOrTx, list: NewUpsell[]): Promise<void> {
  if (list.length) await tx.insert(bookingUpsells).values(list);
}

export async function upsellsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(bookingUpsells)
    .where(eq(bookingUpsells.bookingId, bookingId))
    .orderBy(asc(bookingUpsells.id));
}

export async function updateFinalizedBooking(
  tx: DbOrTx,
  id: number,
  set: {
    clientId: number;
    flightSelection: Record<string, unknown> | null;
    paymentMethodCode: string;
    paymentGatewayCode: string;
    totalPrice: string;
  },
): Promise<void> {
  await tx
    .update(bookings)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(bookings.id, id));
}

export async function passengerCount(db: DbOrTx, bookingId: number): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookingPassengers)
    .where(eq(bookingPassengers.bookingId, bookingId));
  return Number(rows[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Payments

export type PaymentRow = typeof bookingPayments.$inferSelect;

export async function savePayment(db: DbOrTx, row: typeof bookingPayments.$inferInsert): Promise<void> {
  await db
    .insert(bookingPayments)
    .values(row)
    .onConflictDoUpdate({ target: bookingPayments.intentId, set: { status: row.status, updatedAt: sql`now()` } });
}

export async function findPayment(db: DbOrTx, intentId: string): Promise<PaymentRow | null> {
  const rows = await db.select().from(bookingPayments).where(eq(bookingPayments.intentId, intentId)).limit(1);
  return rows[0] ?? null;
}

export async function setPaymentStatus(db: DbOrTx, intentId: string, status: string): Promise<void> {
  await db.update(bookingPayments).set({ status, updatedAt: sql`now()` }).where(eq(bookingPayments.intentId, intentId));
}
