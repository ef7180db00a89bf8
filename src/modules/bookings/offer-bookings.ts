// What the catalog asks of bookings before an offer changes: how many paid bookings each offer
// has (paid: neither an open checkout, an abandoned one nor cancelled).
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { bookings, offers } from '../../db/schema/index.js';

export async function paidBookingsByOfferCode(db: DbOrTx, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ code: offers.code, n: sql<number>`count(*)::int` })
    .from(bookings)
    .innerJoin(offers, eq(offers.id, bookings.offerId))
    .where(and(inArray(offers.code, codes), notInArray(bookings.status, ['checkout', 'abandoned', 'cancelled'])))
    .groupBy(offers.code);
  return new Map(rows.map((r) => [r.code, Number(r.n)]));
}
