// The cancellation policy of an offer's market product (null: the configured default), and the
// seats a cancelled booking gives back to its offer's allotment.
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { marketProducts, offers } from '../../db/schema/index.js';

export type PolicyStep = { days_before_departure: number; fee_percent: number };

export async function offerCancellationPolicy(db: DbOrTx, offerId: number): Promise<PolicyStep[] | null> {
  const rows = await db
    .select({ policy: marketProducts.cancellationPolicy })
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .where(eq(offers.id, offerId))
    .limit(1);
  const policy = rows[0]?.policy;
  return Array.isArray(policy) && policy.length ? policy : null;
}

/** A cancelled booking's seats go back to the offer (never below zero used). */
export async function returnSeats(tx: DbOrTx, offerId: number, seats: number): Promise<void> {
  await tx
    .update(offers)
    .set({ allotmentUsed: sql`greatest(0, ${offers.allotmentUsed} - ${seats})` })
    .where(eq(offers.id, offerId));
}
