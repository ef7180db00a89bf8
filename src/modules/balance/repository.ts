// SQL of the balance module: balances, their charge attempts and the saved cards.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { bookingBalanceAttempts, bookingBalances, bookingSavedCards } from '../../db/schema/index.js';

export type BalanceRow = typeof bookingBalances.$inferSelect;
export type SavedCard = typeof bookingSavedCards.$inferSelect;

export async function insertBalance(tx: DbOrTx, row: typeof bookingBalances.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(bookingBalances)
    .values(row)
    .onConflictDoNothing({ target: bookingBalances.bookingId })
    .returning({ id: bookingBalances.bookingId });
  return rows.length > 0;
}

export async function findBalance(db: DbOrTx, bookingId: number): Promise<BalanceRow | null> {
  const rows = await db.select().from(bookingBalances).where(eq(bookingBalances.bookingId, bookingId)).limit(1);
  return rows[0] ?? null;
}

export async function lockBalance(tx: DbOrTx, bookingId: number): Promise<BalanceRow | null> {
  const rows = await tx.select().from(bookingBalances).where(eq(bookingBalances.bookingId, bookingId)).for('update');
  return rows[0] ?? null;
}

export async function updateBalance(
  tx: DbOrTx,
  bookingId: number,
  set: Partial<typeof bookingBalances.$inferInsert>,
): Promise<void> {
  await tx
    .update(bookingBalances)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(bookingBalances.bookingId, bookingId));
}

/**
 * Leases the balances to charge now: scheduled ones due by `dueBy`, retrying ones whose next try
 * has come, none leased by another run (a killed run's lease ends at its charging_until).
 */
export async function claimDueBalances(
  db: DbOrTx,
  opts: { dueBy: string; now: Date; leaseUntil: Date; limit: number },
): Promise<BalanceRow[]> {
  return db
    .update(bookingBalances)
    .set({ chargingUntil: opts.leaseUntil })
    .where(
      sql`${bookingBalances.bookingId} IN (SELECT booking_id FROM booking_balances
            WHERE ((status = 'scheduled' AND due_date <= ${opts.dueBy})
                OR (status = 'retrying' AND next_attempt_at <= ${opts.now}))
              AND (charging_until IS NULL OR charging_until < ${opts.now})
            ORDER BY due_date, booking_id LIMIT ${opts.limit} FOR UPDATE SKIP LOCKED)`,
    )
    .returning();
}

export async function releaseBalance(db: DbOrTx, bookingId: number): Promise<void> {
  await db.update(bookingBalances).set({ chargingUntil: null }).where(eq(bookingBalances.bookingId, bookingId));
}

/** Scheduled balances whose reminder is not sent and whose due date is within [from, to). */
export async function balancesToRemind(db: DbOrTx, from: string, to: string): Promise<BalanceRow[]> {
  return db
    .select()
    .from(bookingBalances)
    .where(
      and(
        eq(bookingBalances.status, 'scheduled'),
        isNull(bookingBalances.reminderSentAt),
        sql`${bookingBalances.dueDate} > ${from} AND ${bookingBalances.dueDate} <= ${to}`,
      ),
    );
}

/** Records the outcome of charge attempt n once; false when it was recorded already. */
export async function recordAttempt(tx: DbOrTx, row: typeof bookingBalanceAttempts.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(bookingBalanceAttempts)
    .values(row)
    .onConflictDoNothing()
    .returning({ attempt: bookingBalanceAttempts.attempt });
  return rows.length > 0;
}

export async function attemptsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(bookingBalanceAttempts)
    .where(eq(bookingBalanceAttempts.bookingId, bookingId))
    .orderBy(bookingBalanceAttempts.attempt);
}

export async function findSavedCard(db: DbOrTx, bookingId: number): Promise<SavedCard | null> {
  const rows = await db.select().from(bookingSavedCards).where(eq(bookingSavedCards.bookingId, bookingId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertSavedCard(
  db: DbOrTx,
  card: { bookingId: number; gatewayCode: string; customerId: string; paymentMethodId: string },
): Promise<void> {
  await db
    .insert(bookingSavedCards)
    .values(card)
    .onConflictDoUpdate({
      target: bookingSavedCards.bookingId,
      set: {
        gatewayCode: card.gatewayCode,
        customerId: card.customerId,
        paymentMethodId: card.paymentMethodId,
        updatedAt: sql`now()`,
      },
    });
}
