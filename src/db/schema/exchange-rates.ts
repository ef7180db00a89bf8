// The exchange rates' history (migration range 0930): one row per currency and ECB reference
// date, kept. The rates every conversion uses are the catalog's `exchange_rates` rows, which the
// daily sync updates to the newest date it loaded.
import { date, numeric, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';

export const exchangeRateHistory = pgTable(
  'exchange_rate_history',
  {
    /** ISO currency code; the rate is units of this currency per 1 EUR */
    currency: text('currency').notNull(),
    /** the reference date the source published the rate for */
    rateDate: date('rate_date').notNull(),
    ratePerEur: numeric('rate_per_eur', { precision: 18, scale: 8 }).notNull(),
    /** where it came from: 'ecb' */
    source: varchar('source', { length: 20 }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'exchange_rate_history_pkey', columns: [t.currency, t.rateDate] })],
);
