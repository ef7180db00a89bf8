// SQL of the booking record and what is the booking's: the row itself (created by a checkout
// start, finalized after the deposit), its status and the record of every status move, its
// passengers and upsells. Other modules use these through the bookings service (service.ts).
import { and, asc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { RELAXED_CTE } from '../../db/relaxed-commit.js';
import {
  bookingAmendments,
  bookingNotes,
  bookingPassengers,
  bookingStatusTransitions,
  bookings,
  bookingUpsells,
  passengers,
  supplierConfirmations,
} from '../../db/schema/index.js';

// ---------------------------------------------------------------------------------------------
// The booking row (a checkout start inserts it in the same statement as its session)

export interface NewBooking {
  reference: string;
  offerId: number;
  marketCode: string;
  language: string;
  paxCount: number;
  actualPaxCount: number;
  actualRoomType: string;
  isNonStandardPax: boolean;
  totalPrice: string;
  currency: string;
}

const BOOKING_COLUMNS = `reference, offer_id, market_code, language, pax_count, actual_pax_count, actual_room_type,
  is_non_standard_pax, total_price, currency`;
const BOOKING_VALUES = `$1::varchar, $2::int, $3::varchar, $4::varchar, $5::int, $6::int, $7::varchar, $8::boolean,
  $9::numeric, $10::varchar`;

export function bookingParams(b: NewBooking): unknown[] {
  return [
    b.reference,
    b.offerId,
    b.marketCode,
    b.language,
    b.paxCount,
    b.actualPaxCount,
    b.actualRoomType,
    b.isNonStandardPax,
    b.totalPrice,
    b.currency,
  ];
}

/**
 * The booking insert of a start (relaxed commit, one statement): `FROM relaxed` first, then the
 * caller's own CTEs may follow; `inserted` holds the new row, none when the reference is taken.
 */
export const INSERT_BOOKING_CTE = `WITH ${RELAXED_CTE},
inserted AS (
  INSERT INTO bookings (${BOOKING_COLUMNS})
  SELECT ${BOOKING_VALUES} FROM relaxed
  ON CONFLICT (reference) DO NOTHING
  RETURNING id, reference
)`;

export type BookingRow = typeof bookings.$inferSelect;

export async function findBooking(db: DbOrTx, bookingId: number): Promise<BookingRow | null> {
  const rows = await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  return rows[0] ?? null;
}

export async function findBookingByReference(db: DbOrTx, reference: string): Promise<BookingRow | null> {
  const rows = await db.select().from(bookings).where(eq(bookings.reference, reference)).limit(1);
  return rows[0] ?? null;
}

// The booking's lifecycle after checkout: finalization and status moves lock the row in their
// own transaction and pass its handle.

export async function lockBooking(tx: DbOrTx, id: number): Promise<BookingRow | null> {
  const rows = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return rows[0] ?? null;
}

/** The booking's status, its row locked until the caller's transaction ends; undefined when none. */
export async function lockBookingStatus(tx: DbOrTx, id: number): Promise<string | undefined> {
  const current = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)).for('update');
  return current[0]?.status;
}

export async function setBookingStatus(tx: DbOrTx, id: number, status: string): Promise<void> {
  await tx.update(bookings).set({ status, updatedAt: sql`now()` }).where(eq(bookings.id, id));
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

// ---------------------------------------------------------------------------------------------
// Status transitions, passengers, upsells

/** The record of a status change, written in the same transaction as the status itself. */
export async function recordTransition(tx: DbOrTx, row: typeof bookingStatusTransitions.$inferInsert): Promise<void> {
  await tx.insert(bookingStatusTransitions).values(row);
}

export async function transitionsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(bookingStatusTransitions)
    .where(eq(bookingStatusTransitions.bookingId, bookingId))
    .orderBy(asc(bookingStatusTransitions.id));
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

export async function hasPassengers(tx: DbOrTx, bookingId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: bookingPassengers.passengerId })
    .from(bookingPassengers)
    .where(eq(bookingPassengers.bookingId, bookingId))
    .limit(1);
  return rows.length > 0;
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

export async function passengerCount(db: DbOrTx, bookingId: number): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookingPassengers)
    .where(eq(bookingPassengers.bookingId, bookingId));
  return Number(rows[0]?.n ?? 0);
}

export async function updatePassenger(tx: DbOrTx, passengerId: number, set: Partial<NewPassenger>): Promise<void> {
  await tx
    .update(passengers)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(passengers.id, passengerId));
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

// ---------------------------------------------------------------------------------------------
// After the sale: supplier confirmations, internal notes, amendments

export type SupplierConfirmationRow = typeof supplierConfirmations.$inferSelect;

