// Tables of the checkout module (see its migration range in src/db/migrations): bookings with their
// funnel, server-side checkout sessions, clients (booking contacts) and internal API tokens.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
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
import { timestamps } from './columns.js';

/** Booking contacts (created or updated from client_data at payment confirmation; mirrored to the CRM). */
export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }).notNull(),
    email: varchar('email', { length: 255 }).notNull(),
    phone: varchar('phone', { length: 30 }).notNull(),
    ...timestamps,
  },
  (t) => [
    index('clients_email').on(sql`lower(${t.email})`),
    // the console's booking search: e-mail, last name or "first last" prefixes
    index('clients_email_prefix').on(sql`lower(${t.email}) text_pattern_ops`),
    index('clients_last_name_prefix').on(sql`lower(${t.lastName}) text_pattern_ops`),
    index('clients_full_name_prefix').on(sql`lower(${t.firstName} || ' ' || ${t.lastName}) text_pattern_ops`),
  ],
);

/**
 * A booking; created with status `checkout` when a checkout starts (funnel tracking), finalized by
 * the payment. checkout_step is the furthest funnel step reached, current_step the last one viewed.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    /** human-friendly, e.g. IT-7K3QX9 */
    reference: varchar('reference', { length: 20 }).notNull(),
    status: varchar('status', { length: 40 }).notNull().default('checkout'),
    /** no foreign key: a catalog import may remove an offer, the booking must stay */
    offerId: integer('offer_id').notNull(),
    marketCode: varchar('market_code', { length: 5 }).notNull(),
    language: varchar('language', { length: 5 }).notNull(),
    clientId: integer('client_id').references(() => clients.id),
    paxCount: integer('pax_count').notNull(),
    actualPaxCount: integer('actual_pax_count').notNull(),
    actualRoomType: varchar('actual_room_type', { length: 10 }).notNull(),
    isNonStandardPax: boolean('is_non_standard_pax').notNull().default(false),
    /** total in the market currency when the checkout started (the payment stores the final one) */
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    flightSelection: jsonb('flight_selection').$type<Record<string, unknown> | null>(),
    paymentMethodCode: varchar('payment_method_code', { length: 50 }),
    paymentGatewayCode: varchar('payment_gateway_code', { length: 50 }),
    checkoutStep: varchar('checkout_step', { length: 20 }),
    currentStep: varchar('current_step', { length: 20 }),
    /** when finalization asked the suppliers to confirm the land services (null: never asked) */
    landRequestedAt: timestamp('land_requested_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('bookings_reference').on(t.reference),
    index('bookings_status').on(t.status),
    index('bookings_offer').on(t.offerId),
    // the console's booking list: newest first, optionally per status or market; reference prefix search
    index('bookings_created').on(t.createdAt, t.id),
    index('bookings_status_created').on(t.status, t.createdAt, t.id),
    index('bookings_market_created').on(t.marketCode, t.createdAt, t.id),
    index('bookings_status_market_created').on(t.status, t.marketCode, t.createdAt, t.id),
    index('bookings_client').on(t.clientId),
    index('bookings_reference_prefix').on(t.reference.op('text_pattern_ops')),
    // the operations console (migration 1200): sold bookings per departure, and per day for the
    // home and the revenue report, read from the index alone
    index('bookings_offer_sold').on(t.offerId, t.totalPrice).where(sql`status NOT IN ('checkout', 'abandoned')`),
    index('bookings_created_sold')
      .on(t.createdAt, t.marketCode, t.currency, t.totalPrice, t.offerId)
      .where(sql`status NOT IN ('checkout', 'abandoned')`),
  ],
);

/** First visit of each funnel step of a booking. */
export const bookingStepVisits = pgTable(
  'booking_step_visits',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    step: varchar('step', { length: 20 }).notNull(),
    firstVisitedAt: timestamp('first_visited_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.step] })],
);

/**
 * Server-side checkout sessions. id is the sha256 of the random token in the visitor's signed
 * cookie (a database reader cannot replay it); visitor_id is unique, so a visitor has at most one
 * live session and a new start overwrites the previous one atomically.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    visitorId: varchar('visitor_id', { length: 64 }).notNull(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    offerId: integer('offer_id').notNull(),
    marketCode: varchar('market_code', { length: 5 }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('checkout_sessions_visitor').on(t.visitorId), index('checkout_sessions_expiry').on(t.expiresAt)],
);

/** Bearer tokens for internal endpoints; only the sha256 of the token is stored. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    abilities: text('abilities').array().notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('api_tokens_hash').on(t.tokenHash)],
);
