// Tables of the balance module (migration range 0630-0659): the balance of each paid booking (due
// date, what is paid, what remains, the off-session charge attempts) and the card the deposit saved
// for it. The payments module writes the saved card; the balance module reads it.
import { date, index, integer, jsonb, numeric, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { bookings } from './checkout.js';
import { timestamps } from './columns.js';

/**
 * One row per finalized booking. status: scheduled (balance to collect on due_date), retrying (a
 * charge failed; next_attempt_at says when to try again), paid, overdue (every attempt failed).
 * charging_until is the lease of the run that is charging it now (a killed run's lease expires).
 */
export const bookingBalances = pgTable(
  'booking_balances',
  {
    bookingId: integer('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    departureDate: date('departure_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    amountPaid: numeric('amount_paid', { precision: 12, scale: 2 }).notNull(),
    remainingPrice: numeric('remaining_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    status: varchar('status', { length: 20 }).notNull(),
    /** charge attempts whose outcome is recorded (the next one is attempts + 1) */
    attempts: integer('attempts').notNull().default(0),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    chargingUntil: timestamp('charging_until', { withTimezone: true }),
    lastError: jsonb('last_error').$type<Record<string, unknown>>(),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    /** the latest PaymentIntent made through the pay link (checked before an off-session charge) */
    linkIntentId: varchar('link_intent_id', { length: 255 }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('booking_balances_status_due').on(t.status, t.dueDate)],
);

/** Each off-session charge attempt, recorded once: the idempotency key and what the gateway said. */
export const bookingBalanceAttempts = pgTable(
  'booking_balance_attempts',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    idempotencyKey: varchar('idempotency_key', { length: 100 }).notNull(),
    intentId: varchar('intent_id', { length: 255 }),
    /** succeeded | declined | authentication_required */
    outcome: varchar('outcome', { length: 30 }).notNull(),
    code: varchar('code', { length: 100 }),
    message: varchar('message', { length: 500 }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.attempt] })],
);

/**
 * The card a deposit saved for later off-session charges (Stripe: the Customer and the
 * PaymentMethod of the succeeded deposit intent made with setup_future_usage=off_session).
 */
export const bookingSavedCards = pgTable('booking_saved_cards', {
  bookingId: integer('booking_id')
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  gatewayCode: varchar('gateway_code', { length: 50 }).notNull(),
  customerId: varchar('customer_id', { length: 255 }).notNull(),
  paymentMethodId: varchar('payment_method_id', { length: 255 }).notNull(),
  ...timestamps,
});