export async function markLandRequested(tx: DbOrTx, bookingId: number, at: Date): Promise<void> {
  await tx.update(bookings).set({ landRequestedAt: at }).where(eq(bookings.id, bookingId));
}

export async function insertSupplierConfirmations(
  tx: DbOrTx,
  rows: (typeof supplierConfirmations.$inferInsert)[],
): Promise<SupplierConfirmationRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(supplierConfirmations).values(rows).returning();
}

export async function supplierConfirmationsOf(db: DbOrTx, bookingId: number): Promise<SupplierConfirmationRow[]> {
  return db
    .select()
    .from(supplierConfirmations)
    .where(eq(supplierConfirmations.bookingId, bookingId))
    .orderBy(asc(supplierConfirmations.id));
}

export async function lockSupplierConfirmation(tx: DbOrTx, id: number): Promise<SupplierConfirmationRow | null> {
  const rows = await tx.select().from(supplierConfirmations).where(eq(supplierConfirmations.id, id)).for('update');
  return rows[0] ?? null;
}

export async function findSupplierConfirmation(db: DbOrTx, id: number): Promise<SupplierConfirmationRow | null> {
  const rows = await db.select().from(supplierConfirmations).where(eq(supplierConfirmations.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateSupplierConfirmation(
  tx: DbOrTx,
  id: number,
  set: Partial<typeof supplierConfirmations.$inferInsert>,
): Promise<void> {
  await tx
    .update(supplierConfirmations)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(supplierConfirmations.id, id));
}

/** Requests still unanswered whose request (or last reminder) is older than `before`. */
export async function unansweredSince(db: DbOrTx, before: Date): Promise<SupplierConfirmationRow[]> {
  return db
    .select()
    .from(supplierConfirmations)
    .where(
      and(
        eq(supplierConfirmations.status, 'requested'),
        isNotNull(supplierConfirmations.supplierEmail),
        lte(sql`coalesce(${supplierConfirmations.remindedAt}, ${supplierConfirmations.requestedAt})`, before),
      ),
    )
    .orderBy(asc(supplierConfirmations.id))
    .limit(500);
}

/** Bookings in `status` (id and offer), oldest first. */
export async function bookingsIn(db: DbOrTx, status: string): Promise<{ id: number; offerId: number }[]> {
  return db
    .select({ id: bookings.id, offerId: bookings.offerId })
    .from(bookings)
    .where(eq(bookings.status, status))
    .orderBy(asc(bookings.id))
    .limit(5000);
}

export async function insertNote(tx: DbOrTx, row: typeof bookingNotes.$inferInsert) {
  const [note] = await tx.insert(bookingNotes).values(row).returning();
  return note!;
}

export async function notesOf(db: DbOrTx, bookingId: number) {
  return db.select().from(bookingNotes).where(eq(bookingNotes.bookingId, bookingId)).orderBy(asc(bookingNotes.id));
}

export async function insertAmendment(tx: DbOrTx, row: typeof bookingAmendments.$inferInsert) {
  const [amendment] = await tx.insert(bookingAmendments).values(row).returning();
  return amendment!;
}

export async function amendmentsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(bookingAmendments)
    .where(eq(bookingAmendments.bookingId, bookingId))
    .orderBy(asc(bookingAmendments.id));
}

export async function deleteUpsells(tx: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length) await tx.delete(bookingUpsells).where(inArray(bookingUpsells.id, ids));
}

export async function setTotalPrice(tx: DbOrTx, bookingId: number, totalPrice: string): Promise<void> {
  await tx.update(bookings).set({ totalPrice, updatedAt: sql`now()` }).where(eq(bookings.id, bookingId));
}

/** The requests of a removed service: cancelled, whatever their answer. */
export async function cancelSupplierConfirmations(
  tx: DbOrTx,
  bookingId: number,
  serviceType: string,
  serviceId: number,
  day: number,
): Promise<void> {
  await tx
    .update(supplierConfirmations)
    .set({ status: 'cancelled', updatedAt: sql`now()` })
    .where(
      and(
        eq(supplierConfirmations.bookingId, bookingId),
        eq(supplierConfirmations.serviceType, serviceType),
        eq(supplierConfirmations.serviceId, serviceId),
        eq(supplierConfirmations.dayStart, day),
      ),
    );
}

/** Bookings that moved to `cancelled` at or after `since` (once each, oldest first). */
export async function cancelledSince(db: DbOrTx, since: Date): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: bookingStatusTransitions.bookingId })
    .from(bookingStatusTransitions)
    .where(and(eq(bookingStatusTransitions.toStatus, 'cancelled'), gte(bookingStatusTransitions.createdAt, since)))
    .orderBy(asc(bookingStatusTransitions.bookingId));
  return rows.map((r) => r.id);
}
