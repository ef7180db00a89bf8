// Departure rules and the offers generated from them (migration range 0940): the offers.generate
// task turns each active rule into departures (offers) over the coming OFFER_HORIZON_DAYS.
import { boolean, date, index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { airports, marketProducts, offers } from './catalog.js';
import { timestamps } from './columns.js';

export const offerRules = pgTable(
  'offer_rules',
  {
    id: serial('id').primaryKey(),
    /** natural key used by the import; generated offers are coded `<code>-<YYYYMMDD>` */
    code: text('code').notNull().unique(),
    marketProductId: integer('market_product_id')
      .notNull()
      .references(() => marketProducts.id, { onDelete: 'cascade' }),
    departureAirport: text('departure_airport')
      .notNull()
      .references(() => airports.iataCode),
    /** ISO weekdays the tour departs on: 1 Monday ... 7 Sunday */
    weekdays: jsonb('weekdays').$type<number[]>().notNull().default([]),
    /** single departure dates (YYYY-MM-DD), besides the weekdays */
    dates: jsonb('dates').$type<string[]>().notNull().default([]),
    seasonStart: date('season_start', { mode: 'string' }).notNull(),
    seasonEnd: date('season_end', { mode: 'string' }).notNull(),
    paxCount: integer('pax_count').notNull().default(2),
    /** the allotment of each generated departure */
    seats: integer('seats').notNull(),
    marginPercent: numeric('margin_percent', { precision: 6, scale: 2 }).notNull().default('0'),
    /** per person, in the market's currency, when no live search has cached a fare for the date */
    fallbackFlightPrice: numeric('fallback_flight_price', { precision: 12, scale: 2 }),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('offer_rules_product_idx').on(t.marketProductId)],
);

/**
 * Offers the generator made, with a fingerprint of what it wrote (status, prices, seats): an
 * offer whose row no longer matches was changed by someone else (an admin, an import, a live
 * search) and the generator leaves it alone.
 */
export const generatedOffers = pgTable('generated_offers', {
  offerId: integer('offer_id')
    .primaryKey()
    .references(() => offers.id, { onDelete: 'cascade' }),
  ruleId: integer('rule_id')
    .notNull()
    .references(() => offerRules.id, { onDelete: 'cascade' }),
  fingerprint: text('fingerprint').notNull(),
  generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
});
