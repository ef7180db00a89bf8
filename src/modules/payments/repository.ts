// SQL of the payments module: payments with their frozen quotes (booking_payments), seat holds,
// processed webhook events.
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { bookingPayments, paymentEvents, seatHolds } from '../../db/schema/index.js';

export type PaymentRow = typeof bookingPayments.$inferSelect;
export type HoldRow = typeof seatHolds.$inferSelect;

export async function insertPayment(db: DbOrTx, row: typeof bookingPayments.$inferInsert): Promise<void> {
  await db
    .insert(bookingPayments)
    .values(row)
    .onConflictDoUpdate({ target: bookingPayments.intentId, set: { status: row.status, updatedAt: sql`now()` } });
}

export async function findPayment(db: DbOrTx, intentId: string): Promise<PaymentRow | null> {
  const rows = await db.select().from(bookingPayments).where(eq(bookingPayments.intentId, intentId)).limit(1);
  return rows[0] ?? null;
}

/** The payment row locked until the caller's transaction ends: every finalizer queues here. */
export async function lockPayment(tx: DbOrTx, intentId: string): Promise<PaymentRow | null> {
  const rows = await tx.select().from(bookingPayments).where(eq(bookingPayments.intentId, intentId)).for('update');
  return rows[0] ?? null;
}

/** The booking's latest payment still open (not finalized, failed for good or canceled). */
export async function openPaymentOf(db: DbOrTx, bookingId: number): Promise<PaymentRow | null> {
  const rows = await db
    .select()
    .from(bookingPayments)
    .where(
      and(
        eq(bookingPayments.bookingId, bookingId),
        isNull(bookingPayments.finalizedAt),
        ne(bookingPayments.status, 'Canceled'),
      ),
    )
    .orderBy(sql`${bookingPayments.id} DESC`)
    .limit(1);
  return rows[0] ?? null;
}

/** True when a payment made from this checkout session (sha256 of its token) was finalized. */
export async function sessionPaid(db: DbOrTx, sessionId: string): Promise<boolean> {
  const rows = await db
    .select({ id: bookingPayments.id })
    .from(bookingPayments)
    .where(and(eq(bookingPayments.sessionId, sessionId), isNotNull(bookingPayments.finalizedAt)))
    .limit(1);
  return rows.length > 0;
}

export async function paymentsOf(db: DbOrTx, bookingId: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(bookingPayments)
    .where(eq(bookingPayments.bookingId, bookingId))
    .orderBy(asc(bookingPayments.id));
}

/** Records a status the gateway reported; a finalized payment keeps its Succeeded. */
export async function setStatus(db: DbOrTx, intentId: string, status: string): Promise<void> {
  await db
    .update(bookingPayments)
    .set({ status, updatedAt: sql`now()` })
    .where(and(eq(bookingPayments.intentId, intentId), isNull(bookingPayments.finalizedAt)));
}

/** Updates the contact and travelers a pending quote will finalize with (same selections). */
export async function refreshQuote(db: DbOrTx, intentId: string, quote: Record<string, unknown>): Promise<void> {
  await db
    .update(bookingPayments)
    .set({ quote, updatedAt: sql`now()` })
    .where(and(eq(bookingPayments.intentId, intentId), isNull(bookingPayments.finalizedAt)));
}

export async function markFinalized(
  tx: DbOrTx,
  intentId: string,
  set: { paymentMethodId: string | null; confirmation: Record<string, unknown> | null; at: Date },
): Promise<void> {
  await tx
    .update(bookingPayments)
    .set({
      status: 'Succeeded',
      paymentMethodId: set.paymentMethodId,
      confirmation: set.confirmation,
      finalizedAt: set.at,
      updatedAt: sql`now()`,
    })
    .where(eq(bookingPayments.intentId, intentId));
}

