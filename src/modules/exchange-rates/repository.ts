// SQL of the exchange rates: the kept history and the current rates (the catalog's exchange_rates,
// read for conversions by catalog/supply.ts's loadExchangeRates).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { exchangeRateHistory, exchangeRates } from '../../db/schema/index.js';

/** The newest reference date in the history, or null before the first sync. */
export async function newestRateDate(db: DbOrTx): Promise<string | null> {
  const [row] = await db
    .select({ d: sql<string | null>`max(${exchangeRateHistory.rateDate})::text` })
    .from(exchangeRateHistory);
  return row?.d ?? null;
}

/** When the current rates were last written (by the sync or a catalog import), or null. */
/** When the current rates were last written (by the sync or a catalog import), or null. */
export async function currentRatesWrittenAt(db: DbOrTx): Promise<Date | null> {
  const [row] = await db.select({ at: sql<string | null>`max(${exchangeRates.updatedAt})::text` }).from(exchangeRates);
  return row?.at ? new Date(row.at) : null;
}

export async function keepHistory(
  db: DbOrTx,
  date: string,
  rates: Map<string, string>,
  source: string,
  at: Date,
): Promise<void> {
  const rows = [...rates].map(([currency, ratePerEur]) => ({
    currency,
    rateDate: date,
    ratePerEur,
    source,
    fetchedAt: at,
  }));
  await db
    .insert(exchangeRateHistory)
    .values(rows)
    .onConflictDoUpdate({
      target: [exchangeRateHistory.currency, exchangeRateHistory.rateDate],
      set: {
        ratePerEur: sql`excluded.rate_per_eur`,
        source: sql`excluded.source`,
        fetchedAt: sql`excluded.fetched_at`,
      },
    });
}

/** Sets the current rates of these currencies (others, e.g. imported ones the feed lacks, stay). */
export async function setCurrentRates(db: DbOrTx, rates: Map<string, string>, at: Date): Promise<void> {
  const rows = [...rates].map(([currency, ratePerEur]) => ({ currency, ratePerEur, updatedAt: at }));
  await db
    .insert(exchangeRates)
    .values(rows)
    .onConflictDoUpdate({
      target: exchangeRates.currency,
      set: { ratePerEur: sql`excluded.rate_per_eur`, updatedAt: sql`excluded.updated_at` },
    });
}
