import {
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { bookings } from './checkout.js';
import { timestamps } from './columns.js';

/** One flight booking per booking and leg (the job's idempotency anchor). */
export const flightBookings = pgTable(
  'flight_bookings',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    legIndex: integer('leg_index').notNull(),
    /** international | domestic */
    flightType: varchar('flight_type', { length: 20 }).notNull(),
    cabinClass: varchar('cabin_class', { length: 10 }).notNull(),
    provider: varchar('provider', { length: 30 }).notNull(),
    fareId: text('fare_id').notNull(),
    flowId: text('flow_id'),
    reservationId: text('reservation_id').notNull(),
    pnr: varchar('pnr', { length: 20 }),
    status: varchar('status', { length: 30 }).notNull(),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** what the provider billed in its own currency, when it is not `currency` (Duffel) */
    billedTotal: numeric('billed_total', { precision: 12, scale: 2 }),
    billedCurrency: varchar('billed_currency', { length: 3 }),
    flightNumbers: text('flight_numbers').array().notNull(),
    /** reservation details from the provider, filled by the retrieval job */
    details: jsonb('details').$type<Record<string, unknown>>(),
    retrievedAt: timestamp('retrieved_at', { withTimezone: true }),
    /**
     * the provider's confirmed order cancellation (migration 1102): its id, the airline refund
     * (amount, currency, where it went) and when; the status is then `cancelled`
     */
    cancellation: jsonb('cancellation').$type<Record<string, unknown> | null>(),
    ...timestamps,
  },
  (t) => [uniqueIndex('flight_bookings_booking_leg').on(t.bookingId, t.legIndex)],
);

/**
 * Per-leg booking attempts the job has to remember across runs: how often no matching fare was
 * found (released once, then failed) and the last failure, for the operator.
 */
export const flightLegAttempts = pgTable(
  'flight_leg_attempts',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    legIndex: integer('leg_index').notNull(),
    noMatchCount: integer('no_match_count').notNull().default(0),
    lastError: jsonb('last_error').$type<Record<string, unknown>>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** set just before the provider's booking call: an order may exist from here on */
    bookingStartedAt: timestamp('booking_started_at', { withTimezone: true }),
    /** unclassified exceptions of the leg's job (the spec's max exceptions) */
    exceptionCount: integer('exception_count').notNull().default(0),
    /** the admin's last re-booking search for the leg: {flow_id, searched_at, fares} */
    rebookSearch: jsonb('rebook_search').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.legIndex] })],
);
