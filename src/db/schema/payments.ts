// Tables of the payments module (migration range 0600-0629): seat holds from payment intent to
// payment, processed webhook events, the sandbox gateway's own intents (embedded demo), and the
// payments themselves (booking_payments, created in the flights range 0350-0399).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { bookings } from './checkout.js';
import { timestamps } from './columns.js';

/**
 * Seats an unpaid booking holds on its offer, from its payment intent until the payment succeeds
 * (the finalization turns them into allotment_used) or the intent is found dead. One per booking.
 */
export const seatHolds = pgTable(
  'seat_holds',
  {
    bookingId: integer('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    offerId: integer('offer_id').notNull(),
    seats: integer('seats').notNull(),
    intentId: varchar('intent_id', { length: 255 }),
    /** after this the release task asks the gateway; seats count until the intent is dead */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index('seat_holds_offer').on(t.offerId), index('seat_holds_expiry').on(t.expiresAt)],
);

/** Webhook events processed, by the processor's event id (a redelivery is a no-op). */
export const paymentEvents = pgTable('payment_events', {
  id: varchar('id', { length: 255 }).primaryKey(),
  type: varchar('type', { length: 100 }).notNull(),
  intentId: varchar('intent_id', { length: 255 }),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The sandbox gateway's intents (no Stripe key, not production): status, customer, saved method. */
export const sandboxPaymentIntents = pgTable('sandbox_payment_intents', {
  id: varchar('id', { length: 255 }).primaryKey(),
  amount: integer('amount').notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  status: varchar('status', { length: 40 }).notNull(),
  clientSecret: varchar('client_secret', { length: 255 }).notNull(),
  customerId: varchar('customer_id', { length: 255 }),
  paymentMethod: varchar('payment_method', { length: 255 }),
  setupFutureUsage: varchar('setup_future_usage', { length: 20 }),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  ...timestamps,
});

/** Payment intents made for a booking's deposit (one per amount; confirm looks them up). */
export const bookingPayments = pgTable(
  'booking_payments',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    intentId: varchar('intent_id', { length: 255 }).notNull(),
    gatewayCode: varchar('gateway_code', { length: 50 }).notNull(),
    methodCode: varchar('method_code', { length: 50 }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    status: varchar('status', { length: 30 }).notNull(),
    /** the frozen quote (migration 0600): totals, selection fingerprint and the session state to finalize */
    quote: jsonb('quote').$type<Record<string, unknown> | null>(),
    fingerprint: varchar('fingerprint', { length: 64 }),
    /** sha256 of the checkout session token that made the intent (idempotent confirm after the session ends) */
    sessionId: varchar('session_id', { length: 64 }),
    /** the gateway's customer the card is saved to, and the saved payment method after success */
    customerId: varchar('customer_id', { length: 255 }),
    paymentMethodId: varchar('payment_method_id', { length: 255 }),
    /** the confirm answer, stored by the finalization that paid the booking */
    confirmation: jsonb('confirmation').$type<Record<string, unknown> | null>(),
    finalizedAt: timestamp('finalized_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('booking_payments_intent').on(t.intentId),
    index('booking_payments_booking').on(t.bookingId),
    index('booking_payments_open').on(t.createdAt).where(sql`finalized_at IS NULL`),
    // money taken per day (the console's home, migration 1200)
    index('booking_payments_taken')
      .on(sql`coalesce(${t.finalizedAt}, ${t.createdAt})`)
      .where(sql`status = 'Succeeded'`),
  ],
);
