// SQL of the mail outbox. Rows are written inside the caller's transaction (the event's), claimed
// by a delivery run with a lease, and marked sent or rescheduled by that run only.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { mailOutbox } from '../../db/schema/index.js';

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type NewOutboxRow = typeof mailOutbox.$inferInsert;

/** Writes the mail unless one with its key exists; true when written. */
export async function insertMail(tx: DbOrTx, row: NewOutboxRow): Promise<boolean> {
  const rows = await tx
    .insert(mailOutbox)
    .values(row)
    .onConflictDoNothing({ target: mailOutbox.key })
    .returning({ id: mailOutbox.id });
  return rows.length > 0;
}

/**
 * Claims up to `limit` pending mails that are due and not leased by another run: they are leased
 * until `leaseUntil`, so a second run (or a run after a crash, once the lease is over) does not
 * send them at the same time.
 */
export async function claimDueMails(db: DbOrTx, now: Date, leaseUntil: Date, limit: number): Promise<OutboxRow[]> {
  return db
    .update(mailOutbox)
    .set({ claimedUntil: leaseUntil })
    .where(
      sql`${mailOutbox.id} IN (SELECT id FROM mail_outbox
            WHERE status = 'pending' AND next_attempt_at <= ${now}
              AND (claimed_until IS NULL OR claimed_until < ${now})
            ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)`,
    )
    .returning();
}

export async function markSent(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: at, claimedUntil: null, attempts: sql`${mailOutbox.attempts} + 1`, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
}

/** A failed try: next_attempt_at, or status failed when `next` is null. */
export async function markAttemptFailed(db: DbOrTx, id: number, error: string, next: Date | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      lastError: error.slice(0, 1000),
      claimedUntil: null,
      ...(next ? { nextAttemptAt: next } : { status: 'failed' }),
    })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
}

export async function listMails(
  db: DbOrTx,
  opts: { status?: string; bookingId?: number; limit: number },
): Promise<OutboxRow[]> {
  const where = and(
    opts.status ? eq(mailOutbox.status, opts.status) : undefined,
    opts.bookingId ? eq(mailOutbox.bookingId, opts.bookingId) : undefined,
  );
  return db.select().from(mailOutbox).where(where).orderBy(desc(mailOutbox.id)).limit(opts.limit);
}