/** Open payments made before `before` that no path finished: the reconciliation asks the gateway. */
export async function stalePayments(db: DbOrTx, before: Date, limit = 200): Promise<PaymentRow[]> {
  return db
    .select()
    .from(bookingPayments)
    .where(
      and(
        isNull(bookingPayments.finalizedAt),
        lt(bookingPayments.createdAt, before),
        sql`${bookingPayments.status} NOT IN ('Failed', 'Canceled')`,
        sql`${bookingPayments.quote} IS NOT NULL`,
      ),
    )
    .orderBy(asc(bookingPayments.createdAt))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Seat holds

/** Seats held on an offer by bookings other than `bookingId` (expired holds count until released). */
export async function seatsHeldByOthers(tx: DbOrTx, offerId: number, bookingId: number): Promise<number> {
  const rows = await tx
    .select({ n: sql<number>`coalesce(sum(${seatHolds.seats}), 0)::int` })
    .from(seatHolds)
    .where(and(eq(seatHolds.offerId, offerId), ne(seatHolds.bookingId, bookingId)));
  return Number(rows[0]?.n ?? 0);
}

export async function holdSeats(
  tx: DbOrTx,
  hold: { bookingId: number; offerId: number; seats: number; expiresAt: Date },
): Promise<void> {
  await tx
    .insert(seatHolds)
    .values({ ...hold, intentId: null })
    .onConflictDoUpdate({
      target: seatHolds.bookingId,
      set: {
        offerId: hold.offerId,
        seats: hold.seats,
        intentId: null,
        expiresAt: hold.expiresAt,
        updatedAt: sql`now()`,
      },
    });
}

export async function attachHold(db: DbOrTx, bookingId: number, intentId: string): Promise<void> {
  await db.update(seatHolds).set({ intentId, updatedAt: sql`now()` }).where(eq(seatHolds.bookingId, bookingId));
}

export async function extendHold(db: DbOrTx, bookingId: number, expiresAt: Date): Promise<void> {
  await db.update(seatHolds).set({ expiresAt, updatedAt: sql`now()` }).where(eq(seatHolds.bookingId, bookingId));
}

export async function holdOf(db: DbOrTx, bookingId: number): Promise<HoldRow | null> {
  const rows = await db.select().from(seatHolds).where(eq(seatHolds.bookingId, bookingId));
  return rows[0] ?? null;
}

/** Releases a booking's hold; with `intentId`, only when the hold still belongs to that intent. */
export async function releaseHold(db: DbOrTx, bookingId: number, intentId?: string | null): Promise<boolean> {
  const where =
    intentId === undefined
      ? eq(seatHolds.bookingId, bookingId)
      : and(
          eq(seatHolds.bookingId, bookingId),
          intentId === null ? isNull(seatHolds.intentId) : eq(seatHolds.intentId, intentId),
        );
  const rows = await db.delete(seatHolds).where(where).returning({ id: seatHolds.bookingId });
  return rows.length > 0;
}

export async function expiredHolds(db: DbOrTx, now: Date, limit = 200): Promise<HoldRow[]> {
  return db.select().from(seatHolds).where(lt(seatHolds.expiresAt, now)).orderBy(asc(seatHolds.expiresAt)).limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Webhook events

/** Stores an event id; false when it was stored before (a redelivery). */
export async function recordEvent(
  db: DbOrTx,
  e: { id: string; type: string; intentId: string | null },
): Promise<boolean> {
  const rows = await db.insert(paymentEvents).values(e).onConflictDoNothing().returning({ id: paymentEvents.id });
  return rows.length > 0;
}

export async function forgetEvent(db: DbOrTx, id: string): Promise<void> {
  await db.delete(paymentEvents).where(eq(paymentEvents.id, id));
}

export async function eventsOf(db: DbOrTx, intentIds: string[]) {
  if (intentIds.length === 0) return [];
  return db.select().from(paymentEvents).where(inArray(paymentEvents.intentId, intentIds));
}
