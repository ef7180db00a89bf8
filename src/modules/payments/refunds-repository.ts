// SQL of refunds (booking_refunds).
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { bookingPayments, bookingRefunds } from '../../db/schema/index.js';

export type RefundRow = typeof bookingRefunds.$inferSelect;

export async function refundsOf(db: DbOrTx, bookingId: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(bookingRefunds)
    .where(eq(bookingRefunds.bookingId, bookingId))
    .orderBy(asc(bookingRefunds.id));
}

export async function findRefund(db: DbOrTx, id: number): Promise<RefundRow | null> {
  const rows = await db.select().from(bookingRefunds).where(eq(bookingRefunds.id, id));
  return rows[0] ?? null;
}

export async function findRefundByGatewayId(db: DbOrTx, gatewayRefundId: string): Promise<RefundRow | null> {
  const rows = await db.select().from(bookingRefunds).where(eq(bookingRefunds.gatewayRefundId, gatewayRefundId));
  return rows[0] ?? null;
}

export async function findRefundByKey(db: DbOrTx, key: string): Promise<RefundRow | null> {
  const rows = await db.select().from(bookingRefunds).where(eq(bookingRefunds.idempotencyKey, key));
  return rows[0] ?? null;
}

/** The next refund number of a booking (the caller holds the booking's row lock). */
export async function nextSequence(tx: DbOrTx, bookingId: number): Promise<number> {
  const rows = await tx
    .select({ n: sql<number>`coalesce(max(${bookingRefunds.sequence}), 0)::int` })
    .from(bookingRefunds)
    .where(eq(bookingRefunds.bookingId, bookingId));
  return Number(rows[0]?.n ?? 0) + 1;
}

export async function insertRefund(tx: DbOrTx, row: typeof bookingRefunds.$inferInsert): Promise<RefundRow> {
  const [inserted] = await tx.insert(bookingRefunds).values(row).returning();
  return inserted;
}

export async function updateRefund(
  db: DbOrTx,
  id: number,
  set: Partial<Pick<RefundRow, 'status' | 'gatewayRefundId' | 'failureReason'>>,
): Promise<void> {
  await db
    .update(bookingRefunds)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(bookingRefunds.id, id));
}

/** Refunds not finished `before`: never sent (no gateway id) or still pending at the gateway. */
export async function unfinishedRefunds(db: DbOrTx, before: Date, limit = 200): Promise<RefundRow[]> {
  return db
    .select()
    .from(bookingRefunds)
    .where(and(inArray(bookingRefunds.status, ['pending', 'requires_action']), lt(bookingRefunds.createdAt, before)))
    .orderBy(asc(bookingRefunds.createdAt))
    .limit(limit);
}

/** The booking's succeeded payments (oldest first: the deposit, then balance payments). */
export async function paidPaymentsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(bookingPayments)
    .where(and(eq(bookingPayments.bookingId, bookingId), eq(bookingPayments.status, 'Succeeded')))
    .orderBy(asc(bookingPayments.id));
}

export async function paymentById(db: DbOrTx, id: number) {
  const rows = await db.select().from(bookingPayments).where(eq(bookingPayments.id, id));
  return rows[0] ?? null;
}

export async function paymentByIntent(db: DbOrTx, intentId: string) {
  const rows = await db.select().from(bookingPayments).where(eq(bookingPayments.intentId, intentId));
  return rows[0] ?? null;
}
